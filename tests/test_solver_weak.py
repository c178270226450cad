"""The weak solve (win/draw/loss only): the same value as the strong solve and the
exhaustive referee, a best move that keeps it, and nothing it did not prove."""

import noughts
import pytest
from game_choices import choices, play_choices, random_game
from hypothesis import given
from hypothesis import strategies as st
from minimax import minimax, move_values
from noughts import Classic

OPTION_SETS = [
    dict(misere=m, free_choice=f, gravity=g) for m in (False, True) for f in (False, True) for g in (False, True)
]


def assert_weak_agrees(game, memo=None):
    """The weak solve's value is the referee's and the strong solve's; its one best move keeps the value."""
    memo = {} if memo is None else memo
    value, _ = minimax(game.copy(), memo)
    values = move_values(game.copy(), memo)
    weak = noughts.solve(game, weak=True)
    strong = noughts.solve(game)
    assert weak.weak and not strong.weak
    assert weak.value == strong.value == value
    assert weak.to_move == game.to_move and weak.result == strong.result
    assert weak.distance is None and weak.principal_variation == [] and weak.move_values == {}
    assert len(weak.best_moves) == 1 and values[weak.best_moves[0].id] == value
    assert weak.best_moves[0] in strong.best_moves
    return weak


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: "-".join(k for k, v in o.items() if v) or "plain")
@pytest.mark.parametrize("board", [(3, 3, 3), (2, 4, 3), (3, 2, 2), (1, 5, 3), (4, 4, 3)])
def test_classic_every_option_from_the_start_and_after_random_moves(board, options):
    memo: dict = {}
    big = board == (4, 4, 3)  # the referee takes the smaller boards from the start, this one later
    if not big:
        assert_weak_agrees(Classic(*board, **options), memo)
    plies = (9 if options["free_choice"] else 7) if big else 2
    for seed in range(4):
        g = random_game(lambda: Classic(*board, **options), seed, plies)
        if not g.is_over():
            assert_weak_agrees(g, memo)


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: "-".join(k for k, v in o.items() if v) or "plain")
@pytest.mark.parametrize("seed", range(3))
def test_boards_past_32_cells_late_positions(options, seed):
    empty = 7 if options["free_choice"] else 9
    g = random_game(lambda: Classic(6, 6, 4, **options), seed, 36 - empty)
    if not g.is_over():
        assert_weak_agrees(g)


def assert_weak_matches_strong(game):
    """The weak solve's value is the strong solve's and its one best move is among the strong best moves
    (for positions too large for the referee)."""
    weak, strong = noughts.solve(game, weak=True), noughts.solve(game)
    assert weak.value == strong.value
    assert weak.best_moves[0] in strong.best_moves


@pytest.mark.parametrize("seed", range(12))
def test_connect_four_positions_agree_with_the_strong_solve(seed):
    """Connect Four (7 columns, 6 rows) after 16..38 random moves: weak and strong agree."""
    g = random_game(lambda: Classic(6, 7, 4, gravity=True), seed, 16 + 2 * seed)
    if g.is_over():
        return
    assert_weak_matches_strong(g)


@pytest.mark.parametrize(
    "make,plies,seed",
    [(noughts.Ultimate, 58, seed) for seed in range(5)] + [(noughts.Quantum, 6, seed) for seed in range(6)],
    ids=lambda x: getattr(x, "__name__", str(x)),
)
def test_ultimate_endgames_and_quantum_middle_games(make, plies, seed):
    g = random_game(make, seed, plies)
    if not g.is_over():
        assert_weak_agrees(g)


@given(
    board=st.sampled_from([(3, 3, 3), (2, 4, 3), (3, 4, 3), (2, 3, 2), (4, 3, 3)]),
    misere=st.booleans(),
    free=st.booleans(),
    gravity=st.booleans(),
    picks=choices(8),
)
def test_weak_value_is_the_strong_value(board, misere, free, gravity, picks):
    g = play_choices(Classic(*board, misere=misere, free_choice=free, gravity=gravity), picks)
    if g.is_over():
        return
    assert_weak_matches_strong(g)


@given(picks=choices(6))
def test_weak_move_values_are_the_strong_ones(picks):
    g = play_choices(Classic(4, 4, 3), picks)
    if g.is_over():
        return
    weak, strong = noughts.solve(g, weak=True, move_values=True), noughts.solve(g, move_values=True)
    assert weak.move_values == strong.move_values
    assert weak.best_moves == strong.best_moves  # every best move, since all the moves' values are known


def test_quantum_from_the_start_is_a_first_player_win():
    s = noughts.solve(noughts.Quantum(), weak=True)
    assert s.value == 1 and s.result == "X wins" and s.distance is None


def test_a_stopped_weak_solve_raises_search_timeout():
    with pytest.raises(noughts.SearchTimeout):
        noughts.solve(Classic(8, 8, 5), weak=True, max_seconds=0.1)


@pytest.mark.parametrize("board", [(6, 7), (5, 6), (4, 5), (7, 4)])
@pytest.mark.parametrize("seed", range(4))
def test_gravity_boards_late_positions_against_the_referee(board, seed):
    """Gravity boards (Connect Four's 7x6 among them), k=4, with 13 empty cells: the weak and strong
    solves against the exhaustive referee, value, every move's value and distance."""
    rows, cols = board
    g = next(
        g
        for g in (
            random_game(lambda: Classic(rows, cols, 4, gravity=True), 100 * seed + i, rows * cols - 13)
            for i in range(1000)
        )
        if not g.is_over()
    )
    memo: dict = {}
    assert_weak_agrees(g, memo)
    value, distance = minimax(g.copy(), memo)
    strong = noughts.solve(g, move_values=True)
    assert strong.move_values == move_values(g.copy(), memo)
    assert strong.distance == (None if value == 0 else distance)


@given(
    board=st.sampled_from([(3, 3, 3), (3, 4, 3), (4, 3, 3), (4, 4, 3)]),
    misere=st.booleans(),
    free=st.booleans(),
    gravity=st.booleans(),
    picks=choices(9),
)
def test_one_best_move_keeps_the_exact_score(board, misere, free, gravity, picks):
    """all_best_moves=False: the same value, distance and line of play, and its first move as the one best move."""
    g = play_choices(Classic(*board, misere=misere, free_choice=free, gravity=gravity), picks)
    if g.is_over() or (board == (4, 4, 3) and len(g.legal_actions()) > 10):
        return
    full, one = noughts.solve(g), noughts.solve(g, all_best_moves=False)
    assert (one.value, one.distance) == (full.value, full.distance)
    assert one.best_moves == one.principal_variation[:1] and one.best_moves[0] in full.best_moves
    assert len(one.principal_variation) == (full.distance or len(one.principal_variation))


@pytest.mark.parametrize("seed", range(8))
def test_connect_four_one_best_move_and_exact_score(seed):
    g = random_game(lambda: Classic(6, 7, 4, gravity=True), seed, 18 + 2 * seed)
    if g.is_over():
        return
    full, one = noughts.solve(g), noughts.solve(g, all_best_moves=False)
    assert (one.value, one.distance) == (full.value, full.distance)
    assert one.best_moves == one.principal_variation[:1] and one.best_moves[0] in full.best_moves
