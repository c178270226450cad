"""Connect Four (7 columns x 6 rows, gravity, k=4) solved by noughts and by a specialised peer,
side by side on the same positions, alternately, in one run.

The peer is Pascal Pons' Connect Four solver, built from its public source outside this
repository (it is AGPL: nothing of it is copied here) with a small driver that resets
its table before each position and prints "score nodes wall_microseconds
cpu_microseconds" for each line of moves ("w " before the moves asks for its weak
solve). Build it once:

    git clone https://github.com/PascalPons/connect4 /tmp/peers/pons && cd /tmp/peers/pons
    # driver.cpp: read a line, Position P; P.play(moves); solver.reset(); time solver.solve(P, weak);
    # print score, solver.getNodeCount(), the wall and the CPU (CLOCK_PROCESS_CPUTIME_ID) microseconds
    g++ -std=c++17 -O3 -DNDEBUG -o driver driver.cpp Solver.cpp

    python benchmarks/solve_connect4.py --peer /tmp/peers/pons/driver [--per-phase 20] [--weak] [--repeat 3]

Positions are made like the peer's public test sets: random games that are not over and
where the player to move cannot win at once, by the number of moves played: beginning
(8 to 14), middle (15-28) and end (more than 28); and the phase "empty", the empty board
alone (minutes for either solver: `--phases empty --weak`). Both solvers search without
an opening book unless --book is given: noughts then takes the book it ships (the peer's
driver still has none), which is what the phase "opening" (0 to 7 moves played, seconds
to minutes a position without a book) is for: `--phases opening --book`. Scores are compared in the peer's
units (positive: the mover wins, by more the sooner; 0: a draw); without --peer only
noughts' figures are printed.
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import time
from dataclasses import dataclass

import noughts

ROWS, COLS = 6, 7
# Moves played in each phase's positions. The beginning starts at 8: with fewer
# moves played a position is nearly the whole game (one move played is the empty
# board's solve, minutes for either solver); --beginning-from changes it.
PHASES = {"opening": (0, 7), "beginning": (8, 14), "middle": (15, 28), "end": (29, 40)}


def connect_four() -> noughts.Classic:
    return noughts.Classic(ROWS, COLS, 4, gravity=True)


def connect_four_after(moves: list[int]) -> noughts.Classic:
    """Connect Four after these moves (column ids from 0)."""
    g = connect_four()
    for m in moves:
        g.play(m)
    return g


def can_win_at_once(g: noughts.Classic) -> bool:
    for m in g.legal_actions():
        g.play(m)
        won = g.is_over() and g.winner is not None
        g.undo()
        if won:
            return True
    return False


def positions(phase: str, count: int, rng: random.Random) -> list[list[int]]:
    """`count` move lists (column ids from 0) of the phase's lengths, each not over and not winnable at once
    (the phase "empty": the empty board, once)."""
    if phase == "empty":
        return [[]]
    lo, hi = PHASES[phase] if phase in PHASES else map(int, phase.split("-"))
    out: list[list[int]] = []
    while len(out) < count:
        plies = rng.randint(lo, hi)
        g, moves = connect_four(), []
        while len(moves) < plies and not g.is_over():
            m = rng.choice(g.legal_actions())
            g.play(m)
            moves.append(m)
        if len(moves) == plies and not g.is_over() and not can_win_at_once(g):
            out.append(moves)
    return out


def peer_score(value: int, distance: int | None, played: int) -> int:
    """noughts' solution in the peer's units: (cells + 2 - moves played when the game is won) // 2,
    positive when the mover wins, negative when they lose, 0 for a draw."""
    if value == 0 or distance is None:
        return 0
    return value * ((ROWS * COLS + 2 - played - distance) // 2)


@dataclass
class Timing:
    seconds: float
    nodes: int
    score: int


class Peer:
    def __init__(self, path: str, cpu: bool) -> None:
        self.cpu = cpu
        self.proc = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def solve(self, moves: list[int], weak: bool) -> Timing:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(("w " if weak else "") + "".join(str(m + 1) for m in moves) + "\n")
        self.proc.stdin.flush()
        fields = self.proc.stdout.readline().split()
        if self.cpu and len(fields) < 4:
            raise SystemExit("--clock cpu needs a peer driver that prints its CPU microseconds too")
        return Timing(float(fields[3 if self.cpu else 2]) / 1e6, int(fields[1]), int(fields[0]))

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        self.proc.wait()


def ours(
    moves: list[int], weak: bool, tt_mb: float, clock: str, book: bool = False, full: bool = False, threads: int = 1
) -> Timing:
    g = connect_four_after(moves)
    # The peer tells the exact score (or the value), not every best move: noughts is asked the same
    # (unless `full`: noughts' default solve, every best move and the line of play too).
    started, called = time.process_time(), time.perf_counter()
    s = noughts.solve(g, weak=weak, tt_mb=tt_mb, all_best_moves=full, book=book, threads=threads)
    seconds = {"cpu": time.process_time() - started, "wall": s.seconds, "call": time.perf_counter() - called}[clock]
    return Timing(seconds, s.nodes, s.value if weak else peer_score(s.value, s.distance, len(moves)))


def fastest(best: Timing | None, new: Timing) -> Timing:
    """The faster of two solves of one position (the same search: a slower one met a busier machine)."""
    return new if best is None or new.seconds < best.seconds else best


def summary(times: list[float]) -> str:
    return (
        f"median {statistics.median(times) * 1000:9.2f} ms  mean {statistics.mean(times) * 1000:9.2f} ms"
        f"  max {max(times) * 1000:9.2f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--peer", help="the peer's driver (see above); without it only noughts is timed")
    parser.add_argument("--per-phase", type=int, default=20, help="positions per phase (default 20)")
    parser.add_argument(
        "--phases",
        default="end,middle,beginning",
        help="comma-separated phases: opening, beginning, middle, end, empty, or a range of moves played: 4-5",
    )
    parser.add_argument("--book", action="store_true", help="noughts uses the opening book it ships")
    parser.add_argument(
        "--full",
        action="store_true",
        help="noughts' default solve: every best move too, not only the exact score the peer gives",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--weak", action="store_true", help="win/draw/loss only, for both solvers")
    parser.add_argument(
        "--tt-mb", type=float, default=64, help="noughts' table (the peer's: 2^24 entries of 5 bytes, 80 MB)"
    )
    parser.add_argument(
        "--threads",
        type=int,
        default=1,
        help="noughts' threads (1; the peer has one): with 2 or more, time it with --clock wall, not the CPU",
    )
    parser.add_argument("--verbose", action="store_true", help="a line per position")
    parser.add_argument(
        "--repeat", type=int, default=1, help="solve each position this many times, each solver's fastest counts (1)"
    )
    parser.add_argument(
        "--clock",
        choices=["cpu", "wall", "call"],
        default="cpu",
        help="CPU time of each solve (steadier on a shared machine; the peer's driver must print it), wall time"
        " inside the solver, or wall time of noughts' whole call from Python (the peer's: inside its driver)",
    )
    parser.add_argument("--beginning-from", type=int, default=PHASES["beginning"][0], help="fewest moves played (8)")
    args = parser.parse_args()
    PHASES["beginning"] = (args.beginning_from, PHASES["beginning"][1])
    peer = Peer(args.peer, args.clock == "cpu") if args.peer else None
    rng = random.Random(args.seed)
    kind = "weak (win/draw/loss)" if args.weak else "strong (exact score)"
    book = (", noughts with its opening book" if args.book else "") + (", noughts' default solve" if args.full else "")
    book += f", noughts on {args.threads} threads" if args.threads > 1 else ""
    print(
        f"Connect Four 7x6, {kind} solves{book}, {args.per_phase} positions a phase, seed {args.seed}, {args.clock} time"
    )
    try:
        for phase in args.phases.split(","):
            mine, theirs, mismatches, nodes, peer_nodes = [], [], 0, 0, 0
            for i, moves in enumerate(positions(phase, args.per_phase, rng)):
                a = t = None
                for r in range(args.repeat):
                    # Alternate who goes first, so that neither always meets a warmer machine.
                    for peer_turn in (1, 0) if (i + r) % 2 else (0, 1):
                        if not peer_turn:
                            a = fastest(
                                a, ours(moves, args.weak, args.tt_mb, args.clock, args.book, args.full, args.threads)
                            )
                        elif peer is not None:
                            t = fastest(t, peer.solve(moves, args.weak))
                assert a is not None
                mine.append(a.seconds)
                nodes += a.nodes
                if t is not None:
                    theirs.append(t.seconds)
                    peer_nodes += t.nodes
                    peer_value = (t.score > 0) - (t.score < 0) if args.weak else t.score
                    mismatches += peer_value != a.score
                if args.verbose:
                    line = "".join(str(m + 1) for m in moves)
                    peer_part = "" if t is None else f"  peer {t.score:+3d} {t.seconds * 1000:9.2f} ms {t.nodes:>11,}"
                    print(
                        f"  {line:<42} ours {a.score:+3d} {a.seconds * 1000:9.2f} ms {a.nodes:>11,}{peer_part}",
                        flush=True,
                    )
            print(f"{phase:<10} noughts {summary(mine)}  ({nodes / len(mine):,.0f} nodes a position)")
            if theirs:
                ratio_median = statistics.median(mine) / max(statistics.median(theirs), 1e-9)
                ratio_mean = statistics.mean(mine) / max(statistics.mean(theirs), 1e-9)
                print(
                    f"{'':<10} peer    {summary(theirs)}  ({peer_nodes / len(theirs):,.0f} nodes a position)"
                    f"  noughts/peer: median {ratio_median:.2f}x, mean {ratio_mean:.2f}x; mismatches {mismatches}"
                )
    finally:
        if peer is not None:
            peer.close()


if __name__ == "__main__":
    main()
