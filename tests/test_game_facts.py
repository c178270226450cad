"""The facts each game tells about itself (lines, a move's cells, playable cells and boards, the grid,
the longest game), checked against what the rules say, derived here independently."""

import random

import numpy as np
import pytest
from noughts import Classic, InvalidMoveError, InvalidOptionError, Player, Quantum, Ultimate

CLASSIC_OPTIONS = [
    {},
    {"rows": 4, "cols": 4, "k": 3},
    {"rows": 4, "cols": 5, "k": 3, "gravity": True},
    {"rows": 3, "cols": 3, "free_choice": True},
    {"rows": 4, "cols": 4, "k": 3, "misere": True, "gravity": True, "free_choice": True},
    {"rows": 2, "cols": 5, "k": 1},
    {"rows": 1, "cols": 7, "k": 3},
]


def random_games(make, count, seed):
    """Random games played to the end, yielding every position on the way."""
    rng = random.Random(seed)
    for _ in range(count):
        g = make()
        while True:
            yield g
            if g.is_over():
                break
            g.play(rng.choice(g.legal_actions()))


def classic_lines(rows, cols, k):
    """Every line of k cells, as sorted tuples, from the four directions."""
    lines = set()
    for r in range(rows):
        for c in range(cols):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(r + dr * i, c + dc * i) for i in range(k)]
                if all(0 <= rr < rows and 0 <= cc < cols for rr, cc in cells):
                    lines.add(tuple(sorted(rr * cols + cc for rr, cc in cells)))
    return lines


@pytest.mark.parametrize("options", CLASSIC_OPTIONS, ids=str)
def test_classic_completed_lines_are_the_lines_one_symbol_holds(options):
    make = lambda: Classic(**options)  # noqa: E731
    g0 = make()
    lines = classic_lines(g0.rows, g0.cols, g0.k)
    finished_by_line = 0
    for g in random_games(make, 40, 1):
        xs, os = g.cell_marks()
        expected = sorted(
            (symbol, line)
            for symbol, held in ((Player.X, xs), (Player.O, os))
            for line in lines
            if all(held >> c & 1 for c in line)
        )
        assert sorted(g.completed_lines()) == expected
        # A line exists exactly when the game ended by one.
        assert bool(expected) == (g.is_over() and g.winner is not None)
        finished_by_line += bool(expected)
        if expected:
            assert g.winning_line() in {sum(1 << c for c in line) for _, line in expected}
    assert finished_by_line > 0


def test_classic_completed_lines_overlap_when_a_run_is_longer_than_k():
    g = Classic.from_string("xx.x/oo.o/..../.... k=3")
    g.play("c1")
    assert sorted(cells for _, cells in g.completed_lines()) == [(0, 1, 2), (1, 2, 3)]


@pytest.mark.parametrize("options", CLASSIC_OPTIONS, ids=str)
def test_classic_move_cells_is_where_the_mark_landed(options):
    for g in random_games(lambda: Classic(**options), 20, 2):
        if g.is_over():
            continue
        for move in g.legal_actions():
            after = g.copy()
            after.play(move)
            before_marks = sum(g.cell_marks())
            (new_cell,) = [
                c for c in range(g.rows * g.cols) if sum(after.cell_marks()) >> c & 1 and not before_marks >> c & 1
            ]
            assert after.move_cells(move) == [new_cell]
            assert g.target_cell(move) == new_cell


def test_classic_move_cells_of_an_empty_gravity_column_is_empty():
    g = Classic(4, 4, 3, gravity=True)
    assert g.move_cells("a") == []
    g.play("a")
    assert g.move_cells("a") == [12]
    with pytest.raises(Exception, match="out of range"):
        g.move_cells(99)


@pytest.mark.parametrize("options", CLASSIC_OPTIONS, ids=str)
def test_classic_playable_cells_are_the_cells_legal_moves_write(options):
    for g in random_games(lambda: Classic(**options), 20, 3):
        expected = sorted({g.target_cell(m) for m in g.legal_actions()})
        if g.is_over():
            # Once the game is over no move is legal; the cells that would be playable stay empty cells.
            assert set(g.playable_cells()) >= set(expected)
        else:
            assert g.playable_cells() == expected


