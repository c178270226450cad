"""Ultimate endgames: how many random positions each of the solver's methods proves in a time limit.

Random games (uniform random moves, seeded) are played to a number of moves
and, if not over, solved with ``noughts.solve`` by alpha-beta (the default,
with the distance) and by proof-number search (``method="pns"``, value and
best moves), each with the same limit and a fresh table; then a table of
what proof-number search proves from fewer moves played, with a longer limit.
Run on demand (a few minutes with the defaults):

    python benchmarks/ultimate_endgames.py [--samples 10] [--seconds 10] [--deep-seconds 60]
"""

from __future__ import annotations

import argparse
import random
import statistics

import noughts


def random_position(rng: random.Random, played: int) -> noughts.Ultimate:
    """A random game of `played` moves that is not over yet."""
    while True:
        g = noughts.Ultimate()
        while g.ply < played and not g.is_over():
            g.play(rng.choice(g.legal_actions()))
        if not g.is_over():
            return g


def attempt(g: noughts.Ultimate, method: str, seconds: float) -> noughts.Solution | None:
    try:
        return noughts.solve(g, method=method, max_seconds=seconds, tt_mb=256)
    except noughts.SearchTimeout:
        return None


def summary(results: list[noughts.Solution | None]) -> str:
    solved = [s for s in results if s is not None]
    if not solved:
        return f"{0}/{len(results)}"
    median = statistics.median(s.seconds for s in solved)
    return f"{len(solved)}/{len(results)} (median {median:.2f} s)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=10, help="positions per number of moves played")
    parser.add_argument("--seconds", type=float, default=10, help="the limit of each solve in the comparison")
    parser.add_argument("--played", type=int, nargs="*", default=[45, 40, 35], help="moves played")
    parser.add_argument("--deep-played", type=int, default=30, help="moves played for the proof-number table")
    parser.add_argument("--deep-samples", type=int, default=5, help="positions in the proof-number table")
    parser.add_argument("--deep-seconds", type=float, default=60, help="the limit of each solve in that table")
    args = parser.parse_args()

    print(f"noughts {noughts.__version__}: random Ultimate positions, solved within {args.seconds:g} s")
    print("| moves played | alpha-beta solved | proof-number solved | values (pns) |")
    print("|---|---|---|---|")
    for played in args.played:
        rng = random.Random(played)
        positions = [random_position(rng, played) for _ in range(args.samples)]
        ab = [attempt(g, "alphabeta", args.seconds) for g in positions]
        pn = [attempt(g, "pns", args.seconds) for g in positions]
        for a, b in zip(ab, pn):
            if a is not None and b is not None:
                assert (a.value, a.best_moves) == (b.value, b.best_moves), "the methods disagree"
        values = " ".join("?" if s is None else {1: "X", 0: "=", -1: "O"}[s.value_for(noughts.Player.X)] for s in pn)
        print(f"| {played} | {summary(ab)} | {summary(pn)} | {values} |", flush=True)

    if args.deep_samples:
        print()
        print(f"proof-number search from {args.deep_played} moves played, within {args.deep_seconds:g} s")
        print("| position | value | best moves | nodes | time |")
        print("|---|---|---|---|---|")
        rng = random.Random(args.deep_played)
        for _ in range(args.deep_samples):
            g = random_position(rng, args.deep_played)
            s = attempt(g, "pns", args.deep_seconds)
            if s is None:
                print(f"| `{g.to_string()}` | not proved | | | > {args.deep_seconds:g} s |", flush=True)
                continue
            best = " ".join(m.name for m in s.best_moves)
            print(f"| `{g.to_string()}` | {s.result} | {best} | {s.nodes:,} | {s.seconds:.2f} s |", flush=True)


if __name__ == "__main__":
    main()
