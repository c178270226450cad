"""best_move within a time for every game, and what a solve reports while it runs and when it stops."""

import subprocess
import sys
import threading

import noughts
import pytest
from noughts import _core
from noughts.solver import _solution


def test_best_move_within_a_time_answers_ultimate_instead_of_timing_out():
    game = noughts.Ultimate()
    answer = noughts.best_move(game, max_seconds=1)
    assert isinstance(answer, noughts.BestMove)
    assert answer.method == "mcts" and answer.exact is False and answer.search is not None
    assert game.is_legal(answer.move) and answer.to_move == noughts.Player.X
    assert -1 <= answer.value <= 1 and answer.solution is None
    assert game.move_ids == []  # the game is left as it was


@pytest.mark.parametrize(
    "game",
    [
        noughts.Classic(4, 4, 3),
        noughts.Classic(3, 3, misere=True),
        noughts.Quantum.from_string(noughts.Quantum().to_string()),
    ],
    ids=["4x4k3", "misere", "quantum"],
)
def test_best_move_is_exact_when_the_solver_finishes(game):
    if isinstance(game, noughts.Quantum):
        for m in ["a1-c3", "b1-b2", "b2-a3", "b1-b2", "@b2"]:  # a late position: the solver finishes at once
            game.play(m)
    exact = noughts.solve(game)
    answer = noughts.best_move(game, seconds=30)
    assert answer.exact and answer.method == "solver" and answer.solution is not None
    assert answer.value == exact.value
    assert answer.move in exact.best_moves
    assert answer.move == exact.principal_variation[0]  # the fastest win when winning


def test_best_move_without_a_time_solves():
    answer = noughts.best_move(noughts.Classic())
    assert answer.exact and answer.value == 0 and answer.method == "solver"


@pytest.mark.parametrize(
    "kwargs",
    [{"seconds": 0}, {"seconds": -1}, {"seconds": float("nan")}, {"seconds": 1, "max_seconds": 2}, {"seconds": "1"}],
)
def test_best_move_refuses_bad_times(kwargs):
    with pytest.raises(noughts.InvalidOptionError):
        noughts.best_move(noughts.Classic(), **kwargs)


def _progress_after(game):
    state = _core.SolveProgress()
    raw = _core.solve(game, 0.0, 64.0, True, False, None, state)
    return _solution(raw, game, game.to_move, weak=False), state


def test_a_finished_solve_leaves_its_bounds_and_depth_proved():
    won = noughts.Classic(4, 4, 3)
    solution, state = _progress_after(won)
    assert solution.value == 1 and (state.lower, state.upper) == (1, 1)
    assert state.depth == solution.distance - 1  # every shorter win was refuted
    lost = won.copy()
    lost.play(solution.principal_variation[0])
    solution, state = _progress_after(lost)
    assert solution.value == -1 and (state.lower, state.upper) == (-1, -1)
    assert state.depth == solution.distance  # the loser lasts exactly this long
    solution, state = _progress_after(noughts.Classic())
    assert solution.value == 0 and (state.lower, state.upper) == (0, 0) and state.nodes >= 0


def test_status_text_names_the_player():
    status = noughts.SolveStatus(10, 1.0, noughts.Player.O, 1, 1, 7)
    assert str(status) == "O wins, in more than 7 plies"
    assert str(noughts.SolveStatus(10, 1.0, noughts.Player.X, -1, 0, 0)) == "X does not win (a draw or a loss)"
    assert str(noughts.SolveStatus(10, 1.0, noughts.Player.X, -1, -1, 9)) == "X loses, lasting at least 9 plies"
    assert str(noughts.SolveStatus(10, 1.0, noughts.Player.X, -1, 1, 0)) == "nothing proven yet"


LONG = noughts.Classic(5, 5, 4, misere=True)  # many seconds to solve


def test_progress_is_reported_and_a_stopped_solve_says_what_it_proved():
    stop, seen = threading.Event(), []

    def progress(status):
        seen.append(status)
        stop.set()

    with pytest.raises(noughts.SearchTimeout) as e:
        noughts.solve(LONG, progress=progress, stop=stop)
    assert seen and seen[0].nodes > 0 and seen[0].to_move == noughts.Player.X
    proven = e.value.proven
    assert isinstance(proven, noughts.SolveStatus) and proven.nodes == e.value.nodes >= seen[0].nodes
    assert -1 <= proven.lower <= proven.upper <= 1


def test_an_exception_in_progress_or_stop_propagates_after_the_search_ends():
    def progress(status):
        raise RuntimeError("from progress")

    with pytest.raises(RuntimeError, match="from progress"):
        noughts.solve(LONG, progress=progress)

    class BadStop:
        def is_set(self):
            raise ValueError("from is_set")

    with pytest.raises(ValueError, match="from is_set"):
        noughts.solve(LONG, stop=BadStop())


def test_cli_solve_out_of_time_says_what_it_proved():
    out = subprocess.run(
        [sys.executable, "-m", "noughts", "solve", "--size", "5", "-k", "4", "--misere", "--max-seconds", "1.5"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert "nodes, 1 s:" in out.stderr  # a progress line
    assert "the time limit was reached" in out.stderr and "proved so far:" in out.stderr


def test_the_answer_stands_for_its_move():
    g = noughts.Classic()
    for m in ("a1", "a2", "b1", "b2"):
        g.play(m)
    answer = noughts.best_move(g, seconds=10)
    assert answer.name == "c1" and answer.id == 2 and str(answer) == "c1"
    g.play(answer)
    assert g.winner == noughts.Player.X
