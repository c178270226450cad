"""noughts.svg(): the documents parse, and what is drawn matches the position.

Elements are found by the classes svg.py documents (mark-x, win-line,
playable, collapse ...); each count is compared with the game's own
accessors, so a missing or extra element fails.
"""

from __future__ import annotations

import math
import random
import re
import struct
import xml.etree.ElementTree as ET
import zlib

import noughts
import pytest
from noughts import BoardState, Classic, Player, Quantum, Termination, Ultimate
from noughts.errors import IllegalMoveError, InvalidMoveError, InvalidOptionError

SVG = "{http://www.w3.org/2000/svg}"
LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))


def parse(text: str) -> ET.Element:
    root = ET.fromstring(text.encode("utf-8"))
    assert root.tag == f"{SVG}svg"
    return root


def having(root: ET.Element, cls: str) -> list[ET.Element]:
    """The elements whose class list holds `cls`."""
    return [e for e in root.iter() if cls in (e.get("class") or "").split()]


def cells_of(root: ET.Element, cls: str) -> list[str]:
    return sorted(e.get("data-cell", "") for e in having(root, cls))


def random_game(cls, rng: random.Random, plies: int, **options):
    game = cls(**options)
    for _ in range(plies):
        if game.is_over():
            break
        game.play(rng.choice(game.legal_actions()))
    return game


def named_cells(game: Classic, symbol: str) -> list[str]:
    """Cells holding `symbol`, named by the engine's own notation (so svg.py's lettering is checked too)."""
    plain = Classic(game.rows, game.cols, game.k)
    board = game.board()
    return sorted(
        plain.move_name(r * game.cols + c) for r in range(game.rows) for c in range(game.cols) if board[r][c] == symbol
    )


# ---------------------------------------------------------------------------
# Classic
# ---------------------------------------------------------------------------
CLASSIC_OPTIONS = [
    {},
    {"rows": 4, "cols": 4},
    {"rows": 6, "cols": 7, "k": 4, "gravity": True},
    {"free_choice": True},
    {"misere": True},
    {"rows": 8, "cols": 8},
    {"rows": 1, "cols": 64, "k": 3},
    {"rows": 5, "cols": 3, "k": 3, "gravity": True, "free_choice": True},
]


@pytest.mark.parametrize("options", CLASSIC_OPTIONS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "3x3")
def test_classic_marks_match_the_board(options: dict) -> None:
    rng = random.Random(7)
    for plies in (0, 3, 8, 30, 64):
        game = random_game(Classic, rng, plies, **options)
        root = parse(noughts.svg(game))
        assert cells_of(root, "mark-x") == named_cells(game, "X")
        assert cells_of(root, "mark-o") == named_cells(game, "O")
        # X is two strokes, O one ring.
        assert all(len(g.findall(f"{SVG}line")) == 2 for g in having(root, "mark-x"))
        assert all(len(g.findall(f"{SVG}circle")) == 1 for g in having(root, "mark-o"))
        # The engine's line is among the highlighted cells, and only a finished game by a line has any.
        plain = Classic(game.rows, game.cols, game.k)
        line = game.winning_line() if game.is_over() else 0
        engine_cells = {plain.move_name(i) for i in range(game.rows * game.cols) if line >> i & 1}
        assert engine_cells <= set(cells_of(root, "win-cell"))
        assert bool(having(root, "win-cell")) == bool(line)


def test_classic_winning_line_highlighted() -> None:
    game = Classic(4, 4)
    for move in ["a1", "b1", "b2", "c1", "c3", "d1", "d4"]:
        game.play(move)
    root = parse(noughts.svg(game))
    assert game.winner == Player.X
    assert cells_of(root, "win-cell") == ["a1", "b2", "c3", "d4"]
    (line,) = having(root, "win-line")
    # From the a1 corner down to d4: the stroke goes right and down.
    assert float(line.get("x2")) > float(line.get("x1")) and float(line.get("y2")) > float(line.get("y1"))
    assert "X wins" in having(root, "status")[0].text


def test_classic_two_lines_at_once() -> None:
    game = Classic.from_string(".xx/xoo/xoo k=3")
    game.play("a1")  # completes row 1 and column a
    root = parse(noughts.svg(game))
    assert len(having(root, "win-line")) == 2
    assert cells_of(root, "win-cell") == ["a1", "a2", "a3", "b1", "c1"]


def test_classic_no_line_while_playing_or_drawn() -> None:
    game = Classic()
    for move in ["b2", "a1", "c1", "a3", "a2", "c2", "b1", "b3", "c3"]:
        game.play(move)
    assert game.is_over() and game.winner is None
    root = parse(noughts.svg(game))
    assert not having(root, "win-line") and not having(root, "win-cell")
    assert "Draw" in having(root, "status")[0].text


