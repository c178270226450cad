"""Proof-number search (solve(..., method="pns")): the same values and best moves as alpha-beta and the
exhaustive referee, on Classic (small boards, every option), Quantum and Ultimate endgames; limits."""

import random
import threading

import noughts
import pytest
from game_choices import choices, play_choices, random_game
from hypothesis import given, settings
from hypothesis import strategies as st
from minimax import minimax, move_values
from noughts import Classic
from noughts.solver import _solution


def random_position(make, plies, seed):
    rng = random.Random(seed)
    while True:
        g = make()
        for _ in range(plies):
            if g.is_over():
                break
            g.play(rng.choice(g.legal_actions()))
        if not g.is_over():
            return g


def assert_sound_line(g, s):
    """The principal variation is legal play to the end that ends with the proved value."""
    line = g.copy()
    for move in s.principal_variation:
        line.play(move)
    assert line.is_over()
    winner = {1: noughts.Player.X, 0: None, -1: noughts.Player.O}[s.value_for(noughts.Player.X)]
    assert line.winner == winner
    assert s.principal_variation[0] in s.best_moves


def assert_same_as_alphabeta(g):
    a = noughts.solve(g, move_values=True)
    b = noughts.solve(g, method="pns", move_values=True)
    assert (b.value, b.move_values, b.best_moves) == (a.value, a.move_values, a.best_moves)
    assert b.distance is None
    c = noughts.solve(g, method="pns")  # best moves without every move's value
    assert (c.value, c.best_moves) == (a.value, a.best_moves)
    assert_sound_line(g, c)


SMALL = [
    (rows, cols, k, m, f, gr)
    for rows, cols, k in [(3, 3, 3), (2, 4, 3), (3, 2, 2), (1, 5, 3), (2, 3, 1)]
    for m in (False, True)
    for f in (False, True)
    for gr in (False, True)
]


@pytest.mark.parametrize("rows,cols,k,misere,free,gravity", SMALL)
def test_small_classic_boards_against_the_referee(rows, cols, k, misere, free, gravity):
    g = Classic(rows, cols, k, misere=misere, free_choice=free, gravity=gravity)
    memo = {}
    value, _ = minimax(g.copy(), memo)
    s = noughts.solve(g, method="pns", move_values=True)
    assert s.value == value and s.move_values == move_values(g.copy(), memo)
    assert_sound_line(g, s)


@pytest.mark.parametrize("seed", range(16))
def test_classic_middle_games_against_alphabeta(seed):
    options = dict(misere=seed & 1 == 1, free_choice=seed & 2 == 2, gravity=seed & 4 == 4)
    board = (4, 4, 3) if seed < 8 else (4, 4, 4)
    g = random_position(lambda: Classic(*board, **options), 4 + seed % 4, seed)
    assert_same_as_alphabeta(g)


@pytest.mark.parametrize("board", [(4, 5, 3), (6, 7, 4)])
@pytest.mark.parametrize("seed", range(6))
def test_gravity_late_positions_against_the_referee(board, seed):
    """Gravity boards, where the tactics also settle positions by the follow-up (every
    column with an even number of empty cells): each move's value as the referee's."""
    rows, cols, k = board
    g = random_position(lambda: Classic(rows, cols, k, gravity=True), rows * cols - 10, seed)
    memo = {}
    value, _ = minimax(g.copy(), memo)
    s = noughts.solve(g, method="pns", move_values=True)
    assert s.value == value and s.move_values == move_values(g.copy(), memo)


@pytest.mark.parametrize("plies,seed", [(p, s) for p in (46, 50, 54, 58) for s in range(5)])
def test_ultimate_endgames_against_alphabeta(plies, seed):
    assert_same_as_alphabeta(random_position(noughts.Ultimate, plies, 1000 * plies + seed))


@pytest.mark.parametrize("seed", range(4))
def test_ultimate_with_the_tiebreak_against_alphabeta(seed):
    assert_same_as_alphabeta(random_position(lambda: noughts.Ultimate(tiebreak=True), 52, seed))


@pytest.mark.parametrize("plies,seed", [(p, s) for p in (4, 6, 8) for s in range(3)])
def test_quantum_against_alphabeta(plies, seed):
    assert_same_as_alphabeta(random_position(noughts.Quantum, plies, 10 * plies + seed))


def test_symmetry_off_and_a_small_table_give_the_same_answer():
    g = random_position(noughts.Ultimate, 44, 3)
    a = noughts.solve(g, method="pns")
    b = noughts.solve(g, method="pns", symmetry=False, tt_mb=0.5)
    assert (a.value, a.best_moves) == (b.value, b.best_moves)


def test_weak_gives_the_value_and_one_best_move():
    for seed in range(6):
        g = random_position(noughts.Ultimate, 50, seed)
        full = noughts.solve(g, method="pns")
        weak = _solution(noughts._core.solve_proof_number(g, weak=True), g, g.to_move, weak=True)
        assert weak.value == full.value and weak.principal_variation == []
        (move,) = weak.best_moves
        assert move in full.best_moves


