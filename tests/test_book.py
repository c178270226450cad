"""Opening books: solve takes a book's exact scores instead of searching below them.

Small gravity boards get a book written here from the exhaustive referee (tests/minimax.py);
every position above the book is then solved with it and checked against the referee, a
book with false scores shows that the solver trusts it, and bad book files are refused with
a clear error. The Connect Four book noughts ships is checked for coverage, against fresh
solves, and against Connect Four's known value (the first player wins, in the middle)."""

from __future__ import annotations

import functools
import json
import subprocess
import sys
from pathlib import Path

import noughts
import pytest
from minimax import minimax, move_values
from noughts import Classic, InvalidOptionError, OpeningBook

HEADER = "# a book written by tests/test_book.py\n"


def canonical(g: Classic) -> str:
    return min(g.symmetric(s).to_string() for s in range(g.num_symmetries))


def positions(start: Classic, plies: int) -> dict[str, list[str]]:
    """Move names reaching each position (up to symmetry) `plies` moves from the start that is not over."""
    # Layer by layer, one position of each class expanded: a symmetric copy's moves are the
    # copies of its moves, so the classes found are those of a walk over every move order.
    layer: dict[str, list[str]] = {canonical(start): []}
    for _ in range(plies):
        below: dict[str, list[str]] = {}
        for moves in layer.values():
            g = after(start, moves)
            for m in g.legal_actions():
                name = g.move_name(m)
                g.play(m)
                if not g.is_over():
                    below.setdefault(canonical(g), [*moves, name])
                g.undo()
        layer = below
    return layer


def after(start: Classic, moves: list[str]) -> Classic:
    g = start.copy()
    for name in moves:
        g.play(g.parse_move(name))
    return g


def write_book(path: Path, start: Classic, lines: list[str]) -> Path:
    path.write_text(HEADER + f"# game: classic {json.dumps(start.options())}\n" + "\n".join(lines) + "\n")
    return path


def referee_line(g: Classic, memo: dict) -> list[str]:
    """One line of best play to the end by the referee: each move keeps the exact score."""
    g, line = g.copy(), []
    while not g.is_over():
        me, (v, d) = g.to_move, minimax(g, memo)
        for m in g.legal_actions():
            name = g.move_name(m)
            g.play(m)
            if g.is_over():
                child = (0 if g.winner is None else (1 if g.winner == me else -1), 1)
            else:
                cv, cd = minimax(g, memo)
                child = (cv if g.to_move == me else -cv, cd + 1)
            if child[0] == v and (v == 0 or child[1] == d):
                line.append(name)
                break
            g.undo()
        else:
            raise AssertionError("no move keeps the referee's score")
    return line


def referee_book(path: Path, start: Classic, plies: int, lines_of_play: bool = True) -> Path:
    """A book of every position `plies` moves from the start, scored by the referee (with its
    lines of best play)."""
    memo: dict = {}
    lines = []
    for moves in positions(start, plies).values():
        g = after(start, moves)
        v, d = minimax(g, memo)
        play = f" : {' '.join(referee_line(g, memo))}" if lines_of_play else ""
        lines.append(f"{' '.join(moves)} {v} {d if v else 0}{play}")
    return write_book(path, start, lines)


BOARDS = [(4, 4, 3, 3, True), (5, 4, 3, 2, True), (4, 4, 3, 1, False)]


