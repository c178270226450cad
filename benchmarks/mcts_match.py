"""MCTS iterations a move in match conditions: whole Ultimate games, the tree reused from move to move.

A 20,000-iteration search from the empty board (benchmarks/mcts.py) measures a small,
fresh tree; in a match the tree is kept between moves and grows to millions of nodes.
This plays self-play games at a time budget a move (100 ms and 1 s by default) and
prints, for each budget, the iterations a move over the opening (plies 0-19), the middle
(20-39) and the rest, per second of search, and as a ratio to a fresh tree's rate
measured in the same run on the same positions (reuse off).

  python benchmarks/mcts_match.py
  python benchmarks/mcts_match.py --budgets 0.1 --games 4
"""

from __future__ import annotations

import argparse
import statistics

import noughts


def play(seconds: float, seed: int, reuse: bool, moves: list[int] | None) -> tuple[list[int], list[tuple[int, float]]]:
    """One game (or the given moves replayed): the moves, and (iterations, seconds) of each search."""
    mcts = noughts.MCTS(seed=seed, reuse=reuse)
    game = noughts.Ultimate()
    played, stats = [], []
    while not game.is_over() and (moves is None or len(played) < len(moves)):
        r = mcts.search(game, seconds=seconds)
        stats.append((r.iterations, r.seconds))
        move = r.best_move.id if moves is None else moves[len(played)]
        game.play(move)
        played.append(move)
    return played, stats


def phase(games: list[list[tuple[int, float]]], lo: int, hi: int) -> tuple[float, float]:
    part = [x for stats in games for x in stats[lo:hi]]
    if not part:
        return float("nan"), float("nan")
    return statistics.median(i for i, _ in part), sum(i for i, _ in part) / sum(s for _, s in part)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--budgets", type=float, nargs="+", default=[0.1, 1.0], help="seconds a move")
    parser.add_argument("--games", type=int, default=2)
    args = parser.parse_args()
    for seconds in args.budgets:
        reused: list[list[tuple[int, float]]] = []
        fresh: list[list[tuple[int, float]]] = []
        for g in range(args.games):
            moves, stats = play(seconds, g, True, None)
            reused.append(stats)
            _, again = play(seconds, g, False, moves)  # the same positions, each from a fresh tree
            fresh.append(again)
        print(f"{1000 * seconds:g} ms a move, {args.games} games:")
        for name, lo, hi in (("plies 0-19", 0, 20), ("plies 20-39", 20, 40), ("plies 40+", 40, 200)):
            r_med, r_rate = phase(reused, lo, hi)
            f_med, f_rate = phase(fresh, lo, hi)
            print(
                f"  {name}: reused tree {r_med:,.0f} iterations a move ({r_rate / 1e6:.2f} M/s), "
                f"fresh tree {f_med:,.0f} ({f_rate / 1e6:.2f} M/s): ratio {r_rate / f_rate:.2f}"
            )


if __name__ == "__main__":
    main()
