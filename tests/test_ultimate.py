"""Ultimate tic-tac-toe (docs/rules.md section 2): counts, hand-built positions, the Python API."""

from __future__ import annotations

import copy
import pickle
import random

import noughts
import pytest
from noughts import IllegalMoveError, InvalidMoveError, InvalidPositionError, Player, Termination, Ultimate
from noughts.ultimate import BoardState

# ----------------------------------------------------------------- helpers

COLS = "abcdefghi"


def cell_name(board: int, cell: int) -> str:
    """The notation of (board, cell), computed here independently of the engine."""
    row = board // 3 * 3 + cell // 3
    col = board % 3 * 3 + cell % 3
    return f"{COLS[col]}{row + 1}"


def position(x: str, o: str, forced: str = "-") -> str:
    """A position string with X's and O's marks given as space-separated cell names."""
    grid = [["."] * 9 for _ in range(9)]
    for mark, names in (("x", x), ("o", o)):
        for name in names.split():
            col, row = COLS.index(name[0]), int(name[1:]) - 1
            assert grid[row][col] == ".", name
            grid[row][col] = mark
    return "/".join("".join(r) for r in grid) + " " + forced


# Positions reached by play (from_string refuses marks no order of play can give).
DRAWN_BOARD_0 = "xoxx..o../xoo....../oxx....../o..x..x../........./........./o..o..o../........./x........ -"
DRAWN_BOARD_0_BUT_C3 = "xoxx..o../xoo....../ox......./o..x..x../........./........./o..o...../........./x........ 0"
# a1 a2 b5 e4 d1 b2 f5 g4 b1 d2 c5 h4 e1 e2 d6 c7 g1 a3 a8 a4 c1 g2 a6 b7 f1 h2 e6 f7 h1 i7
X_TO_WIN_WITH_I1 = "xxxxxxxx./oo.oo.oo./o......../o...o.oo./.xx..x.../x..xx..../.oo..o..o/x......../......... 2"


def ids(*names: str) -> list[int]:
    return sorted(Ultimate().parse_move(n) for n in names)


def board_cells(board: int) -> list[int]:
    return list(range(board * 9, board * 9 + 9))


# ------------------------------------------------------------------- perft

# Published counts (docs/rules.md "Counting moves"; depths 7-8 are in benchmarks/ultimate.py).
PERFT = {1: 81, 2: 720, 3: 6_336, 4: 55_080, 5: 473_256, 6: 4_020_960}


@pytest.mark.parametrize("depth", sorted(PERFT))
def test_perft_from_start(depth: int) -> None:
    assert noughts.perft(Ultimate(), depth) == PERFT[depth]


def test_perft_zero_and_after_moves() -> None:
    g = Ultimate()
    assert noughts.perft(g, 0) == 1
    g.play("e5")  # sends O to board 4, which has 8 empty cells
    assert noughts.perft(g, 1) == 8


# ------------------------------------------------------ ids and notation


def test_notation_of_every_id_round_trips() -> None:
    g = Ultimate()
    names = set()
    for m in range(81):
        board, cell = divmod(m, 9)
        name = g.move_name(m)
        assert name == cell_name(board, cell)
        names.add(name)
        assert g.parse_move(name) == m
        assert g.parse_move(name.upper()) == m
        assert g.parse_move(f" {board}/{cell} ") == m
        assert g.parse_move(f"{board} / {cell}") == m
    assert len(names) == 81


def test_notation_landmarks() -> None:
    g = Ultimate()
    assert (g.move_name(0), g.move_name(40), g.move_name(80)) == ("a1", "e5", "i9")
    assert g.move_name(8) == "c3"  # the bottom-right cell of the top-left board
    assert g.move_name(9) == "d1"  # the top-left cell of board 1
    assert g.parse_move("4/4") == 40


@pytest.mark.parametrize("text", ["", "e", "5", "e5x", "zz", "a0", "4/", "/4", "4/4/4", "-1/3", "x/y", "e 5", "é5"])
def test_unreadable_moves(text: str) -> None:
    with pytest.raises(InvalidMoveError):
        Ultimate().parse_move(text)


@pytest.mark.parametrize("text", ["j1", "a10", "9/0", "0/9"])
def test_moves_off_the_board(text: str) -> None:
    with pytest.raises(IllegalMoveError, match="off the"):
        Ultimate().parse_move(text)


@pytest.mark.parametrize("move", [-1, 81, 1000, 2**70])
def test_move_name_out_of_range(move: int) -> None:
    with pytest.raises(IllegalMoveError, match="out of range"):
        Ultimate().move_name(move)


# ------------------------------------------------------------- the rules