@pytest.mark.parametrize(("rows", "cols", "k", "plies", "lines_of_play"), BOARDS)
def test_every_position_above_the_book_is_solved_as_the_referee_says(tmp_path, rows, cols, k, plies, lines_of_play):
    start = Classic(rows, cols, k, gravity=True)
    book = OpeningBook(referee_book(tmp_path / "book.txt", start, plies, lines_of_play))
    assert book.plies == (plies, plies)
    assert len(book) == len(positions(start, plies))
    memo: dict = {}
    for depth in range(plies + 1):
        for moves in positions(start, depth).values():
            g = after(start, moves)
            v, d = minimax(g, memo)
            values = move_values(g, memo)
            s = noughts.solve(g, book=book)
            assert (s.value, s.distance) == (v, d if v else None), moves
            assert [m.id for m in s.best_moves] == sorted(m for m, mv in values.items() if mv == v), moves
            line = g.copy()
            for m in s.principal_variation:
                line.play(m)
            assert line.is_over() and (v == 0 or len(s.principal_variation) == d)
            assert (line.winner is None, line.winner == g.to_move) == (v == 0, v > 0)
            # The variation passes the book's depth; from there on it is the book's line, if it has one.
            at_book = g.copy()
            for m in s.principal_variation[: plies - depth]:
                at_book.play(m)
            if lines_of_play and not at_book.is_over():
                assert s.principal_variation[plies - depth :] == book.line(at_book)
            assert noughts.solve(g, book=book, move_values=True).move_values == values, moves
            assert noughts.solve(g, book=book, weak=True).value == v, moves
            assert noughts.solve(g, book=book, threads=2).best_moves == s.best_moves, moves


def test_the_book_spares_the_search_its_positions(tmp_path):
    start = Classic(4, 4, 3, gravity=True)
    book = OpeningBook(referee_book(tmp_path / "book.txt", start, 3))
    with_book, without = noughts.solve(start, book=book), noughts.solve(start, book=False)
    assert (with_book.value, with_book.distance) == (without.value, without.distance)
    assert with_book.nodes < without.nodes


def test_the_solver_takes_the_books_scores_without_searching_them(tmp_path):
    # A book that says every position 3 moves in is a draw: no line can be made
    # before then on this board, so the start is a draw by the book, although X wins.
    start = Classic(4, 4, 3, gravity=True)
    assert minimax(start.copy())[0] == 1
    false = write_book(tmp_path / "false.txt", start, [f"{' '.join(m)} 0 0" for m in positions(start, 3).values()])
    s = noughts.solve(start, book=OpeningBook(false))
    assert (s.value, s.distance) == (0, None)
    assert noughts.solve(start, book=False).value == 1


def test_a_line_of_best_play_is_given_for_every_symmetric_copy(tmp_path):
    start = Classic(4, 4, 3, gravity=True)
    book = OpeningBook(referee_book(tmp_path / "book.txt", start, 3))
    for moves in positions(start, 3).values():
        for g in (after(start, moves), after(start, [chr(ord("a") + ord("d") - ord(m)) for m in moves])):
            v, d = minimax(g)
            line = book.line(g)
            end = g.copy()
            for m in line:
                end.play(m)
            assert end.is_over() and (v == 0 or len(line) == d), moves
            assert (end.winner is None, end.winner == g.to_move) == (v == 0, v > 0), moves


def test_lines_are_mapped_onto_each_of_eight_symmetric_copies(tmp_path):
    # Tic-tac-toe's board has the eight symmetries of the square, rotations among them.
    start = Classic()
    book = OpeningBook(referee_book(tmp_path / "book.txt", start, 2))
    memo: dict = {}
    for moves in positions(start, 2).values():
        g = after(start, moves)
        v, d = minimax(g, memo)
        for s in range(g.num_symmetries):
            copy = Classic.from_string(g.symmetric(s).to_string())
            assert book.lookup(copy) == (v, d if v else 0)
            end = copy.copy()
            for m in book.line(copy):
                end.play(m)
            assert end.is_over() and (end.winner is None) == (v == 0), (moves, s)
            s_solved = noughts.solve(copy, book=book)
            assert (s_solved.value, s_solved.principal_variation) == (v, book.line(copy))


def test_a_position_is_found_by_any_of_its_symmetric_copies(tmp_path):
    start = Classic(4, 4, 3, gravity=True)
    book = OpeningBook(referee_book(tmp_path / "book.txt", start, 3))
    g = after(start, ["a", "b", "b"])
    mirror = after(start, ["d", "c", "c"])
    assert book.lookup(g) is not None
    v, d = minimax(g)
    assert book.lookup(g) == book.lookup(mirror) == (v, d if v else 0)
    assert book.lookup(Classic.from_string(g.to_string())) == book.lookup(g)  # however it was made
    assert book.lookup(after(start, ["a", "b"])) is None  # not a book position
    assert book.lookup(Classic(4, 4, 3)) is None  # other rules


