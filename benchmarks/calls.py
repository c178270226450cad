"""The cost of a short call from Python: what a script, a training loop or a game server pays per
call when the work itself takes microseconds.

- a solve of a Connect Four end position (more than 28 moves played, as
  benchmarks/solve_connect4.py makes them): the call's wall time against the solve's own
  time inside C++ (`Solution.seconds`), which is what a peer timed inside its own process
  reports;
- an MCTS search of 100 iterations from the Ultimate start (`search`, with every root
  move's statistics, and `best_move`), against OpenSpiel's C++ `MCTSBot` asked for a move
  with 100 simulations (random rollouts), each through its Python API, the same run;
- `random_playouts` of one game of Ultimate.

Each figure is the median over repeated rounds (a round: every position once).
Run on demand: python benchmarks/calls.py [--rounds 200]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

import noughts
from _peers import pyspiel
from solve_connect4 import connect_four_after, positions


def median_us(call: Callable[[], object], rounds: int) -> float:
    call()
    times = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        call()
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    games = [connect_four_after(moves) for moves in positions("end", 40, random.Random(args.seed))]
    call, inside = [], []
    for _ in range(max(1, args.rounds // 20)):
        for g in games:
            t0 = time.perf_counter()
            s = noughts.solve(g, all_best_moves=False)
            call.append(time.perf_counter() - t0)
            inside.append(s.seconds)
    c, i = statistics.median(call) * 1e6, statistics.median(inside) * 1e6
    print(
        f"solve, Connect Four end position (exact score): call {c:7.1f} us, inside C++ {i:6.1f} us, call/inside {c / i:4.1f}x"
    )

    mcts = noughts.MCTS(seed=0, reuse=False)
    start = noughts.Ultimate()
    ours = median_us(lambda: mcts.search(start, iterations=100), args.rounds)
    move = median_us(lambda: mcts.best_move(start, iterations=100), args.rounds)
    if pyspiel is not None:
        game = pyspiel.load_game("ultimate_tic_tac_toe")
        bot = pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, 0), 2.0, 100, 1000, False, 0, False)
        state = game.new_initial_state()
        theirs = median_us(lambda: bot.step(state), args.rounds)
        peer = f"OpenSpiel MCTSBot {theirs:7.1f} us, ratios {ours / theirs:4.2f} and {move / theirs:4.2f}"
    else:
        peer = "pyspiel not installed: no peer"
    print(f"MCTS, Ultimate start, 100 iterations: search {ours:7.1f} us, best_move {move:7.1f} us; {peer}")

    playout = median_us(lambda: noughts.random_playouts(start, 1), args.rounds)
    print(f"random_playouts(Ultimate(), 1): {playout:6.1f} us")


if __name__ == "__main__":
    main()