def test_start() -> None:
    g = Ultimate()
    assert g.legal_actions() == list(range(81))
    assert g.forced_board is None
    assert g.to_move == Player.X
    assert g.board_states() == [BoardState.OPEN] * 9
    assert not g.is_over() and g.outcome() is None and g.winner is None
    assert g.termination == Termination.NONE
    assert g.num_actions == 81


def test_a_move_sends_the_opponent() -> None:
    g = Ultimate()
    g.play("e5")  # board 4, cell 4
    assert g.forced_board == 4 and g.to_move == Player.O
    assert g.legal_actions() == [m for m in board_cells(4) if m != 40]


def test_wrong_board() -> None:
    g = Ultimate()
    g.play("e5")
    before = g.to_string()
    with pytest.raises(IllegalMoveError, match=r"O must play in board 4 \(d4-f6\)"):
        g.play("c3")
    assert g.to_string() == before and g.move_ids == [40]
    g.play("d4")  # board 4, cell 0: sends X to board 0
    assert g.forced_board == 0
    assert g.legal_actions() == board_cells(0)


def test_occupied_cell() -> None:
    g = Ultimate()
    g.play("e5")
    with pytest.raises(IllegalMoveError, match=r"cell e5 is occupied; O must play in board 4"):
        g.play("e5")
    assert g.ply == 1


def test_sent_to_a_won_board_plays_anywhere_open() -> None:
    # b1 d1 c1 g1 a1: X won board 0 (a1 b1 c1); O's last move d4 is cell 0 of board 4, sending X to board 0.
    g = Ultimate.from_string(position(x="a1 b1 c1", o="d1 g1 d4"))
    assert g.board_states()[0] == BoardState.X
    assert g.forced_board is None and g.to_move == Player.X
    legal = g.legal_actions()
    assert legal == [m for m in range(9, 81) if m not in ids("d1", "g1", "d4")]
    with pytest.raises(
        IllegalMoveError, match=r"board 0 \(a1-c3\) is closed \(won by X\); X may play in any open board"
    ):
        g.play("a2")
    assert g.legal_actions() == legal


def test_sent_to_a_drawn_board_plays_anywhere_open() -> None:
    # Board 0 full without a line:  x o x / x o o / o x x, and O's last move g7 (cell 0 of board 8) sends X there,
    # so X may play in any open board.
    # Reached by c1 g1 a2 a4 b3 d7 a1 b1 d1 b2 d4 c2 g4 a3 a9 a7 c3 g7.
    g = Ultimate.from_string(DRAWN_BOARD_0)
    assert g.board_states()[0] == BoardState.DRAWN
    assert g.forced_board is None
    assert 0 not in g.open_boards() and g.open_boards() == list(range(1, 9))
    assert len(g.legal_actions()) == 81 - 9 - 9
    with pytest.raises(IllegalMoveError, match=r"is closed \(drawn\)"):
        g.play("b2")


def test_small_board_drawn_by_its_last_cell() -> None:
    # Board 0 is  x o x / x o o / o x .  and X is sent there (O's a7 is cell 0 of board 6): the first 16 moves
    # of DRAWN_BOARD_0.
    g = Ultimate.from_string(DRAWN_BOARD_0_BUT_C3)
    assert g.forced_board == 0 and g.legal_actions() == ids("c3")
    g.play("c3")  # fills the board with no line; cell 8 sends O to board 8
    assert g.board_states()[0] == BoardState.DRAWN
    assert not g.is_over()
    assert g.forced_board == 8
    g.undo()
    assert g.board_states()[0] == BoardState.OPEN and g.forced_board == 0


def test_small_board_won_by_its_last_cell_is_won_not_drawn() -> None:
    # Board 0 is  x o x / o x o / o x .  : X's c3 fills it and completes the diagonal.
    # Reached by c1 g1 b2 d4 b3 d7 a1 b1 d1 a2 a4 c2 g4 a3 a9 a7.
    g = Ultimate.from_string(
        "xoxx..o../oxo....../ox......./x..o..x../........./........./o..o...../........./x........ 0"
    )
    g.play("c3")
    assert g.board_states()[0] == BoardState.X


def test_a_line_of_boards_wins_at_once() -> None:
    # X won boards 0 and 1 (top rows) and has g1 h1 in board 2; O's i7 (cell 2 of board 8) sends X to board 2.
    g = Ultimate.from_string(X_TO_WIN_WITH_I1)
    assert g.board_states()[:3] == [BoardState.X, BoardState.X, BoardState.OPEN]
    g.play("i1")
    assert g.is_over()
    assert g.winner == Player.X and g.termination == Termination.LINE
    assert g.outcome() == noughts.Outcome(Player.X, Termination.LINE)
    assert g.outcome().result == "1-0"
    assert g.open_boards() == [3, 4, 5, 6, 7, 8]  # boards remain open, yet the game is over
    assert g.legal_actions() == [] and g.forced_board is None
    with pytest.raises(IllegalMoveError, match="the game is over"):
        g.play("d4")
    assert g.to_string().endswith(" -")
    assert Ultimate.from_string(g.to_string()) == g