@pytest.mark.parametrize(
    ("body", "says"),
    [
        ("a z 1 5", "line 3: move .z."),
        ("a a a a a 1 5", "not legal"),
        ("a b 2 5", "1, 0 or -1"),
        ("a b 1 0", "distance"),
        ("a b 0 3", "distance"),
        ("a b -1 1000", "distance"),
        ("a b one 5", "whole numbers, not 'one' '5'"),
        ("a b +-1 5", "whole numbers"),
        ("a b 99999999999999999999 5", "1, 0 or -1"),
        ("a b 1 5x", "whole numbers"),
        ("5", "the moves from the start, the value and the distance"),
        ("a b 99999999999 5", "1, 0 or -1"),
        ("a b 1 5\nd c 1 7", "two different scores"),
        ("a b a b a 1 3", "not over"),
        ("a b b 1 5 : a a a a", "move 4 of best play is not legal"),
        ("a b b 1 5 : a c", "does not end the game"),
        ("a b b -1 4 : a b a b a", "goes on after"),
        ("a b b 1 4 : a b a b", "does not end the game with its value"),
        ("a b b -1 6 : a b a b", "in its distance"),
    ],
)
def test_a_bad_book_line_is_refused(tmp_path, body, says):
    path = write_book(tmp_path / "bad.txt", Classic(4, 4, 3, gravity=True), [body])
    with pytest.raises(InvalidOptionError, match=says) as refused:
        OpeningBook(path)
    assert f"bad.txt, line {2 + body.count(chr(10)) + 1}:" in str(refused.value)


def test_a_bad_line_among_good_ones_is_named(tmp_path):
    start = Classic(4, 4, 3, gravity=True)
    good = [
        f"{' '.join(m)} {v} {d if v else 0}"
        for m in positions(start, 2).values()
        for v, d in [minimax(after(start, m))]
    ]
    path = write_book(tmp_path / "bad.txt", start, [*good[:3], "a a a a a 1 5", *good[3:]])
    with pytest.raises(InvalidOptionError, match="bad.txt, line 6: .*not legal"):
        OpeningBook(path)
    assert len(OpeningBook(write_book(tmp_path / "good.txt", start, good))) == len(good)
    # A value may carry a sign, and fields may be parted by tabs.
    signed = [line.replace(" 1 ", " +1 ").replace(" ", "\t") for line in good]
    book = OpeningBook(write_book(tmp_path / "signed.txt", start, signed))
    assert all(
        book.lookup(after(start, line.split()[:2])) == (int(line.split()[2]), int(line.split()[3])) for line in good
    )


def test_a_file_that_is_not_a_book_is_refused(tmp_path):
    with pytest.raises(InvalidOptionError, match="cannot read"):
        OpeningBook(tmp_path / "missing.txt")
    (tmp_path / "plain.txt").write_text("a b 1 5\n")
    with pytest.raises(InvalidOptionError, match="no '# game:"):
        OpeningBook(tmp_path / "plain.txt")
    (tmp_path / "binary.txt").write_bytes(b"# game: classic {}\n\xff\xfe\n")
    with pytest.raises(InvalidOptionError, match="UTF-8"):
        OpeningBook(tmp_path / "binary.txt")
    (tmp_path / "other.txt").write_text('# game: chess {"rows": 8}\n')
    with pytest.raises(InvalidOptionError, match="does not name a game"):
        OpeningBook(tmp_path / "other.txt")


def test_solve_refuses_a_book_it_cannot_use(tmp_path):
    start = Classic(4, 4, 3, gravity=True)
    book = OpeningBook(referee_book(tmp_path / "book.txt", start, 1))
    with pytest.raises(InvalidOptionError, match="rules"):
        noughts.solve(Classic(4, 4, 3), book=book)
    with pytest.raises(InvalidOptionError, match="alphabeta"):
        noughts.solve(start, book=book, method="pns")
    with pytest.raises(InvalidOptionError, match="OpeningBook"):
        noughts.solve(start, book="connect4.txt")
    assert noughts.solve(start, book=True, method="pns").value == 1  # no shipped book for this board: none used


# Connect Four's shipped book.
CONNECT_FOUR = Classic(6, 7, 4, gravity=True)


