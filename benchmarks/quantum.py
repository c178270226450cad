"""Quantum speed: perft nodes/s, random playouts/s and the exact solve from the empty board, on one core.

No peer library plays these rules (docs/rules.md section 3), so only noughts'
own figures are printed. Run on demand: python benchmarks/quantum.py
"""

from __future__ import annotations

import time

import noughts
from _peers import rate


def main() -> None:
    print(f"noughts {noughts.__version__}: Quantum")
    game = noughts.Quantum()

    for depth in (4, 5):
        nodes = noughts.perft(game, depth)
        ours = rate(lambda: noughts.perft(game, depth))
        print(f"perft(start, {depth}) = {nodes:,}: {ours:,.0f} nodes/s")

    counts = noughts.random_playouts(game, 1_000_000, seed=1)
    ours = rate(lambda: sum(noughts.random_playouts(game, 200_000, seed=1)), 2.0)
    print(f"random playouts from the start: {ours:,.0f}/s")
    n = sum(counts)
    print(
        f"  results of {n:,} playouts: X {counts.x_wins / n:.1%}, O {counts.o_wins / n:.1%}, draw {counts.draws / n:.1%}"
    )

    # From a position with a pending collapse and two classical marks, the
    # collapse-heavy part of a game.
    mid = noughts.Quantum.from_string("quantum X1:a1 O2:b2 x3:a2-c3 o4:c3-b3 x5:a2-b3")
    ours = rate(lambda: sum(noughts.random_playouts(mid, 200_000, seed=2)), 1.0)
    print(f"random playouts from {mid.to_string()!r}: {ours:,.0f}/s")

    # The solve from the start: value, distance, every best first move and the
    # principal variation (the best of three runs, each with a fresh table).
    runs = []
    for _ in range(3):
        started = time.perf_counter()
        s = noughts.solve(game)
        runs.append((time.perf_counter() - started, s))
    seconds, s = min(runs, key=lambda r: r[0])
    best = " ".join(m.name for m in s.best_moves)
    print(
        f"solve(start): {({1: 'X wins', 0: 'draw', -1: 'O wins'})[s.value_for(noughts.Player.X)]}"
        f"{'' if s.distance is None else f' in {s.distance} plies'}, "
        f"best first moves {best}: {s.nodes:,} nodes, {seconds:.3f} s"
    )


if __name__ == "__main__":
    main()
