"""Peers measured in the same run as noughts, so that ratios survive a noisy machine."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

try:
    import pyspiel
except ImportError:  # the benchmarks still print noughts' own figures
    pyspiel = None


def rate(work: Callable[[], int], min_seconds: float = 1.0, clock: Callable[[], float] = time.perf_counter) -> float:
    """Units of work per second: repeats `work` (which returns its unit count) for at least min_seconds.

    ``clock=time.process_time`` counts CPU seconds, steadier on a shared machine.
    """
    units, start = 0, clock()
    while True:
        units += work()
        elapsed = clock() - start
        if elapsed >= min_seconds:
            return units / elapsed


def openspiel_perft(state: Any, depth: int) -> int:
    """perft through OpenSpiel's Python API: what an OpenSpiel user would write."""
    if depth == 0 or state.is_terminal():
        return 1 if depth == 0 else 0
    actions = state.legal_actions()
    if depth == 1:
        return len(actions)
    total = 0
    for a in actions:
        child = state.clone()
        child.apply_action(a)
        total += openspiel_perft(child, depth - 1)
    return total


def openspiel_rollouts_per_second(
    game_name: str, params: dict[str, Any] | None = None, seconds: float = 1.0
) -> float | None:
    """OpenSpiel's fastest C++ rollout path: MCTSBot with a one-rollout RandomRolloutEvaluator.

    Each simulation walks the tree and runs one random rollout in C++, so this
    counts simulations per second (the figure OpenSpiel users see).
    """
    if pyspiel is None:
        return None
    game = pyspiel.load_game(game_name, params or {})
    sims = 20_000

    def work() -> int:
        evaluator = pyspiel.RandomRolloutEvaluator(1, 1)
        bot = pyspiel.MCTSBot(game, evaluator, 2.0, sims, 1000, False, 1, False)
        bot.step(game.new_initial_state())
        return sims

    return rate(work, seconds)


def ratio(ours: float, theirs: float | None) -> str:
    return "n/a (pyspiel not installed)" if not theirs else f"{ours / theirs:,.1f}x"
