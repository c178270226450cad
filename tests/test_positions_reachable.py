"""Position strings against the positions play can reach, exhaustively on small boards.

Classic: for each board shape and option set, every string of the board's
cells (x, o or . in each) is read, and must be accepted exactly when a model
written from the rules (tests/classic_model.py) reaches that board by play,
with the same result. Ultimate: every string with up to two marks (and a
sample with three), and every forced-board field, against the positions the
first plies of play reach, with no small board decided: there the sending
rule is checked exactly (docs/positions.md). Positions with decided boards
are checked only in part, so positions of random marks that are accepted
must still search without trouble.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

import noughts
import pytest
from noughts import Classic, InvalidPositionError, Ultimate

SHAPES = [(1, 1), (1, 4), (4, 1), (2, 2), (2, 3), (3, 2), (2, 4), (4, 2), (3, 3)]
OPTION_SETS = [
    {"misere": m, "free_choice": f, "gravity": g} for m in (False, True) for f in (False, True) for g in (False, True)
]


def lines_of(rows: int, cols: int, k: int) -> list[tuple[int, ...]]:
    """Every k in a row of the board, as cell indices (row * cols + col)."""
    lines = []
    for r in range(rows):
        for c in range(cols):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(r + i * dr, c + i * dc) for i in range(k)]
                if all(0 <= rr < rows and 0 <= cc < cols for rr, cc in cells):
                    lines.append(tuple(rr * cols + cc for rr, cc in cells))
    return lines


def reachable(rows: int, cols: int, k: int, options: dict[str, bool]) -> dict[str, str | None]:
    """Every board play reaches (as the rows of a position string), with its result: None while the game
    goes on, "X", "O" or "draw". Written from RULES.md section 1 alone: play every legal move from every
    board reached, stopping at a line or a full board."""
    misere, free, gravity = options["misere"], options["free_choice"], options["gravity"]
    lines = lines_of(rows, cols, k)
    cells = rows * cols

    def key(board: tuple[str, ...]) -> str:
        return "/".join("".join(board[r * cols : (r + 1) * cols]) for r in range(rows))

    start = (".",) * cells
    seen: dict[str, str | None] = {key(start): None}
    frontier = [start]
    ply = 0
    while frontier:
        mover = "xo"[ply % 2]
        nxt = []
        for board in frontier:
            if gravity:  # the lowest empty cell of each column that has one
                targets = [max(r * cols + c for r in range(rows) if board[r * cols + c] == ".") for c in range(cols)
                           if board[c] == "."]  # fmt: skip
            else:
                targets = [i for i in range(cells) if board[i] == "."]
            for cell in targets:
                for symbol in "xo" if free else mover:
                    child = board[:cell] + (symbol,) + board[cell + 1 :]
                    name = key(child)
                    if name in seen:
                        continue
                    if any(all(child[i] == symbol for i in line) for line in lines if cell in line):
                        winner = mover.upper() if not misere else "OX"["xo".index(mover)]
                        seen[name] = winner
                    elif ply + 1 == cells:
                        seen[name] = "draw"
                    else:
                        seen[name] = None
                        nxt.append(child)
        frontier = nxt
        ply += 1
    return seen


def accepted(text: str) -> Any:
    try:
        return Classic.from_string(text)
    except InvalidPositionError:
        return None


def result_of(game: Any) -> str | None:
    if not game.is_over():
        return None
    return "draw" if game.winner is None else game.winner.name


GRAVITY_IN_TURN = {"misere": False, "free_choice": False, "gravity": True}
CLASSIC_CASES = [
    (rows, cols, k, options)
    for rows, cols in SHAPES
    for k in sorted({min(3, max(rows, cols)), min(2, max(rows, cols))})
    for options in OPTION_SETS
] + [  # larger boards where the turn order binds the stacking order: gravity without free choice
    (rows, cols, k, dict(GRAVITY_IN_TURN, misere=misere))
    for rows, cols in ((2, 5), (5, 2))
    for k in (3, 4)
    for misere in (False, True)
]


@pytest.mark.parametrize(("rows", "cols", "k", "options"), CLASSIC_CASES)
def test_classic_strings_accepted_exactly_when_reachable(
    rows: int, cols: int, k: int, options: dict[str, bool]
) -> None:
    expected = reachable(rows, cols, k, options)
    flags = "".join(f" {name}" for name, on in (("misere", options["misere"]), ("free", options["free_choice"]),
                                                  ("gravity", options["gravity"])) if on)  # fmt: skip
    wrong = []
    for cells in itertools.product("xo.", repeat=rows * cols):
        board = "/".join("".join(cells[r * cols : (r + 1) * cols]) for r in range(rows))
        game = accepted(f"{board} k={k}{flags}")
        if (game is not None) != (board in expected):
            wrong.append(board)
        elif game is not None and result_of(game) != expected[board]:
            wrong.append(f"{board} (result {result_of(game)}, play gives {expected[board]})")
    assert not wrong, f"{len(wrong)} strings misjudged, e.g. {wrong[:5]}"


@pytest.mark.parametrize(
    "text",
    [
        "../xx/oo k=3 gravity",  # X to move, but O's marks are under X's: O would have moved first
        "o/x/x k=3 gravity",  # 3x1: the O on top came last, but then X moved twice
    ],
)
def test_gravity_turn_order_refused(text: str) -> None:
    with pytest.raises(InvalidPositionError, match="in turn"):
        Classic.from_string(text)


def test_gravity_turn_order_on_full_boards() -> None:
    """Random games on 6x7 and 8x8 boards played to the end read back; swapping two marks of one
    column where that breaks the turn order is refused (the check is a search: it must stay fast)."""
    rng = random.Random(7)
    for rows, cols, k in ((6, 7, 4), (8, 8, 5), (4, 16, 5), (2, 32, 4)):
        for _ in range(20):
            game = Classic(rows, cols, k, gravity=True)
            for _ in range(rng.randint(0, rows * cols)):
                if game.is_over():
                    break
                game.play(rng.choice(game.legal_actions()))
            again = Classic.from_string(game.to_string())
            assert again == game


# ---------------------------------------------------------------------------
# Ultimate
# ---------------------------------------------------------------------------
def ultimate_reachable(plies: int) -> set[str]:
    """The position strings of every position within `plies` moves of the start."""
    seen = {Ultimate().to_string()}
    frontier = [Ultimate()]
    for _ in range(plies):
        nxt = []
        for game in frontier:
            for move in game.legal_actions():
                child = game.copy()
                child.play(move)
                key = child.to_string()
                if key not in seen:
                    seen.add(key)
                    nxt.append(child)
        frontier = nxt
    return seen


def ultimate_string(marks: dict[int, str], forced: str) -> str:
    """A position string from marks by move id (board * 9 + cell) and a forced-board field."""
    grid = [["."] * 9 for _ in range(9)]
    for move, symbol in marks.items():
        board, cell = divmod(move, 9)
        grid[board // 3 * 3 + cell // 3][board % 3 * 3 + cell % 3] = symbol
    return "/".join("".join(row) for row in grid) + " " + forced


def ultimate_accepted(text: str) -> bool:
    try:
        Ultimate.from_string(text)
    except InvalidPositionError:
        return False
    return True


FORCED = list("012345678-")


def test_ultimate_two_marks_accepted_exactly_when_reachable() -> None:
    expected = ultimate_reachable(2)
    wrong = []
    for x in range(81):
        for forced in FORCED:
            text = ultimate_string({x: "x"}, forced)
            if ultimate_accepted(text) != (text in expected):
                wrong.append(text)
        for o in range(81):
            if o == x:
                continue
            for forced in FORCED:
                text = ultimate_string({x: "x", o: "o"}, forced)
                if ultimate_accepted(text) != (text in expected):
                    wrong.append(text)
    assert not wrong, f"{len(wrong)} strings misjudged, e.g. {wrong[:5]}"


def test_ultimate_three_marks_accepted_exactly_when_reachable() -> None:
    """Every string with 2 x and 1 o where the o sits in a board one x sent to, or a sample of the rest."""
    expected = ultimate_reachable(3)
    rng = random.Random(3)
    wrong = []
    checked = 0
    for x1, x2 in itertools.combinations(range(81), 2):
        for o in rng.sample(range(81), 6) + [x1 % 9 * 9 + rng.randrange(9), x2 % 9 * 9 + rng.randrange(9)]:
            if o in (x1, x2):
                continue
            for forced in FORCED:
                text = ultimate_string({x1: "x", x2: "x", o: "o"}, forced)
                checked += 1
                if ultimate_accepted(text) != (text in expected):
                    wrong.append(text)
    assert checked > 200_000
    assert not wrong, f"{len(wrong)} strings misjudged, e.g. {wrong[:5]}"


def test_ultimate_sending_rule_between_marks() -> None:
    # X's a1 (board 0, cell 0) sends O to board 0, but O's mark is in board 1.
    with pytest.raises(InvalidPositionError, match="sending rule"):
        Ultimate.from_string("x..o...../" + "........./" * 7 + "......... 0")


def shuffled_ultimate_string(rng: random.Random) -> str:
    """The marks of a random game, a few of them moved to other empty cells (often no play reaches that)."""
    game = Ultimate()
    for _ in range(rng.randint(10, 70)):
        if game.is_over():
            break
        game.play(rng.choice(game.legal_actions()))
    grid = game.to_string().split()[0].replace("/", "")
    marks = {board * 9 + cell: grid[(board // 3 * 3 + cell // 3) * 9 + board % 3 * 3 + cell % 3]
             for board in range(9) for cell in range(9)}  # fmt: skip
    marks = {m: symbol for m, symbol in marks.items() if symbol != "."}
    for _ in range(rng.randint(1, 3)):
        source = rng.choice(sorted(marks))
        target = rng.choice([m for m in range(81) if m not in marks])
        marks[target] = marks.pop(source)
    return ultimate_string(marks, rng.choice(FORCED))


def test_accepted_ultimate_positions_search_cleanly() -> None:
    """Accepted strings of random marks (reachable or not: decided boards are checked only in part) are
    positions every search handles: perft, playouts, MCTS and a bounded solve give legal answers."""
    rng = random.Random(11)
    found = decided = 0
    for _ in range(6000):
        text = shuffled_ultimate_string(rng)
        if not ultimate_accepted(text):
            continue
        game = Ultimate.from_string(text)
        found += 1
        decided += any(state != 0 for state in game.board_states())
        assert game.to_string() == text
        noughts.perft(game, 2)
        counts = noughts.random_playouts(game, 20, seed=1)
        assert sum(counts) == 20
        if game.is_over():
            continue
        assert game.legal_actions()
        assert noughts.MCTS(seed=1).search(game, iterations=50).best_move.id in game.legal_actions()
        try:
            s = noughts.solve(game, max_seconds=0.02)
            assert s.principal_variation[0].id in game.legal_actions()
        except noughts.SearchTimeout:
            pass
    assert found >= 100 and decided >= 50, (found, decided)
