"""Each position of a game, solved in turn: one noughts.Solver (its table kept from one position to
the next) against a fresh noughts.solve for each, in one run.

Games: random openings (Connect Four after 8 random moves, 5x5 four in a row after 4, Ultimate
after 46), then played out to the end by the solver's best moves, as an engine playing
the game (or an analysis of a game, move by move) solves them. Each game's positions are solved
both ways, alternately, without a book; the answers are compared, and the total CPU time and
nodes of each way are printed with their ratio.

Run on demand (about a minute): python benchmarks/solve_games.py [--games 4] [--seed 5]
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from typing import Any

import noughts

BOARDS: dict[str, tuple[Callable[[], Any], int]] = {
    "Connect Four, from 8 moves played": (lambda: noughts.Classic(6, 7, 4, gravity=True), 8),
    "5x5 k=4, from 4 moves played": (lambda: noughts.Classic(5, 5, 4), 4),
    "Ultimate, from 46 moves played": (lambda: noughts.Ultimate(tiebreak=True), 46),
}


def played_out(make: Callable[[], Any], opening: int, rng: random.Random) -> list[Any]:
    """The positions of one game: a random opening, then best play to the end."""
    while True:
        g = make()
        for _ in range(opening):
            if g.is_over():
                break
            g.play(rng.choice(g.legal_actions()))
        if g.is_over():
            continue
        positions = []
        while not g.is_over():
            positions.append(g.copy())
            g.play(noughts.solve(g, weak=True, book=False).best_moves[0])
        return positions


def solved(game: list[Any], kept: bool) -> tuple[float, int, list[tuple[int, int | None]]]:
    solver = noughts.Solver() if kept else None
    started, nodes, answers = time.process_time(), 0, []
    for p in game:
        s = solver.solve(p, book=False) if solver else noughts.solve(p, book=False)
        nodes += s.nodes
        answers.append((s.value, s.distance))
    return time.process_time() - started, nodes, answers


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4, help="games a board")
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    print(f"{'games (positions)':44} {'one Solver: CPU / nodes':>26} {'fresh solves':>24} {'time x':>7} {'nodes x':>8}")
    for name, (make, opening) in BOARDS.items():
        games = [played_out(make, opening, rng) for _ in range(args.games)]
        totals = {True: [0.0, 0], False: [0.0, 0]}
        for i, game in enumerate(games):
            results = {}
            for kept in (True, False) if i % 2 == 0 else (False, True):
                results[kept] = solved(game, kept)
                totals[kept][0] += results[kept][0]
                totals[kept][1] += results[kept][1]
            if results[True][2] != results[False][2]:
                raise SystemExit(f"different answers on a game of {name}")
        (tk, nk), (tf, nf) = totals[True], totals[False]
        label = f"{name} ({args.games} games, {sum(map(len, games))})"
        print(f"{label:44} {tk:>10.2f} s / {nk:>11,} {tf:>10.2f} s / {nf:>11,} {tk / tf:>7.2f} {nk / nf:>8.2f}")


if __name__ == "__main__":
    main()