def test_play_goes_on_to_the_draw_when_no_line_is_possible() -> None:
    # Big board  X O X / X O O / O X .  : every line through board 8 is blocked, so nobody can win,
    # yet the game goes on until board 8 is decided.
    wins = {0: "x", 2: "x", 3: "x", 7: "x", 1: "o", 4: "o", 5: "o", 6: "o"}
    x = " ".join(cell_name(b, c) for b, m in wins.items() if m == "x" for c in range(3))
    o = " ".join(cell_name(b, c) for b, m in wins.items() if m == "o" for c in range(3))
    start = Ultimate.from_string(position(x=x, o=o))
    assert not start.is_over()
    assert start.open_boards() == [8]
    assert start.legal_actions() == board_cells(8)
    rng = random.Random(5)
    for _ in range(50):
        g = start.copy()
        while not g.is_over():
            assert g.legal_actions() and all(m >= 72 for m in g.legal_actions())
            g.play(rng.choice(g.legal_actions()))
        assert g.winner is None and g.termination == Termination.FULL_BOARD
        assert g.outcome().result == "1/2-1/2"
        assert all(s != BoardState.OPEN for s in g.board_states())
    assert noughts.random_playouts(start, 2000, seed=1) == (0, 0, 2000)


def test_finished_game_rejects_moves_and_keeps_state() -> None:
    g = Ultimate()
    rng = random.Random(11)
    while not g.is_over():
        g.play(rng.choice(g.legal_actions()))
    before = (g.to_string(), g.move_ids)
    for move in (0, 40, "e5", 80):
        with pytest.raises(IllegalMoveError, match="the game is over"):
            g.play(move)
    assert (g.to_string(), g.move_ids) == before


# --------------------------------------------------------- position strings


def test_start_string() -> None:
    assert Ultimate().to_string() == "/".join(["........."] * 9) + " -"
    assert Ultimate.from_string(Ultimate().to_string()) == Ultimate()


def test_position_string_layout() -> None:
    g = Ultimate()
    g.play("e5")
    g.play("d4")
    assert (
        g.to_string() == "........./........./........./...o...../....x..../........./........./........./......... 0"
    )
    assert Ultimate.from_string(g.to_string()) == g
    assert Ultimate.from_string(g.to_string().upper()) == g


@pytest.mark.parametrize(
    "text, why",
    [
        ("", "empty"),
        ("........./........./........./........./........./........./........./........./.........", "two parts"),
        ("........./........./........./........./........./........./........./......... -", "9 rows"),
        ("........./........./........./........./........./........./........./........./........ -", "9 cells"),
        ("........./........./........./........./....z..../........./........./........./......... -", "x, o"),
        ("........./........./........./........./........./........./........./........./......... 9", "digit 0-8"),
        ("........./........./........./........./........./........./........./........./......... 4 x", "two parts"),
        # counts
        (position(x="a1 b1", o=""), "X has as many marks as O or one more"),
        (position(x="", o="a1"), "X has as many marks as O or one more"),
        # first move: nothing forced
        (position(x="", o="", forced="4"), "before the first move"),
        # the forced board must be open and reachable from the last move
        (position(x="a1 b1 c1", o="d4 e5 g7", forced="0"), "decided"),
        (position(x="e5", o="", forced="3"), "cannot have sent"),
        (position(x="e5", o=""), "free move needs"),
        # a small board closes at its first line
        (position(x="a1 b1 c1 a3 b3 c3", o="d4 e4 f4 g4 h4 i4"), "completed by one move"),
        (position(x="a1 b1 c1 d5", o="a2 b2 c2", forced="4"), "lines of both players"),
        # the game ends at the first line of boards
        (position(x="a1 b1 c1 d1 e1 f1 g1 h1 i1", o="d4 e4 f4 g4 h4 i4 a7 b7 a8"), "did not make the last move"),
        (position(x="a1 b1 c1 d1 e1 f1 g1 h1 i1 d9", o="a4 b4 c4 d4 e4 f4 g4 h4 i4"), "both players have a line"),
        # X's boards 0, 1, 2 and 6, 7, 8 make two lines of boards that share no board
        (
            position(
                x=" ".join(cell_name(b, c) for b in (0, 1, 2, 6, 7, 8) for c in range(3)),
                o=" ".join(
                    [cell_name(b, c) for b in (0, 1, 2, 6, 7, 8) for c in (3, 4)] + ["a4", "b4", "d4", "e4", "g4"]
                ),
            ),
            "cannot all have been completed",
        ),
        # a finished game has no forced board
        (position(x="a1 b1 c1 d1 e1 f1 g1 h1 i1", o="f4 d5 e6 g4 a7 e8 i9 a4", forced="4"), "game is over"),
    ],
)
def test_invalid_positions(text: str, why: str) -> None:
    with pytest.raises(InvalidPositionError, match=why):
        Ultimate.from_string(text)


