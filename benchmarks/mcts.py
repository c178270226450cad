"""MCTS speed: iterations per second from the initial position, on one core, against OpenSpiel.

Ours: noughts.MCTS(threads=1, reuse=False) searching N iterations from the
start, timed around search() from Python. OpenSpiel: its C++ MCTSBot with
RandomRolloutEvaluator(1, seed) and max_simulations=N (solve off), timed
around bot.step(). The same N for both, and the two are measured in
alternating rounds of the same run so that a noisy machine slows both alike;
the medians of the rounds are printed, with their ratio. Rates are per
second of wall-clock time and per second of the process's CPU time: on a
shared machine the second is the steadier measure of one core's work.

Run on demand: python benchmarks/mcts.py [--iterations N] [--rounds R]
"""

from __future__ import annotations

import argparse
import statistics
import time

import noughts
from _peers import pyspiel, ratio

GAMES = [
    # (label, our game factory, OpenSpiel game name)
    ("Ultimate", noughts.Ultimate, "ultimate_tic_tac_toe"),
    ("Classic 3x3", noughts.Classic, "tic_tac_toe"),
]


def ours(make, iterations: int, seconds: float) -> tuple[float, float]:
    """Our iterations per (wall, CPU) second: fresh searches of `iterations` from the start for about `seconds`."""
    mcts = noughts.MCTS(seed=1, reuse=False)
    game = make()
    mcts.search(game, iterations=iterations)  # warm the node pool
    done, wall, cpu = 0, time.perf_counter(), time.process_time()
    while True:
        done += mcts.search(game, iterations=iterations).iterations
        elapsed = time.perf_counter() - wall
        if elapsed >= seconds:
            return done / elapsed, done / (time.process_time() - cpu)


def openspiel(name: str, iterations: int, seconds: float, seed: int) -> tuple[float, float] | None:
    """OpenSpiel's simulations per (wall, CPU) second: MCTSBot.step from the start, for about `seconds`."""
    if pyspiel is None:
        return None
    game = pyspiel.load_game(name)
    done, wall, cpu = 0, 0.0, 0.0
    while wall < seconds or done == 0:
        bot = pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, seed), 2.0, iterations, 1000, False, seed, False)
        state = game.new_initial_state()
        w, c = time.perf_counter(), time.process_time()
        bot.step(state)
        wall += time.perf_counter() - w
        cpu += time.process_time() - c
        done += iterations
        seed += 1
    return done / wall, done / cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=20_000, help="iterations (simulations) per search")
    parser.add_argument("--rounds", type=int, default=5, help="alternating measurement rounds")
    parser.add_argument("--seconds", type=float, default=0.5, help="time per measurement, each side, each round")
    args = parser.parse_args()
    print(
        f"noughts {noughts.__version__}: MCTS iterations/s from the initial position, one thread, "
        f"{args.iterations:,} iterations per search, median of {args.rounds} rounds"
    )
    for label, make, spiel_name in GAMES:
        mine, theirs = [], []
        for r in range(args.rounds):
            mine.append(ours(make, args.iterations, args.seconds))
            t = openspiel(spiel_name, args.iterations, args.seconds, seed=r)
            if t is not None:
                theirs.append(t)
        print(f"{label + ':':<41}per wall second   per CPU second")
        m = [statistics.median(x[i] for x in mine) for i in (0, 1)]
        print(f"  noughts MCTS:                          {m[0]:>14,.0f} {m[1]:>16,.0f}")
        t = [statistics.median(x[i] for x in theirs) for i in (0, 1)] if theirs else [None, None]
        if theirs:
            print(f"  OpenSpiel MCTSBot + RandomRollout(1):  {t[0]:>14,.0f} {t[1]:>16,.0f}")
        print(f"  ratio:                                 {ratio(m[0], t[0]):>14} {ratio(m[1], t[1]):>16}")


if __name__ == "__main__":
    main()
