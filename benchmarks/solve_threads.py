"""The solver on two threads against one: wall time of the same solves, alternately, in one run.

Positions: Connect Four beginning positions (8 to 14 moves played, made as
benchmarks/solve_connect4.py makes them) and 5x5 four-in-a-row positions with 23 empty
cells (plain), and 15 (misere + free choice, whose trees are far larger), solved by
alpha-beta; and Ultimate positions of random games 37 moves in, solved by proof-number
search (method="pns"). Each position is solved with threads=1 and with threads=2 (the same
table size), in alternating order, and the answers are compared. Printed per set: the median
and total wall time of each and the speed-up (one thread's time over two threads'), and the
nodes each searched.

A speed-up needs two idle cores: on a loaded machine the second thread only competes.
The speed-up is the ratio of the totals, with a 95% interval from resampling the positions
(bootstrap): which positions a set draws moves the total more than anything else. `--repeat N`
keeps each solve's fastest of N runs, which steadies single times on a shared machine.

Run on demand (a few minutes): python benchmarks/solve_threads.py [--count 20] [--threads 2]
[--sets connect4,5x5,misere,ultimate] [--repeat 1] [--seed 3]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import noughts
from solve_connect4 import connect_four_after, positions


def five_by_five(misere: bool, free: bool, played: int, count: int, rng: random.Random) -> list[noughts.Classic]:
    out: list[noughts.Classic] = []
    while len(out) < count:
        g = noughts.Classic(5, 5, 4, misere=misere, free_choice=free)
        for _ in range(played):
            g.play(rng.choice(g.legal_actions()))
            if g.is_over():
                break
        if not g.is_over():
            out.append(g)
    return out


def ultimate(played: int, count: int, rng: random.Random) -> list[noughts.Ultimate]:
    out: list[noughts.Ultimate] = []
    while len(out) < count:
        g = noughts.Ultimate()
        while g.ply < played and not g.is_over():
            g.play(rng.choice(g.legal_actions()))
        if not g.is_over():
            out.append(g)
    return out


def timed(
    g: noughts.Classic | noughts.Ultimate, threads: int, tt_mb: float, method: str
) -> tuple[float, noughts.Solution]:
    t0 = time.perf_counter()
    if method == "pns":
        s = noughts.solve(g, threads=threads, tt_mb=tt_mb, method="pns")
    else:
        s = noughts.solve(g, threads=threads, tt_mb=tt_mb, book=False)
    return time.perf_counter() - t0, s


def speed_up_interval(
    one: list[float], many: list[float], rng: random.Random, rounds: int = 2000
) -> tuple[float, float]:
    """A 95% bootstrap interval of sum(one) / sum(many), resampling the positions."""
    ratios = []
    n = len(one)
    for _ in range(rounds):
        picks = [rng.randrange(n) for _ in range(n)]
        ratios.append(sum(one[i] for i in picks) / sum(many[i] for i in picks))
    ratios.sort()
    return ratios[int(0.025 * rounds)], ratios[int(0.975 * rounds) - 1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=20, help="positions a set")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--tt-mb", type=float, default=64)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--sets", default="connect4,5x5,misere,ultimate", help="which sets, comma-separated")
    parser.add_argument("--repeat", type=int, default=1, help="each solve's fastest of this many runs")
    args = parser.parse_args()
    wanted = set(args.sets.split(","))
    rng = random.Random(args.seed)
    sets: dict[str, tuple[str, list[noughts.Classic] | list[noughts.Ultimate]]] = {}
    # Each set draws its positions from the same generator, whichever sets run.
    connect4 = [connect_four_after(moves) for moves in positions("beginning", args.count, rng)]
    plain = five_by_five(False, False, 2, args.count, rng)
    misere = five_by_five(True, True, 10, args.count, rng)
    endgames = ultimate(37, args.count, rng)
    if "connect4" in wanted:
        sets["Connect Four, 8-14 moves played"] = ("alphabeta", connect4)
    if "5x5" in wanted:
        sets["5x5 k=4, 23 empty cells"] = ("alphabeta", plain)
    if "misere" in wanted:
        sets["5x5 k=4 misere free choice, 15 empty"] = ("alphabeta", misere)
    if "ultimate" in wanted:
        sets["Ultimate, 37 moves played, pns"] = ("pns", endgames)
    print(
        f"{'positions':38} {'1 thread: median / total':>26} {f'{args.threads} threads':>20} {'speed-up':>9}"
        f" {'95% interval':>13} {'nodes x':>8}"
    )
    for name, (method, games) in sets.items():
        one: list[float] = []
        many: list[float] = []
        nodes = [0, 0]
        for i, g in enumerate(games):
            order = (1, args.threads) if i % 2 == 0 else (args.threads, 1)
            results: dict[int, tuple[float, noughts.Solution]] = {}
            for _ in range(max(args.repeat, 1)):
                for t in order:
                    r = timed(g, t, args.tt_mb, method)
                    if t not in results or r[0] < results[t][0]:
                        results[t] = r
            (t1, s1), (tn, sn) = results[1], results[args.threads]
            if (s1.value, s1.distance, s1.best_moves) != (sn.value, sn.distance, sn.best_moves):
                raise SystemExit(f"different answers with {args.threads} threads on {g.to_string()!r}")
            one.append(t1)
            many.append(tn)
            nodes[0] += s1.nodes
            nodes[1] += sn.nodes
        low, high = speed_up_interval(one, many, random.Random(args.seed))
        print(
            f"{name:38} {statistics.median(one):>12.3f} / {sum(one):>8.2f} s "
            f"{statistics.median(many):>9.3f} / {sum(many):>8.2f} s {sum(one) / sum(many):>8.2f}x "
            f"{f'{low:.2f}-{high:.2f}':>13} {nodes[1] / nodes[0]:>8.2f}"
        )


if __name__ == "__main__":
    main()