def test_long_non_ascii_input_gives_a_readable_error() -> None:
    # Messages quote the input shortened; the cut must not split a UTF-8 character.
    with pytest.raises(InvalidPositionError, match="invalid ultimate position"):
        Ultimate.from_string("é" * 100)
    with pytest.raises(InvalidMoveError, match="cannot read move"):
        Ultimate().parse_move("é" * 100)


def test_from_string_rejects_non_strings() -> None:
    with pytest.raises(InvalidPositionError):
        Ultimate.from_string(42)  # type: ignore[arg-type]


# ----------------------------------------------------------- Python API


def test_board_cell_and_marks() -> None:
    g = Ultimate()
    g.play("e5")
    g.play("4/0")  # d4
    assert g.cell(4, 4) == "X" and g.cell(4, 0) == "O" and g.cell(0, 0) == "."
    grid = g.board()
    assert len(grid) == 9 and all(len(r) == 9 for r in grid)
    assert grid[4][4] == "X" and grid[3][3] == "O"
    assert sum(v != "." for r in grid for v in r) == 2
    xs, os = g.board_marks()
    assert xs[4] == 1 << 4 and os[4] == 1 << 0 and sum(xs) + sum(os) == 17
    with pytest.raises(IndexError):
        g.cell(9, 0)
    with pytest.raises(IndexError):
        g.cell(0, True)


def test_str_repr_copy_pickle_hash() -> None:
    g = Ultimate()
    for m in ("e5", "d4", "a1"):
        g.play(m)
    text = str(g)
    assert text.splitlines()[0] == "  a b c   d e f   g h i"
    assert "O to move in board 0 (a1-c3)" in text
    r = repr(g)
    assert r.startswith("noughts.Ultimate.from_string(")
    assert eval(r, {"noughts": noughts}) == g
    h = g.copy()
    assert h == g and hash(h) == hash(g) and h is not g
    h.play(h.legal_actions()[0])
    assert h != g and g.ply == 3
    for other in (copy.copy(g), copy.deepcopy(g), pickle.loads(pickle.dumps(g))):
        assert other == g and type(other) is Ultimate
    p = pickle.loads(pickle.dumps(g))
    assert p.history == g.history and [m.name for m in p.history] == ["e5", "d4", "a1"]
    p.undo()
    assert p.ply == 2
    assert g != Ultimate() and (g == "x") is False
    assert Ultimate() != noughts.Classic()


def test_history_and_legal_moves() -> None:
    g = Ultimate()
    g.play(40)
    g.play(noughts.Move(36, "d4"))
    assert [str(m) for m in g.history] == ["e5", "d4"]
    assert g.move_ids == [40, 36]
    assert [m.id for m in g.legal_moves()] == g.legal_actions()
    assert all(m.name == g.move_name(m.id) for m in g.legal_moves())
    assert g.undo() == 36 and g.undo() == 40
    with pytest.raises(IndexError):
        g.undo()


def test_is_legal() -> None:
    g = Ultimate()
    g.play("e5")
    assert g.is_legal("d4") and g.is_legal(36)
    assert not g.is_legal("e5") and not g.is_legal("a1") and not g.is_legal(81) and not g.is_legal("zz")


def test_outcome_value() -> None:
    g = Ultimate.from_string(X_TO_WIN_WITH_I1)
    g.play("i1")
    assert g.outcome().value_for(Player.X) == 1 and g.outcome().value_for(Player.O) == -1


def test_symmetric_argument() -> None:
    g = Ultimate()
    with pytest.raises(noughts.InvalidOptionError):
        g.symmetric(8)
    with pytest.raises(noughts.InvalidOptionError):
        g.symmetric(-1)
    assert g.symmetric(0) == g


def test_random_playouts_are_deterministic_and_complete() -> None:
    a = noughts.random_playouts(Ultimate(), 5000, seed=9)
    assert a == noughts.random_playouts(Ultimate(), 5000, seed=9)
    assert sum(a) == 5000 and min(a) > 0
