"""Solver speed: times of the published solves, each printed with nodes and nodes/s, and
the weak solve's (win/draw/loss only) below it.

Run on demand: python benchmarks/solve.py [--slow] [--repeat N]
(--slow adds 5x5 k=4 and Quantum from the start, which take seconds to minutes.)
"""

from __future__ import annotations

import argparse

import noughts


def report(name: str, game: object, target: str, max_seconds: float | None = None, repeat: int = 1) -> None:
    # Best of `repeat` runs: the machine is shared and noisy, and a process's
    # first solves also pay for fresh memory (a new thread's heap); the first
    # run's time is printed too.
    runs = []
    for _ in range(repeat):
        try:
            runs.append(noughts.solve(game, max_seconds=max_seconds, tt_mb=256))
        except noughts.SearchTimeout as e:
            print(f"{name:<32} open: stopped after {e.nodes:,} nodes in {e.seconds:.1f} s (target {target})")
            return
    s = min(runs, key=lambda r: r.seconds)
    weak = min(
        (noughts.solve(game, max_seconds=max_seconds, tt_mb=256, weak=True) for _ in range(repeat)),
        key=lambda r: r.seconds,
    )
    rate = s.nodes / s.seconds if s.seconds else float("nan")
    best = " ".join(m.name for m in s.best_moves[:8]) + (" ..." if len(s.best_moves) > 8 else "")
    first = f" (first {runs[0].seconds * 1000:.1f})" if repeat > 1 else ""
    print(
        f"{name:<32} {s.result:<7} {s.seconds * 1000:>10.1f} ms{first} {s.nodes:>13,} nodes {rate / 1e6:>6.1f} M/s"
        f"  (target {target})  best: {best}"
    )
    print(f"{'':<32} weak    {weak.seconds * 1000:>10.1f} ms {weak.nodes:>13,} nodes (win/draw/loss only)")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--slow", action="store_true", help="also 5x5 k=4 and Quantum from the start")
    parser.add_argument("--max-seconds", type=float, default=600)
    parser.add_argument("--repeat", type=int, default=5, help="runs of each Classic case; the best is shown")
    args = parser.parse_args()
    n = args.repeat
    report("3x3", noughts.Classic(), "-", repeat=n)
    report("4x4 k=3", noughts.Classic(4, 4, 3), "-", repeat=n)
    report("4x4 k=4", noughts.Classic(4, 4, 4), "<= 5 ms", repeat=n)
    report("gravity 6 cols x 4 rows k=4", noughts.Classic(4, 6, 4, gravity=True), "-", repeat=n)
    if args.slow:
        report("5x5 k=4", noughts.Classic(5, 5, 4), "<= 5 s", args.max_seconds, repeat=n)
        if hasattr(noughts, "Quantum"):
            report("Quantum", noughts.Quantum(), "<= 10 s", args.max_seconds)


if __name__ == "__main__":
    main()
