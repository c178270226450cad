"""Searches from several Python threads at once: safe, deterministic, and without the GIL.

The C++ searches (solve, MCTS, perft, random_playouts, VectorGame stepping)
release the GIL, so Python threads run them in parallel. Each check here
runs the same work sequentially and from threads started together (a
barrier), and compares the results; one measures that a Python thread
keeps running while a search runs. ``scripts/sanitize.sh thread
tests/test_threads.py`` runs this file under ThreadSanitizer
(docs/hardening.md).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import noughts
import numpy as np
import pytest
from game_choices import random_game
from noughts import MCTS, Classic, Quantum, Ultimate, VectorGame
from noughts.engine import Engine

THREADS = 4


def in_threads(calls: list[Callable[[], Any]]) -> list[Any]:
    """Runs each call in its own thread, all released at once; returns the results in order (re-raises errors)."""
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)
    errors: list[BaseException] = []

    def run(i: int) -> None:
        try:
            barrier.wait()
            results[i] = calls[i]()
        except BaseException as e:  # noqa: BLE001 - handed to the main thread
            errors.append(e)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert not any(t.is_alive() for t in threads), "a thread did not finish"
    if errors:
        raise errors[0]
    return results


# ---------------------------------------------------------------------------
# (a) the exact solver
# ---------------------------------------------------------------------------
def solve_positions() -> list[Any]:
    return [
        Classic(4, 4, 3, misere=True),  # ~0.2 s
        random_game(Ultimate, 7, 46),  # ~0.2 s
        Classic(4, 5, 4, gravity=True),
        random_game(Quantum, 2, 4),
    ]


def solution(game: Any) -> tuple[Any, ...]:
    s = noughts.solve(game, move_values=isinstance(game, Classic))
    return (s.value, s.to_move, s.distance, s.best_moves, s.move_values, s.principal_variation)


def test_solve_in_threads_matches_sequential() -> None:
    positions = solve_positions()
    sequential = [solution(g) for g in positions]
    parallel = in_threads([lambda g=g: solution(g) for g in positions])
    assert parallel == sequential


def test_solve_one_game_object_from_threads() -> None:
    """Threads may share a game object: a search copies the position before it lets the GIL go."""
    game = Classic(4, 5, 4, gravity=True)
    expected = solution(game)
    assert in_threads([lambda: solution(game)] * THREADS) == [expected] * THREADS


# ---------------------------------------------------------------------------
# (b) MCTS: one searcher per thread, deterministic for a seed and an iteration budget
# ---------------------------------------------------------------------------
MCTS_CASES = [  # (game, seed, threads inside the search)
    (lambda: Classic(6, 7, 4, gravity=True), 11, 1),
    (lambda: random_game(Ultimate, 3, 10), 12, 1),
    (lambda: Quantum(), 13, 1),
    (lambda: Classic(8, 8, 5), 14, 2),  # two trees in C++ threads, merged at the root
]


def mcts_run(make_game: Callable[[], Any], seed: int, threads: int) -> tuple[Any, ...]:
    game = make_game()
    mcts = MCTS(seed=seed, threads=threads)
    out = []
    for _ in range(2):  # the second search reuses the tree after a move
        r = mcts.search(game, iterations=3000)
        out.append(
            (r.best_move, r.value, r.proven, r.proven_value, r.moves, r.pv, r.iterations, r.reused_visits, r.nodes)
        )
        game.play(r.best_move)
    return tuple(out)


def test_mcts_in_threads_matches_sequential() -> None:
    sequential = [mcts_run(*case) for case in MCTS_CASES]
    assert sequential == [mcts_run(*case) for case in MCTS_CASES], "MCTS with an iteration budget is not deterministic"
    parallel = in_threads([lambda c=c: mcts_run(*c) for c in MCTS_CASES])
    assert parallel == sequential


# ---------------------------------------------------------------------------
# (c) perft and random playouts
# ---------------------------------------------------------------------------
COUNT_CASES: list[Callable[[], Any]] = [
    lambda: noughts.perft(Ultimate(), 5),
    lambda: noughts.perft(Quantum(), 4),
    lambda: noughts.perft(Classic(4, 4), 6),
    lambda: noughts.perft(Classic(6, 7, 4, gravity=True), 6),
    lambda: noughts.random_playouts(Ultimate(), 20_000, seed=1),
    lambda: noughts.random_playouts(Quantum(), 20_000, seed=2),
    lambda: noughts.random_playouts(Classic(5, 5, 4, misere=True, free_choice=True), 20_000, seed=3),
    lambda: noughts.random_playouts(random_game(Ultimate, 9, 20), 20_000, seed=4),
]


def test_perft_and_playouts_in_threads_match_sequential() -> None:
    sequential = [call() for call in COUNT_CASES]
    assert sequential[0] == 473_256 and sequential[1] == 1_531_656  # docs/ultimate.md, docs/quantum.md
    for start in range(0, len(COUNT_CASES), THREADS):
        batch = COUNT_CASES[start : start + THREADS]
        assert in_threads(batch) == sequential[start : start + THREADS]


# ---------------------------------------------------------------------------
# (d) the GIL is released while C++ searches
# ---------------------------------------------------------------------------
class Counter:
    """A Python thread that counts as fast as it can: it only advances while it holds the GIL."""

    def __init__(self) -> None:
        self.count = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.is_set():
            self.count += 1

    def __enter__(self) -> Counter:
        self._thread.start()
        time.sleep(0.02)
        return self

    def __exit__(self, *exc: Any) -> None:
        self._stop.set()
        self._thread.join()

    def rate_during(self, work: Callable[[], Any]) -> tuple[float, float]:
        """(counts per second while `work` ran in this thread, seconds it took)."""
        c0, t0 = self.count, time.perf_counter()
        work()
        seconds = time.perf_counter() - t0
        return (self.count - c0) / seconds, seconds


_HOLD_N: list[int] = []


def _gil_holding_work() -> None:
    # One C call that never lets the GIL go (sum over a range), sized beforehand to take ~0.2 s.
    sum(range(_HOLD_N[0]))


def _size_gil_holding_work() -> None:
    if not _HOLD_N:
        best = min(_timed(lambda: sum(range(200_000))) for _ in range(3))  # the least disturbed of three
        _HOLD_N.append(min(int(200_000 * 0.2 / max(best, 1e-6)), 10**9))


def _timed(call: Callable[[], Any]) -> float:
    t0 = time.perf_counter()
    call()
    return time.perf_counter() - t0


GIL_FREE_WORK = {
    "mcts": lambda: MCTS(seed=1).search(Ultimate(), seconds=0.5),
    "solve": lambda: _solve_for_half_a_second(),
    "perft": lambda: noughts.perft(Quantum(), 5),
    "random_playouts": lambda: noughts.random_playouts(Ultimate(), 300_000, seed=1),
    "vector_step": lambda: _step_many(VectorGame("ultimate", 4096, seed=1), 40),
}


def _solve_for_half_a_second() -> None:
    try:
        noughts.solve(Classic(5, 5, 4, misere=True), max_seconds=0.5)  # about a minute to solve: the limit stops it
    except noughts.SearchTimeout:
        pass


def _step_many(env: VectorGame, steps: int) -> None:
    env.reset()
    for _ in range(steps):
        env.step(env.random_actions())


@pytest.mark.parametrize("name", list(GIL_FREE_WORK))
def test_gil_released_during_search(name: str) -> None:
    _size_gil_holding_work()
    # Up to three measurements: on a shared machine one can be starved by other work; work that holds
    # the GIL fails all three, since the counter then hardly moves.
    failures = []
    for _ in range(3):
        with Counter() as counter:
            idle, _ = counter.rate_during(lambda: time.sleep(0.2))  # sleep releases the GIL: full speed
            busy, seconds = counter.rate_during(GIL_FREE_WORK[name])
            held, _ = counter.rate_during(_gil_holding_work)
        assert idle > 0
        # Generous: with the GIL released the counter keeps most of its speed (the interruptible searches take
        # the GIL for a moment every 20 ms to look for Ctrl-C); with the GIL held it would hardly move, as
        # `held` shows.
        if busy > 0.25 * idle and busy > 2 * held:
            return
        failures.append(
            f"{busy:,.0f}/s during {seconds:.2f} s of search, {idle:,.0f}/s idle, {held:,.0f}/s with the GIL held"
        )
    pytest.fail(f"{name}: the counter ran at " + "; then ".join(failures))


# ---------------------------------------------------------------------------
# (e) VectorGame: two environments stepped from two threads
# ---------------------------------------------------------------------------
def vector_run(game: str, seed: int, options: dict[str, Any]) -> tuple[Any, ...]:
    env = VectorGame(game, 128, seed=seed, **options)
    obs, masks, to_move = env.reset()
    rewards = 0.0
    episodes = 0
    for _ in range(150):
        step = env.step(env.random_actions())
        rewards += float(np.abs(step.rewards).sum())
        episodes += int(step.terminated.sum())
        obs = step.observations
    return rewards, episodes, obs.tobytes(), step.action_masks.tobytes(), step.to_move.tobytes()


VECTOR_CASES = [("ultimate", 1, {}), ("classic", 2, {"rows": 6, "cols": 7, "k": 4, "gravity": True})]


def test_vector_games_in_two_threads_match_sequential() -> None:
    sequential = [vector_run(*case) for case in VECTOR_CASES]
    parallel = in_threads([lambda c=c: vector_run(*c) for c in VECTOR_CASES])
    assert parallel == sequential
    assert all(r[1] > 0 for r in sequential)  # games ended and were reset along the way


# ---------------------------------------------------------------------------
# The engine: its search thread and the reading thread
# ---------------------------------------------------------------------------
def test_engine_go_stop_cycles() -> None:
    out: list[str] = []
    engine = Engine(out.append)
    for game in ("ultimate", "quantum", "classic rows=6 cols=7 k=4 gravity"):
        engine.handle(f"game {game}")
        # Every budget outlasts the next three commands (2000 iterations did
        # not, once MCTS reached millions a second): "play" is refused.
        for budget in ("movetime 500", "iterations 50000000", "movetime 2000"):
            engine.handle(f"go {budget}")
            engine.handle("isready")  # answered during the search
            engine.handle("play a1")  # refused during the search
            engine.handle("stop")
    engine.handle("quit")
    assert sum(line.startswith("bestmove ") for line in out) == 9
    assert out.count("readyok") == 9
    assert sum(line == "error a search is running: send 'stop' first" for line in out) == 9
    assert not any(line.startswith("error search failed") for line in out)


# ---------------------------------------------------------------------------
# (f) Every call that releases the GIL, on a game another thread plays on meanwhile
# ---------------------------------------------------------------------------
SHARED_GAMES: dict[str, Callable[[], Any]] = {
    "classic gravity free": lambda: Classic(4, 4, 3, gravity=True, free_choice=True),
    "classic misere": lambda: Classic(4, 4, 3, misere=True),
    "ultimate": lambda: random_game(Ultimate, 5, 6),
    "quantum": lambda: random_game(Quantum, 6, 3),
}
GIL_FREE_CALLS: dict[str, Callable[[Any], Any]] = {
    "perft": lambda g: noughts.perft(g, 4),
    "random_playouts": lambda g: noughts.random_playouts(g, 3000, seed=5),
    "solve": lambda g: noughts.solve(g, max_seconds=30).value,
    "mcts": lambda g: MCTS(seed=3).search(g, iterations=400).best_move,
}


@pytest.mark.parametrize("call", list(GIL_FREE_CALLS))
@pytest.mark.parametrize("game_name", list(SHARED_GAMES))
def test_gil_free_call_while_another_thread_plays_on_the_game(game_name: str, call: str) -> None:
    """The call copies the position before it lets the GIL go: while another thread plays a move and
    takes it back, over and over, every answer is the answer for one of the two positions."""
    game = SHARED_GAMES[game_name]()
    if call == "solve" and isinstance(game, Ultimate):
        game = random_game(Ultimate, 5, 54)  # late enough to solve at once
    work = GIL_FREE_CALLS[call]
    move = game.legal_actions()[0]
    after = game.copy()
    after.play(move)
    allowed = [work(game), work(after)]
    done = threading.Event()
    plies = 0

    def player() -> None:
        nonlocal plies
        while not done.is_set():
            game.play(move)
            game.undo()
            plies += 1

    thread = threading.Thread(target=player)
    thread.start()
    try:
        answers = [work(game) for _ in range(5)]
    finally:
        done.set()
        thread.join()
    assert all(a in allowed for a in answers), (answers, allowed)
    assert plies > 0


# ---------------------------------------------------------------------------
# (g) One object used from two threads at once is refused, never a crash
# ---------------------------------------------------------------------------
def _overlap(busy_call: Callable[[], Any], short_calls: list[Callable[[], Any]]) -> list[BaseException]:
    """Runs busy_call over and over in a thread while this thread makes the short calls, until they were
    refused 20 times (or busy_call ran 10,000 times); returns what they raised."""
    started, enough = threading.Event(), threading.Event()
    errors: list[BaseException] = []

    def background() -> None:
        started.set()
        for _ in range(10_000):
            if enough.is_set():
                break
            try:
                busy_call()
            except RuntimeError as e:  # refused because this thread's call came first: as good
                errors.append(e)

    thread = threading.Thread(target=background)
    thread.start()
    started.wait()
    while thread.is_alive() and len(errors) < 20:
        for call in short_calls:
            try:
                call()
            except RuntimeError as e:
                errors.append(e)
    enough.set()
    thread.join()
    return errors


def test_mcts_methods_refused_while_it_searches() -> None:
    """clear() and nodes() touch the trees: during a search in another thread they raise RuntimeError."""
    mcts = MCTS(seed=1)
    game = Ultimate()
    errors = _overlap(
        lambda: mcts.search(game, seconds=0.2),
        [mcts.clear, lambda: mcts._searcher(game).nodes(), lambda: mcts.search(game, iterations=10)],
    )
    assert errors and all("in another thread" in str(e) for e in errors)
    assert mcts.search(game, iterations=50).iterations == 50  # free again


@pytest.mark.parametrize("name", ["classic", "ultimate", "quantum"])
def test_vector_game_used_from_two_threads_refuses(name: str) -> None:
    env = VectorGame(name, 2048, seed=1)
    env.reset()
    actions = env.random_actions()

    errors = _overlap(
        lambda: env.step(env.random_actions()),
        [lambda: env.step(actions), env.reset, lambda: env.game(0), env.random_actions],
    )
    assert errors and all("in another thread" in str(e) for e in errors)
    step = env.step(env.random_actions())  # free again, and consistent
    assert step.action_masks.any(axis=1).all()
    for i in range(0, 2048, 97):
        game = env.game(i)
        assert np.array_equal(game.action_mask(), step.action_masks[i])


# ---------------------------------------------------------------------------
# (h) Ctrl-C (SIGINT) during every long call
# ---------------------------------------------------------------------------
LONG_CALLS: dict[str, Callable[[], Any]] = {
    "perft classic": lambda: noughts.perft(Classic(5, 5), 20),
    "perft ultimate": lambda: noughts.perft(Ultimate(), 12),
    "perft quantum": lambda: noughts.perft(Quantum(), 12),
    "playouts classic": lambda: noughts.random_playouts(Classic(8, 8), 10**15),
    "playouts ultimate": lambda: noughts.random_playouts(Ultimate(), 10**15),
    "playouts quantum": lambda: noughts.random_playouts(Quantum(), 10**15),
    "solve classic": lambda: noughts.solve(Classic(8, 8, 5)),
    "solve ultimate": lambda: noughts.solve(Ultimate()),
    "solve classic, two threads": lambda: noughts.solve(Classic(8, 8, 5), threads=2),
    "solve classic, proof-number search": lambda: noughts.solve(Classic(8, 8, 5), method="pns"),
    "mcts classic": lambda: MCTS(seed=1).search(Classic(8, 8), seconds=600),
    "mcts ultimate": lambda: MCTS(seed=1, threads=2).search(Ultimate(), seconds=600),
    "mcts quantum": lambda: MCTS(seed=1).search(Quantum(), seconds=600),
}


def _interrupted(call: Callable[[], Any]) -> None:
    """Sends SIGINT to this process while `call` runs in the main thread; the call must raise KeyboardInterrupt."""
    import os
    import signal

    timer = threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            call()
    finally:
        timer.cancel()
        timer.join()


@pytest.mark.parametrize("name", list(LONG_CALLS))
def test_ctrl_c_stops_every_long_call(name: str) -> None:
    _interrupted(LONG_CALLS[name])
    assert noughts.perft(Classic(), 2) == 72  # the extension goes on working


class SlowEvent:
    """An is_set() that takes a while: Ctrl-C arrives while it runs (in Python, in the polling loop)."""

    def __init__(self) -> None:
        self.calls = 0

    def is_set(self) -> bool:
        self.calls += 1
        time.sleep(0.05)
        return False


class BrokenEvent:
    def is_set(self) -> bool:
        raise ZeroDivisionError("is_set failed")


def test_ctrl_c_during_a_slow_stop_check_stops_the_solver() -> None:
    stop = SlowEvent()
    _interrupted(lambda: noughts.solve(Classic(8, 8, 5), stop=stop))
    assert stop.calls > 0


def test_an_exception_from_the_stop_check_propagates() -> None:
    with pytest.raises(ZeroDivisionError, match="is_set failed"):
        noughts.solve(Classic(8, 8, 5), stop=BrokenEvent())
    # The search was stopped and waited for: the solver runs again at once.
    assert noughts.solve(Classic(3, 3)).value == 0


# ---------------------------------------------------------------------------
# (i) The worker threads that run long calls are kept between calls
# ---------------------------------------------------------------------------
def _native_threads() -> int:
    import os

    return len(os.listdir("/proc/self/task"))


@pytest.mark.skipif(not __import__("os").path.isdir("/proc/self/task"), reason="counts threads through Linux's /proc")
def test_many_short_calls_reuse_the_same_workers() -> None:
    g = Classic(4, 4, 3)
    noughts.solve(g)
    before = _native_threads()
    for _ in range(300):
        noughts.solve(g)
        noughts.random_playouts(g, 3)
        MCTS(seed=0).search(g, iterations=20)
    in_threads([lambda: noughts.solve(g) for _ in range(THREADS)])
    # One worker per call running at once, give or take one finishing as the
    # next call starts: not one per call.
    assert _native_threads() - before <= THREADS + 2


@pytest.mark.skipif(not hasattr(__import__("os"), "fork"), reason="fork() is POSIX")
def test_a_forked_child_runs_long_calls() -> None:
    """A child made by fork() (multiprocessing's default on Linux) has none of the parent's
    worker threads: its long calls start workers of their own instead of waiting on the parent's."""
    import multiprocessing

    noughts.solve(Classic(3, 3))  # the parent has workers waiting
    with multiprocessing.get_context("fork").Pool(2) as pool:
        # A child waiting on the parent's workers would wait for ever: fail instead.
        values = pool.map_async(_solve_value, [(3, 3, 3), (4, 4, 3), (3, 3, 3)], chunksize=1).get(timeout=120)
    assert values == [noughts.solve(Classic(*a)).value for a in [(3, 3, 3), (4, 4, 3), (3, 3, 3)]]


def _solve_value(args: tuple[int, int, int]) -> int:
    return noughts.solve(Classic(*args)).value