@functools.cache
def connect_four_layer(plies: int) -> list[list[str]]:
    """Moves reaching each Connect Four position `plies` moves in, one of each mirror pair."""
    return list(positions(CONNECT_FOUR, plies).values())


def test_connect_four_has_a_book_of_every_position_of_its_depths():
    book = noughts.shipped_book(CONNECT_FOUR)
    assert book is not None and book.applies_to(CONNECT_FOUR)
    low, high = book.plies
    # docs/solver.md: every position with 4 to 7 moves played, up to the mirror
    assert (low, high) == (4, 7)
    sizes = []
    for plies in range(low, high + 1):
        layer = connect_four_layer(plies)
        missing = [moves for moves in layer if book.lookup(after(CONNECT_FOUR, moves)) is None]
        assert not missing, f"{len(missing)} positions with {plies} moves played are missing, e.g. {missing[0]}"
        sizes.append(len(layer))
    # The walk's own counts (positions not over, one of each mirror pair), and nothing else in the book.
    assert sizes == [568, 2144, 8231, 27109] and len(book) == sum(sizes)
    assert noughts.shipped_book(Classic(6, 7, 4, gravity=True, misere=True)) is None
    assert noughts.shipped_book(noughts.Ultimate()) is None


def test_connect_four_book_layers_agree_by_minimax():
    # Each score of the book is the best of its children's, the deepest layer's included: a
    # score too high or too low where it matters breaks its parent's, with no search at all.
    book = noughts.shipped_book(CONNECT_FOUR)
    assert book is not None
    low, high = book.plies

    def score(found: tuple[int, int]) -> int:  # the sooner a win and the later a loss, the better
        value, distance = found
        return 0 if value == 0 else value * (100 - distance)

    for plies in range(low, high):
        for moves in connect_four_layer(plies):
            g = after(CONNECT_FOUR, moves)
            found = book.lookup(g)
            assert found is not None
            best = -100
            for m in g.legal_actions():
                g.play(m)
                if g.is_over():  # only a win can end the game this early
                    assert g.winner is not None
                    best = max(best, 99)
                else:
                    child = book.lookup(g)
                    assert child is not None, [*moves, g.move_name(m)]
                    best = max(best, -score((child[0], child[1] + 1)))
                g.undo()
            assert best == score(found), moves


def test_connect_four_book_scores_match_fresh_solves():
    book = noughts.shipped_book(CONNECT_FOUR)
    assert book is not None
    lines = [line.partition(":")[0].split() for line in book.path.read_text().splitlines() if line and line[0] != "#"]
    # The quickest wins and losses of the book: fresh solves of these take well under a second.
    for *moves, value, distance in sorted(lines, key=lambda f: int(f[-1]) or 99)[:3]:
        g = after(CONNECT_FOUR, moves)
        s = noughts.solve(g, book=False, all_best_moves=False)
        assert (s.value, s.distance or 0) == (int(value), int(distance)), moves


def test_connect_four_from_the_start_with_the_book():
    # Allis (1988) and Allen: the first player wins, by the middle column only, on the 41st move.
    weak = noughts.solve(CONNECT_FOUR, weak=True)
    assert weak.result == "X wins" and [m.name for m in weak.best_moves] == ["d"]
    assert weak.nodes < 10**6  # by the book: a search without it takes over a hundred million
    strong = noughts.solve(CONNECT_FOUR, move_values=True)
    assert strong.distance == 41 and [m.name for m in strong.best_moves] == ["d"]
    assert [v for _, v in sorted(strong.move_values.items())] == [-1, -1, 0, 1, 0, -1, -1]


def test_a_solve_past_the_books_depth_does_not_read_it():
    # A fresh interpreter: the book is read on the first solve that can meet its positions.
    script = (
        "import noughts, noughts.book as b\n"
        "g = noughts.Classic(6, 7, 4, gravity=True)\n"
        "for m in 'ddddddcccccceeeeee': g.play(g.parse_move(m))\n"
        "noughts.solve(g)\n"
        "print(len(b._loaded))\n"
        "noughts.solve(noughts.Classic(6, 7, 4, gravity=True), weak=True)\n"
        "print(len(b._loaded))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["0", "1"]