def test_classic_misere_status_names_the_loser() -> None:
    game = Classic(misere=True)
    for move in ["a1", "b1", "a2", "b2", "a3"]:
        game.play(move)
    root = parse(noughts.svg(game))
    assert having(root, "status")[0].text.startswith("O wins: X completed a line")
    assert cells_of(root, "win-cell") == ["a1", "a2", "a3"]


def test_gravity_floor_arrows_and_landing_hints() -> None:
    game = Classic(6, 7, 4, gravity=True)
    for move in "ddcce":
        game.play(move)
    root = parse(noughts.svg(game))
    assert len(having(root, "floor")) == 1
    assert len(having(root, "drop")) == 7
    # One ring per column where the next drop lands: d and c hold two marks, e one.
    assert cells_of(root, "landing") == sorted(["a6", "b6", "c4", "d4", "e5", "f6", "g6"])
    # The last move was the column e: its mark is the top one of that column.
    assert cells_of(root, "last-move") == ["e6"]
    # Gravity moves name columns only: no row numbers.
    assert [e.text for e in having(root, "coord")] == list("abcdefg")


def test_gravity_full_column_and_finished_game_have_no_hint() -> None:
    game = Classic(2, 2, 2, gravity=True)
    game.play("a")
    game.play("a")
    root = parse(noughts.svg(game))
    assert cells_of(root, "landing") == ["b2"]
    game.play("b")  # a2 b2: two in a row
    assert game.is_over()
    assert not having(parse(noughts.svg(game)), "landing")


def test_long_board_keeps_cells_readable() -> None:
    root = parse(noughts.svg(Classic(1, 64), size=400))
    assert float(root.get("width")) >= 64 * 24
    coords = [e.text for e in having(root, "coord")]
    assert coords[:2] == ["a", "b"] and "aa" in coords and coords[-2] == "bl"  # then the row number


def test_size_scales_the_picture() -> None:
    small, big = (parse(noughts.svg(Classic(), size=s)) for s in (200, 600))
    assert float(big.get("width")) > 2.5 * float(small.get("width")) * 0.9
    with pytest.raises(InvalidOptionError):
        noughts.svg(Classic(), size=0)
    with pytest.raises(TypeError):
        noughts.svg("x.o/.x./...")  # type: ignore[arg-type]


# ---------------------------------------------------------------------------
# last_move
# ---------------------------------------------------------------------------
def test_last_move_defaults_to_history_and_accepts_any_form() -> None:
    game = Classic()
    game.play("b2")
    game.play("c3")
    assert cells_of(parse(noughts.svg(game)), "last-move") == ["c3"]
    by_id, by_move, by_name = (noughts.svg(game, last_move=m) for m in (4, noughts.Move(4, "b2"), "b2"))
    assert by_id == by_move == by_name
    assert cells_of(parse(by_id), "last-move") == ["b2"]


def test_no_history_no_last_move() -> None:
    game = Classic.from_string("x.o/.x./... k=3")
    assert not having(parse(noughts.svg(game)), "last-move")


def test_bad_last_move() -> None:
    with pytest.raises(InvalidMoveError):
        noughts.svg(Classic(), last_move="zz")
    with pytest.raises(IllegalMoveError):
        noughts.svg(Classic(), last_move=99)


# ---------------------------------------------------------------------------
# Ultimate
# ---------------------------------------------------------------------------
def ultimate_with(rng: random.Random, want, **options) -> Ultimate:
    for _ in range(2000):
        game = random_game(Ultimate, rng, rng.randrange(20, 81), **options)
        if want(game):
            return game
    raise AssertionError("no such random game found")


def check_ultimate(game: Ultimate) -> ET.Element:
    root = parse(noughts.svg(game))
    grid = game.board()
    for symbol, cls in (("X", "mark-x"), ("O", "mark-o")):
        assert len(having(root, cls)) == sum(row.count(symbol) for row in grid)
    states = game.board_states()
    for state, cls in (
        (BoardState.X, "board-x"),
        (BoardState.O, "board-o"),
        (BoardState.DRAWN, "board-drawn"),
        (BoardState.OPEN, "board-open"),
    ):
        assert sorted(int(e.get("data-board")) for e in having(root, cls)) == [
            b for b, s in enumerate(states) if s == state
        ]
    assert sorted(int(e.get("data-board")) for e in having(root, "big-x")) == [
        b for b, s in enumerate(states) if s == BoardState.X
    ]
    assert sorted(int(e.get("data-board")) for e in having(root, "big-o")) == [
        b for b, s in enumerate(states) if s == BoardState.O
    ]
    playable = sorted(int(e.get("data-board")) for e in having(root, "playable"))
    if game.is_over():
        assert playable == []
    elif game.forced_board is None:
        assert playable == game.open_boards()
    else:
        assert playable == [game.forced_board]
    owner = {Player.X: BoardState.X, Player.O: BoardState.O}.get(game.winner)
    lines = [line for line in LINES if owner is not None and all(states[b] == owner for b in line)]
    assert len(having(root, "win-line")) == len(lines)
    assert bool(lines) == (game.termination == Termination.LINE)
    return root


