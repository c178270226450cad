"""A weak solve asked within a window (``solve(..., weak=True, window=...)``): the value and every
move's value held to it, as the exhaustive referee's, by both searches; a move that keeps the held
value; the question outside the window not searched; and clear errors for windows it cannot take."""

import noughts
import pytest
from game_choices import random_game
from minimax import minimax, move_values
from noughts import Classic

WINDOWS = [(0, 1), (-1, 0)]
METHODS = ["alphabeta", "pns"]
BOARDS = [
    dict(rows=3, cols=3, k=3),
    dict(rows=3, cols=3, k=3, misere=True, free_choice=True),
    dict(rows=4, cols=4, k=3, free_choice=True),
    dict(rows=4, cols=4, k=3, misere=True, gravity=True),
    dict(rows=3, cols=4, k=3, free_choice=True, gravity=True),
]


def held(value, window):
    return max(window[0], min(window[1], value))


def positions():
    """Positions of each board after 0..6 random moves that are not over (the referee takes them)."""
    for options in BOARDS:
        plies = range(5, 8) if options["rows"] * options["cols"] == 16 else range(0, 3)
        for seed, ply in enumerate(plies):
            g = random_game(lambda o=options: Classic(**o), seed, ply)
            if not g.is_over():
                yield g


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("window", WINDOWS, ids=str)
def test_value_and_move_values_are_the_referees_held_to_the_window(window, method):
    memo: dict = {}
    seen = set()
    for g in positions():
        value, _ = minimax(g.copy(), memo)
        values = move_values(g.copy(), memo)
        s = noughts.solve(g, weak=True, window=window, method=method)
        assert s.window == window and s.weak
        assert s.value == held(value, window), g.to_string()
        # The one best move keeps the held value: its own value, held, is the position's.
        assert held(values[s.best_moves[0].id], window) == s.value
        every = noughts.solve(g, weak=True, window=window, method=method, move_values=True)
        assert every.move_values == {m: held(v, window) for m, v in values.items()}
        assert sorted(m.id for m in every.best_moves) == sorted(m for m, v in every.move_values.items() if v == s.value)
        seen.add(value)
    assert seen == {-1, 0, 1}  # every value met, so each end of each window was held to


@pytest.mark.parametrize("method", METHODS)
def test_the_question_outside_the_window_is_not_searched(method):
    """A drawn position takes both questions in full; each window asks one of them, so fewer nodes
    (node counts of one thread on a fresh table are the same from run to run)."""
    g = Classic(4, 4, 4)  # a draw
    full = noughts.solve(g, weak=True, method=method)
    assert full.value == 0
    for window in WINDOWS:
        s = noughts.solve(g, weak=True, window=window, method=method)
        assert s.value == 0 and s.nodes < full.nodes


def test_the_answer_says_what_a_held_draw_means():
    g = Classic(3, 3, 3)  # a draw: X neither wins nor loses
    assert noughts.solve(g, weak=True, window=(0, 1)).result == "X does not win"
    assert noughts.solve(g, weak=True, window=(-1, 0)).result == "X does not lose"
    assert noughts.solve(g, weak=True).result == "draw"
    g.play("b2")
    g.play("a2")  # X wins from here
    won = noughts.solve(g, weak=True, window=(0, 1))
    assert won.value == 1 and won.result == "X wins"
    assert noughts.solve(g, weak=True, window=(-1, 0)).result == "X does not lose"


def test_a_kept_table_solver_takes_the_window():
    g = Classic(3, 3, 3)
    g.play("b2")
    g.play("a2")
    solver = noughts.Solver()
    assert solver.solve(g, weak=True, window=(-1, 0)).value == 0
    assert solver.solve(g, weak=True, window=(0, 1)).value == 1


@pytest.mark.parametrize(
    "window", [(1, 1), (0, 0), (1, -1), (-2, 1), (0, 2), (0,), (0, 1, 1), "01", None, (0.0, 1), (True, 1)], ids=str
)
def test_bad_windows_are_rejected(window):
    with pytest.raises(noughts.InvalidOptionError, match="window must be"):
        noughts.solve(Classic(3, 3, 3), weak=True, window=window)


@pytest.mark.parametrize("method", METHODS)
def test_a_window_needs_a_weak_solve(method):
    with pytest.raises(noughts.InvalidOptionError, match="needs weak=True"):
        noughts.solve(Classic(3, 3, 3), window=(0, 1), method=method)
    assert noughts.solve(Classic(3, 3, 3), window=(-1, 1), method=method).value == 0  # the whole window is the default


@pytest.mark.parametrize("make", [noughts.Ultimate, noughts.Quantum], ids=lambda m: m.__name__)
def test_other_games_agree_with_their_full_weak_solve(make):
    for seed in range(4):
        g = random_game(make, seed, 56 if make is noughts.Ultimate else 5)
        if g.is_over():
            continue
        value = noughts.solve(g, weak=True).value
        for window in WINDOWS:
            assert noughts.solve(g, weak=True, window=window).value == held(value, window)
