"""Ultimate speed: perft to depth 8 (checking the published counts) and random playouts/s, against OpenSpiel.

Run on demand (takes about 15 s): python benchmarks/ultimate.py
Everything runs in one thread and is timed in CPU time of this process
(time.process_time), so a busy shared machine slows the figures little; the
ratio to OpenSpiel is measured in the same run either way.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import noughts
from _peers import pyspiel, rate, ratio

# docs/rules.md "Counting moves": the published counts from the initial position.
PERFT = [1, 81, 720, 6_336, 55_080, 473_256, 4_020_960, 33_782_544, 281_067_408]


def cpu_rate(work: Callable[[], int], min_seconds: float) -> float:
    """Units of work per CPU second (the machine is shared: wall time is noisier)."""
    return rate(work, min_seconds, time.process_time)


def openspiel_simulations_per_second(seconds: float) -> float | None:
    """OpenSpiel's fastest C++ rollout path: MCTSBot with a one-rollout RandomRolloutEvaluator.

    Each simulation walks the tree and then plays one uniformly random game
    to the end in C++; for Ultimate the rollout is almost all of the work.
    """
    if pyspiel is None:
        return None
    game = pyspiel.load_game("ultimate_tic_tac_toe")
    sims = 20_000

    def work() -> int:
        bot = pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, 1), 2.0, sims, 1000, False, 1, False)
        bot.step(game.new_initial_state())
        return sims

    return cpu_rate(work, seconds)


def main() -> None:
    print(f"noughts {noughts.__version__}: Ultimate")
    game = noughts.Ultimate()

    print("perft from the initial position (C++, bulk-counted at the last ply, one thread, CPU seconds)")
    print(f"{'depth':>5} {'nodes':>14} {'seconds':>9} {'nodes/s':>15}")
    for depth in range(1, 9):
        start = time.process_time()
        nodes = noughts.perft(game, depth)
        seconds = time.process_time() - start
        status = "ok" if nodes == PERFT[depth] else f"WRONG, expected {PERFT[depth]:,}"
        speed = f"{nodes / seconds:,.0f}" if seconds > 0 else "-"
        print(f"{depth:>5} {nodes:>14,} {seconds:>9.3f} {speed:>15}  {status}")
        if nodes != PERFT[depth]:
            raise SystemExit(f"perft({depth}) = {nodes:,}, expected {PERFT[depth]:,}")

    ours = cpu_rate(lambda: sum(noughts.random_playouts(game, 500_000, seed=1)), 2.0)
    print(f"random playouts from the initial position: {ours:,.0f}/s")
    theirs = openspiel_simulations_per_second(2.0)
    if theirs:
        print(
            f"  OpenSpiel (pyspiel {getattr(pyspiel, '__version__', '?')}): C++ MCTSBot + RandomRolloutEvaluator(1), "
            f"20,000 simulations a search: {theirs:,.0f} simulations/s (each one random rollout to the end)"
        )
    print(f"  ratio: {ratio(ours, theirs)}")


if __name__ == "__main__":
    main()