def test_ultimate_mid_game_with_won_drawn_and_forced_boards() -> None:
    rng = random.Random(5)
    game = ultimate_with(
        rng,
        lambda g: (
            not g.is_over()
            and g.forced_board is not None
            and {BoardState.X, BoardState.O, BoardState.DRAWN} <= set(g.board_states())
        ),
    )
    root = check_ultimate(game)
    # The last move is framed at its grid cell and sends to the forced board.
    (frame,) = having(root, "last-move")
    assert frame.get("data-cell") == game.history[-1].name
    assert game.history[-1].id % 9 == game.forced_board


def test_ultimate_free_move_highlights_every_open_board() -> None:
    game = ultimate_with(random.Random(6), lambda g: not g.is_over() and g.forced_board is None and g.ply > 0)
    root = check_ultimate(game)
    assert len(having(root, "playable")) == len(game.open_boards()) > 1


def test_ultimate_start_and_finished_games() -> None:
    check_ultimate(Ultimate())
    rng = random.Random(8)
    for _ in range(20):
        check_ultimate(random_game(Ultimate, rng, 81))
    won = ultimate_with(rng, lambda g: g.termination == Termination.LINE)
    assert "wins with a line of boards" in having(check_ultimate(won), "status")[0].text
    # Under CodinGame's scoring a full meta-board goes to the player with more small boards.
    counted = ultimate_with(rng, lambda g: g.termination == Termination.MORE_BOARDS, tiebreak=True)
    assert "wins on small boards won" in having(check_ultimate(counted), "status")[0].text


def test_status_is_the_games_own() -> None:
    """The picture's status line is the game's status, for every game and state."""
    rng = random.Random(3)
    games = [Classic(), Classic(misere=True, free_choice=True), Ultimate(), Ultimate(tiebreak=True), Quantum()]
    for start in games:
        for _ in range(15):
            game = start.copy()
            while not game.is_over() and rng.random() < 0.97:
                game.play(rng.choice(game.legal_actions()))
            assert having(parse(noughts.svg(game)), "status")[0].text == game.status


