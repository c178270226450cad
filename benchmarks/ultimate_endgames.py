"""Ultimate endgames: how many random positions each of the solver's methods proves in a time limit.

Random games (uniform random moves, seeded) are played to a number of moves
and, if not over, solved with ``noughts.solve`` by alpha-beta (the default,
with the distance) and by proof-number search (``method="pns"``, value and
best moves), each with the same limit and a fresh table; then a table of
what proof-number search proves from fewer moves played, with a longer limit.
Run on demand (a few minutes with the defaults):

    python benchmarks/ultimate_endgames.py [--samples 10] [--seconds 10] [--deep-seconds 60] [--seed 0] [--threads 2]

``--threads N`` solves each position with N threads (both methods); ``--pns-only``
leaves alpha-beta out (its columns then read "-").
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


class Attempt:
    """One solve within the limit: the solution, or None; and whether the value was proved in time
    (a solve stopped after it, in the best-move or distance phase, still proved it)."""

    def __init__(self, g: noughts.Ultimate, method: str, seconds: float, threads: int = 1) -> None:
        self.solution: noughts.Solution | None = None
        try:
            self.solution = noughts.solve(g, method=method, max_seconds=seconds, tt_mb=256, threads=threads)
            self.value: int | None = self.solution.value
            self.seconds = self.solution.seconds
        except noughts.SearchTimeout as e:
            proven = e.proven
            self.value = proven.lower if proven is not None and proven.lower == proven.upper else None
            self.seconds = e.seconds


def summary(results: list[Attempt]) -> str:
    if not results:
        return "- | -"
    solved = [a.seconds for a in results if a.solution is not None]
    valued = sum(a.value is not None for a in results)
    median = f" (median {statistics.median(solved):.2f} s)" if solved else ""
    return f"{valued}/{len(results)} | {len(solved)}/{len(results)}{median}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=10, help="positions per number of moves played")
    parser.add_argument("--seconds", type=float, default=10, help="the limit of each solve in the comparison")
    parser.add_argument("--played", type=int, nargs="*", default=[45, 40, 35], help="moves played")
    parser.add_argument("--deep-played", type=int, default=30, help="moves played for the proof-number table")
    parser.add_argument("--deep-samples", type=int, default=5, help="positions in the proof-number table")
    parser.add_argument("--deep-seconds", type=float, default=60, help="the limit of each solve in that table")
    parser.add_argument(
        "--seed", type=int, default=0, help="another set of positions (the games of N moves use seed N + 1000 * this)"
    )
    parser.add_argument("--threads", type=int, default=1, help="threads of each solve")
    parser.add_argument("--pns-only", action="store_true", help="leave alpha-beta out")
    args = parser.parse_args()

    threads = f" on {args.threads} threads" if args.threads > 1 else ""
    print(f"noughts {noughts.__version__}: random Ultimate positions, solved within {args.seconds:g} s{threads}")
    print("value: the value proved in time; solved: the whole answer (alpha-beta: value, distance, best moves and")
    print("a fastest line; proof-number: value, best moves and a line that keeps the value)")
    print()
    print("| moves played | alpha-beta value | alpha-beta solved | proof-number value | proof-number solved | values |")
    print("|---|---|---|---|---|---|")
    for played in args.played:
        rng = random.Random(played + 1000 * args.seed)
        positions = [random_position(rng, played) for _ in range(args.samples)]
        ab = [] if args.pns_only else [Attempt(g, "alphabeta", args.seconds, args.threads) for g in positions]
        pn = [Attempt(g, "pns", args.seconds, args.threads) for g in positions]
        for a, b in zip(ab, pn):
            if a.value is not None and b.value is not None:
                assert a.value == b.value, "the methods disagree"
            if a.solution is not None and b.solution is not None:
                assert a.solution.best_moves == b.solution.best_moves, "the methods disagree"
        # X's view: X wins, = a draw, O wins, ? not proved by either method.
        values = []
        for g, a, b in zip(positions, ab or [None] * len(pn), pn):
            v = a.value if a is not None and a.value is not None else b.value
            values.append("?" if v is None else {1: "X", 0: "=", -1: "O"}[v if g.to_move == noughts.Player.X else -v])
        print(f"| {played} | {summary(ab)} | {summary(pn)} | {' '.join(values)} |", flush=True)

    if args.deep_samples:
        print()
        print(f"proof-number search from {args.deep_played} moves played, within {args.deep_seconds:g} s")
        print()
        print("| position | value | best moves | nodes | time |")
        print("|---|---|---|---|---|")
        rng = random.Random(args.deep_played + 1000 * args.seed)
        for _ in range(args.deep_samples):
            g = random_position(rng, args.deep_played)
            a = Attempt(g, "pns", args.deep_seconds, args.threads)
            if a.solution is None:
                value = "not proved" if a.value is None else f"{['loss', 'draw', 'win'][a.value + 1]} for the mover"
                print(f"| `{g.to_string()}` | {value} | not proved | | > {args.deep_seconds:g} s |", flush=True)
                continue
            s = a.solution
            best = " ".join(m.name for m in s.best_moves)
            print(f"| `{g.to_string()}` | {s.result} | {best} | {s.nodes:,} | {s.seconds:.2f} s |", flush=True)


if __name__ == "__main__":
    main()