def test_time_limit_and_stop_raise_search_timeout():
    with pytest.raises(noughts.SearchTimeout) as info:
        noughts.solve(noughts.Ultimate(), method="pns", max_seconds=0.2)
    assert info.value.nodes > 0
    stop = threading.Event()
    threading.Timer(0.2, stop.set).start()
    with pytest.raises(noughts.SearchTimeout):
        noughts.solve(noughts.Ultimate(), method="pns", stop=stop)


def test_bad_method_and_finished_games():
    with pytest.raises(noughts.InvalidOptionError, match="method"):
        noughts.solve(Classic(), method="pn")
    g = Classic()
    for m in ("a1", "a2", "b1", "b2", "c1"):
        g.play(m)
    with pytest.raises(noughts.IllegalMoveError, match="over"):
        noughts.solve(g, method="pns")


@given(
    board=st.sampled_from([(3, 3, 3), (2, 4, 3), (3, 4, 3), (4, 3, 3), (4, 4, 3)]),
    misere=st.booleans(),
    free=st.booleans(),
    gravity=st.booleans(),
    picks=choices(9),
)
def test_random_classic_positions_against_alphabeta(board, misere, free, gravity, picks):
    g = play_choices(Classic(*board, misere=misere, free_choice=free, gravity=gravity), picks)
    if g.is_over() or (board == (4, 4, 3) and len(g.legal_actions()) > 11):
        return
    a, b = noughts.solve(g, move_values=True), noughts.solve(g, method="pns", move_values=True)
    assert (b.value, b.move_values, b.best_moves) == (a.value, a.move_values, a.best_moves)


@settings(max_examples=25)
@given(plies=st.integers(min_value=47, max_value=60), seed=st.integers(min_value=0, max_value=10**6))
def test_random_ultimate_endgames_against_alphabeta(plies, seed):
    g = random_game(noughts.Ultimate, seed, plies)
    if g.is_over():
        return
    a, b = noughts.solve(g), noughts.solve(g, method="pns")
    assert (b.value, b.best_moves) == (a.value, a.best_moves)
    weak = noughts.solve(g, method="pns", weak=True)
    assert weak.value == a.value and weak.best_moves[0] in a.best_moves


# 35 moves played: the value takes well under a second, every best move far longer.
SLOW_BEST_MOVES = "xoo.o..ox/.o.x.x.oo/.xo..x..x/x.oxx.o.x/.o....x../...xox.../x....xo../.o...oox./....x.o.. 7"


def test_a_search_stopped_after_the_value_still_reports_it():
    """Stopped in the best-move phase (as soon as a progress report shows the value), the timeout carries the
    value the weak solve proves."""
    g = noughts.Ultimate.from_string(SLOW_BEST_MOVES)
    value = noughts.solve(g, method="pns", weak=True).value
    stop = threading.Event()
    reports = []

    def watch(status):
        reports.append(status)
        if status.lower == status.upper:
            stop.set()

    try:
        s = noughts.solve(g, method="pns", stop=stop, progress=watch)
    except noughts.SearchTimeout as e:
        assert e.proven is not None and e.proven.lower == e.proven.upper == value
    else:  # a machine fast enough to finish before the first report
        assert s.value == value
    assert all(r.lower <= value <= r.upper for r in reports)


@settings(max_examples=15, deadline=None)
@given(
    plies=st.integers(min_value=44, max_value=56),
    seed=st.integers(min_value=0, max_value=10**6),
    threads=st.integers(min_value=2, max_value=3),
)
def test_threads_prove_what_one_thread_proves(plies, seed, threads):
    """With threads the questions are dealt out and the table is shared: the answer must not change."""
    g = random_game(noughts.Ultimate, seed, plies)
    if g.is_over():
        return
    one = noughts.solve(g, method="pns", move_values=True)
    many = noughts.solve(g, method="pns", move_values=True, threads=threads, tt_mb=8)
    assert (many.value, many.move_values, many.best_moves) == (one.value, one.move_values, one.best_moves)
    line = noughts.solve(g, method="pns", threads=threads, tt_mb=8)
    assert line.best_moves == one.best_moves
    assert_sound_line(g, line)
    weak = noughts.solve(g, method="pns", weak=True, threads=threads, tt_mb=8)
    assert weak.value == one.value and weak.best_moves[0] in one.best_moves


def test_threads_stop_at_the_time_limit_and_on_a_stop():
    with pytest.raises(noughts.SearchTimeout) as info:
        noughts.solve(noughts.Ultimate(), method="pns", max_seconds=0.2, threads=2, tt_mb=8)
    assert info.value.nodes > 0
    stop = threading.Event()
    threading.Timer(0.2, stop.set).start()
    with pytest.raises(noughts.SearchTimeout):
        noughts.solve(noughts.Ultimate(), method="pns", stop=stop, threads=2, tt_mb=8)