def test_ultimate_playable_boards_are_the_boards_of_legal_moves():
    for g in random_games(Ultimate, 30, 4):
        assert g.playable_boards() == sorted({m // 9 for m in g.legal_actions()})


def test_ultimate_grid_mapping_agrees_with_move_names_and_position_strings():
    letters = "abcdefghi"
    seen = set()
    for row in range(9):
        for col in range(9):
            move = Ultimate.grid_to_id(row, col)
            seen.add(move)
            assert Ultimate().move_name(move) == f"{letters[col]}{row + 1}"
            assert Ultimate.id_to_grid(move) == (row, col)
            assert Ultimate().move_cells(move) == [row * 9 + col]
    assert seen == set(range(81))
    for g in random_games(Ultimate, 5, 5):
        rows = g.to_string().split()[0].split("/")
        assert g.board() == [[ch.upper() for ch in row] for row in rows]
    for bad in [(-1, 0), (0, 9), (9, 9)]:
        with pytest.raises(InvalidMoveError):
            Ultimate.grid_to_id(*bad)
    for bad in [-1, 81]:
        with pytest.raises(InvalidMoveError):
            Ultimate.id_to_grid(bad)


LINES_3X3 = classic_lines(3, 3, 3)


def lines_owned(owner_of):
    """The 3x3 lines whose nine squares one player owns (owner_of(square) -> Player or None), sorted."""
    return sorted(
        (player, line)
        for player in (Player.X, Player.O)
        for line in LINES_3X3
        if all(owner_of(i) == player for i in line)
    )


def test_ultimate_completed_lines_are_lines_of_won_boards():
    won = 0
    owners = {"X": Player.X, "O": Player.O}
    for g in random_games(Ultimate, 60, 6):
        states = g.board_states()
        expected = lines_owned(lambda b: owners.get(states[b].name))
        assert sorted(g.completed_lines()) == expected
        won += bool(expected)
    assert won > 0


def test_quantum_move_cells_follow_the_notation():
    g = Quantum()
    cell = {f"{c}{r}": (r - 1) * 3 + "abc".index(c) for c in "abc" for r in (1, 2, 3)}
    for move in range(g.num_actions):
        name = g.move_name(move)
        expected = sorted(cell[part] for part in name.lstrip("@").split("-"))
        assert g.move_cells(move) == expected


def test_quantum_completed_lines_are_lines_of_classical_marks():
    both = 0
    for g in random_games(Quantum, 200, 7):
        marks = g.classical_marks()
        expected = lines_owned(lambda c: None if marks[c] is None else marks[c][0])
        assert sorted(g.completed_lines()) == expected
        both += len({p for p, _ in expected}) == 2
    assert both > 0


@pytest.mark.parametrize(
    "make",
    [Classic, lambda: Classic(3, 4, 3, gravity=True), lambda: Classic(2, 2, 2, free_choice=True), Ultimate, Quantum],
)
def test_no_game_lasts_longer_than_max_game_length(make):
    longest = 0
    previous = None
    for g in random_games(make, 300, 8):
        if g.is_over():
            assert g.ply <= g.max_game_length
            longest = max(longest, g.ply)
        previous = g
    assert previous is not None and longest > 0
    if isinstance(previous, Classic):
        assert previous.max_game_length == previous.rows * previous.cols
    elif isinstance(previous, Ultimate):
        assert previous.max_game_length == 81


@pytest.mark.parametrize("player", [5, -1, 2, True, "X", 0.0, None.__class__])
def test_observation_rejects_a_player_that_is_not_one(player):
    g = Classic()
    with pytest.raises(InvalidOptionError, match="player must be"):
        g.observation(player=player)


@pytest.mark.parametrize("make", [Classic, Ultimate, Quantum])
def test_observation_accepts_players_as_ints(make):
    g = make()
    g.play(g.legal_actions()[0])  # O to move
    for view in (Player.X, 0, np.int64(0)):
        assert np.array_equal(g.observation(player=view), g.observation(player=Player.X))
    assert np.array_equal(g.observation(player=1), g.observation())


@pytest.mark.parametrize("make", [Classic, Ultimate, Quantum, lambda: Classic(6, 7, 4, gravity=True)])
def test_to_move_and_winner_are_the_player_members(make):
    # The bindings hand out the two members they looked up once; they must be the
    # members themselves, and the right one: X moves at even plies in Classic and
    # Ultimate, and a line's maker wins there (no misere here).
    for g in random_games(make, 20, seed=7):
        assert g.to_move is Player(int(g.to_move))
        if not isinstance(g, Quantum):
            assert g.to_move is (Player.X if g.ply % 2 == 0 else Player.O)
        if g.winner is None:
            continue
        assert g.winner is Player(int(g.winner))
        if not isinstance(g, Quantum):
            assert g.winner is (Player.X if g.ply % 2 == 1 else Player.O)


@pytest.mark.parametrize("game", [Classic, Ultimate, Quantum])
def test_help_names_the_player_type(game):
    # help() and IDEs read the signature the bindings write: the public type, not `object`.
    assert game.to_move.fget.__doc__.strip().endswith("-> noughts.Player")
    assert game.winner.fget.__doc__.strip().endswith("-> noughts.Player | None")