# ---------------------------------------------------------------------------
# Quantum
# ---------------------------------------------------------------------------
def cell_name(i: int) -> str:
    return "abc"[i % 3] + str(i // 3 + 1)


def check_quantum(game: Quantum) -> ET.Element:
    root = parse(noughts.svg(game))
    spooky = having(root, "spooky")
    expected = sorted(
        (f"{'x' if p == Player.X else 'o'}{n}", cell_name(c)) for n, p, cells in game.spooky_marks() for c in cells
    )
    assert sorted((e.text, e.get("data-cell")) for e in spooky) == expected
    classical = [(i, m) for i, m in enumerate(game.classical_marks()) if m is not None]
    drawn = sorted(
        (e.get("data-cell"), int(e.get("data-mark")), "X" if "mark-x" in e.get("class") else "O")
        for e in having(root, "mark")
    )
    assert drawn == sorted((cell_name(i), n, p.name) for i, (p, n) in classical)
    assert sorted(int(e.text) for e in having(root, "mark-number")) == sorted(n for _, (_, n) in classical)
    pending = game.pending_collapse
    expected_cells = sorted(cell_name(c) for c in pending[1]) if pending else []
    assert cells_of(root, "collapse") == expected_cells
    assert cells_of(root, "collapse-mark") == expected_cells
    return root


def test_quantum_pending_collapse() -> None:
    game = Quantum()
    for move in ["a1-b2", "b2-c3", "c1-a3", "a2-b3", "a1-c3"]:
        game.play(move)
    assert game.pending_collapse == (5, (0, 8))
    root = check_quantum(game)
    assert cells_of(root, "collapse") == ["a1", "c3"]
    # The mark waiting is also the last move: its two labels are framed, not the cells.
    assert cells_of(root, "last-move") == ["a1", "c3"]
    assert all(e.tag == f"{SVG}rect" for e in having(root, "last-move"))
    assert len(having(root, "spooky")) == 10
    assert having(root, "status")[0].text == game.status
    assert "closed a cycle; choose where it lands: @a1 or @c3" in game.status


def test_quantum_after_a_collapse() -> None:
    game = Quantum()
    for move in ["a1-b2", "a1-b2", "@a1", "c1-c2"]:
        game.play(move)
    root = check_quantum(game)
    assert cells_of(root, "mark-o") == ["a1"] and cells_of(root, "mark-x") == ["b2"]
    assert not having(root, "collapse")


def test_quantum_random_positions_and_deciding_lines() -> None:
    rng = random.Random(11)
    seen = set()
    for _ in range(300):
        game = random_game(Quantum, rng, rng.randrange(0, 20))
        root = check_quantum(game)
        if game.is_over():
            seen.add(game.termination)
            marks = game.classical_marks()
            lines = [
                line
                for line in LINES
                if all(marks[i] is not None for i in line) and len({marks[i][0] for i in line}) == 1
            ]
            winners = [line for line in lines if marks[line[0]][0] == game.winner]
            assert len(having(root, "win-line")) == len(winners)
            assert len(having(root, "late-line")) == len(lines) - len(winners)
    assert {Termination.LINE, Termination.EARLIER_LINE, Termination.FULL_BOARD} <= seen


# ---------------------------------------------------------------------------
# Text, escaping, Jupyter
# ---------------------------------------------------------------------------
def test_text_is_escaped() -> None:
    title = 'X <Alice> & O "Bob"'
    root = parse(noughts.svg(Classic(), title=title))
    assert having(root, "title")[0].text == title
    assert root.find(f"{SVG}title").text == title
    assert root.find(f"{SVG}desc").text == "Classic: .../.../... k=3"


def test_options_turn_parts_off() -> None:
    root = parse(noughts.svg(Ultimate(), coordinates=False, status=False))
    assert not having(root, "coord") and not having(root, "status")


@pytest.mark.parametrize("game", [Classic(), Ultimate(), Quantum()], ids=["classic", "ultimate", "quantum"])
def test_repr_svg(game) -> None:
    game.play(game.legal_actions()[0])
    assert game._repr_svg_() == noughts.svg(game)
    parse(game._repr_svg_())


# ---------------------------------------------------------------------------
# A real renderer (optional): the pictures rasterise, and colours land where they should
# ---------------------------------------------------------------------------
def png_pixels(data: bytes) -> tuple[int, int, list[bytes]]:
    """Width, height and RGBA rows of an 8-bit RGBA, non-interlaced PNG (what resvg writes)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, width = 8, b"", 0
    height = 0
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind, body = data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert (depth, colour, interlace) == (8, 6, 0)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw, stride, rows, prev = zlib.decompress(idat), width * 4, [], bytearray(width * 4)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)])
        for x in range(stride):
            a = line[x - 4] if x >= 4 else 0
            b, c = prev[x], prev[x - 4] if x >= 4 else 0
            if kind == 1:
                line[x] = (line[x] + a) & 255
            elif kind == 2:
                line[x] = (line[x] + b) & 255
            elif kind == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, rows


def pixel(rows: list[bytes], x: float, y: float) -> str:
    r, g, b, _ = rows[int(y)][int(x) * 4 : int(x) * 4 + 4]
    return f"#{r:02x}{g:02x}{b:02x}"


def centre(root: ET.Element, element: ET.Element) -> tuple[float, float]:
    """The centre of a rect, in document coordinates (the board sits in one translated group)."""
    dx, dy = map(float, re.findall(r"[-\d.]+", having(root, "board-area")[0].get("transform")))
    return dx + float(element.get("x")) + float(element.get("width")) / 2, dy + float(element.get("y")) + float(
        element.get("height")
    ) / 2


def test_renders_with_resvg() -> None:
    resvg = pytest.importorskip("resvg_py")
    from noughts.svg import PLAYABLE_FILL, WIN_FILL

    game = Classic(4, 4)
    for move in ["a1", "b1", "b2", "c1", "c3", "d1", "d4"]:
        game.play(move)
    text = noughts.svg(game, size=200)
    root = parse(text)
    width, height, rows = png_pixels(bytes(resvg.svg_to_bytes(svg_string=text)))
    # resvg rounds a fractional size up.
    assert (width, height) == (math.ceil(float(root.get("width"))), math.ceil(float(root.get("height"))))
    # A winning cell's corner (away from the X strokes) is gold.
    win = having(root, "win-cell")[0]
    x, y = centre(root, win)
    assert pixel(rows, x - float(win.get("width")) * 0.4, y) == WIN_FILL

    ultimate = Ultimate()
    ultimate.play("e5")  # sends O to the centre board
    text = noughts.svg(ultimate, size=300)
    root = parse(text)
    _, _, rows = png_pixels(bytes(resvg.svg_to_bytes(svg_string=text)))
    (board,) = having(root, "playable")
    x, y = centre(root, board)
    assert pixel(rows, x, y - float(board.get("height")) / 3) == PLAYABLE_FILL  # the empty e4 cell


def test_the_module_and_the_function_are_both_reachable():
    import types

    import noughts.svg as module

    assert isinstance(module, types.ModuleType) and module is noughts.svg
    game = Classic()
    game.play("b2")
    assert noughts.svg_of(game) == module.svg(game) == noughts.svg(game)
    assert "svg_of" in noughts.__all__
