"""Solves the Classic boards that outlast the results table's time limit, each by two routes,
and writes their section of docs/solver-results.md ("Long solves").

No published value exists for these boards, so each is solved twice, by searches that ask
different questions and fill their tables differently:

  1. the weak solve (`weak=True`): two null windows at the root, win/draw/loss only;
  2. the strong solve with every first move's value (`move_values=True`): each move of the
     root is proven a win, draw or loss on its own, and the value is the best of them; it
     also gives every best first move and the principal variation.

The script stops with an error when the two values differ. Each solve gets a fresh table.

    python benchmarks/solve_long.py [--boards fc,misere-fc] [--tt-mb 8192] [--threads 1]

The second route in steps that survive a stop: `--first-moves LOG` solves each first move's
position on its own (one for each set of first moves equal up to the board's symmetries, on
one table kept from one to the next), appends its value to LOG as soon as it is known, skips
those LOG already holds, and prints every first move's value and the value they give once
all are known. A run of hours can so be stopped and taken up again. A first move's position
that is too large for one run is split with `--split 2`: its value then comes from its replies'
positions, each solved and logged the same way (a winning reply settles it). The values proved so far
for 5x5 misere + free choice are kept in benchmarks/results/5x5-misere-fc-first-moves.log
(one line a position, fields parted by " | ": the board's name, the position's canonical
string, its value for the player who made its last move (the first player, for a first move's
position), then the solve's nodes, seconds and threads, and last the window the value is held
to when it was asked within one), so that a later run goes on from them. `--root-at-most` takes
a bound the start's value is proved not to pass (5x5 misere + free choice is a draw: the weak
solve, and the mirror strategy): each first move is then asked only whether it reaches it
(solve's `window`), and each position below only the question that decides that:

    python benchmarks/solve_long.py --boards misere-fc --threads 2 --tt-mb 12288 --root-at-most draw \
        --tables ~/noughts-tables --first-moves benchmarks/results/5x5-misere-fc-first-moves.log

`--tables DIR` keeps the solver's table in DIR (noughts.Solver.save), saved every half hour of
a solve and when the run is stopped (Ctrl-C or SIGTERM), and read back by the next run: a
position that outlasts one run goes on from where it stood. First moves that are one position
to the solver (symmetric images, and a move and its X/O swap: Game.solver_key) are asked once.

Each board takes minutes to hours on one core (the section gives the figures); the table should
hold a few GB (`--tt-mb`), so that it is not the limit.
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import signal
import time

import noughts
from solve_table import GRAVITY_HEADING, LONG_HEADING, replace_section

# key: (name in the table, Classic's arguments)
BOARDS: dict[str, tuple[str, dict[str, object]]] = {
    "fc": ("5x5 k=4 free_choice", dict(rows=5, cols=5, k=4, free_choice=True)),
    "misere-fc": ("5x5 k=4 misere, free_choice", dict(rows=5, cols=5, k=4, misere=True, free_choice=True)),
}
# Gravity boards the results table leaves open (or without every best first move): for
# --first-moves only, whose answers docs/solver-results.md's gravity section quotes.
GRAVITY_BOARDS: dict[str, tuple[str, dict[str, object]]] = {
    f"gravity-{cols}x{rows}-{key}": (
        f"{cols}x{rows} k=4 {name}, gravity",
        dict(rows=rows, cols=cols, k=4, gravity=True, free_choice=True, misere=key == "misere-fc"),
    )
    for cols, rows, key, name in [
        (7, 5, "fc", "free_choice"),
        (7, 5, "misere-fc", "misere, free_choice"),
        (6, 6, "misere-fc", "misere, free_choice"),
        (7, 6, "fc", "free_choice"),
        (7, 6, "misere-fc", "misere, free_choice"),
    ]
}
HEADER = [
    "| game | value | best first moves | principal variation | weak solve | strong solve, every first move's value |",
    "|---|---|---|---|---|---|",
]


def intro(tt_mb: int, threads: int) -> str:
    cores = "one core" if threads == 1 else f"{threads} threads"
    return (
        "Boards that the table above leaves open within its limit, solved without one by `python"
        f" benchmarks/solve_long.py` ({platform.machine()}, {cores}, a table of {tt_mb} MB, noughts"
        f" {noughts.__version__}). No published"
        " value exists for them, so each is solved by two routes that must agree: the weak solve"
        " (`weak=True`: can the mover win? can they avoid losing?) and the strong solve with every"
        " first move's value (`move_values=True`: each first move proven a win, draw or loss on its"
        " own, the value being the best of them), which also gives the best first moves and the"
        " principal variation."
    )


def progress_printer(name: str, route: str):
    started, last = time.monotonic(), [-60.0]

    def show(status: noughts.SolveStatus) -> None:
        now = time.monotonic() - started
        if now - last[0] >= 60:
            last[0] = now
            print(f"  {name}, {route}: {now:.0f} s, {status.nodes:,} nodes: {status}", flush=True)

    return show


def solve_board(name: str, options: dict[str, object], tt_mb: int, threads: int) -> str:
    def game() -> noughts.Classic:
        return noughts.Classic(**options)  # type: ignore[arg-type]

    weak = noughts.solve(game(), weak=True, tt_mb=tt_mb, threads=threads, progress=progress_printer(name, "weak"))
    print(f"  {name}, weak: {weak.result} ({weak.nodes:,} nodes, {weak.seconds:.0f} s)", flush=True)
    strong = noughts.solve(
        game(), move_values=True, tt_mb=tt_mb, threads=threads, progress=progress_printer(name, "strong")
    )
    print(f"  {name}, strong: {strong.result} ({strong.nodes:,} nodes, {strong.seconds:.0f} s)", flush=True)
    if strong.value != weak.value:
        raise SystemExit(f"{name}: the two routes disagree: weak {weak.result}, strong {strong.result}")
    dist = "" if strong.distance is None else f" in {strong.distance}"
    best = " ".join(m.name for m in strong.best_moves)
    pv = " ".join(m.name for m in strong.principal_variation)
    return (
        f"| {name} | {strong.result}{dist} | {best} | {pv} | {weak.result}: {weak.nodes:,} nodes, {weak.seconds:.0f} s"
        f" | {strong.nodes:,} nodes, {strong.seconds:.0f} s |"
    )


def move_classes(position: noughts.Classic) -> dict[str, list[noughts.Move]]:
    """The moves of `position`, grouped by the solver's key of the position they lead to (so the
    moves of one group have one value: symmetric images, and with free choice a move and its
    swap, b2=X and b2=O), each group keyed by the smallest string of its first move's position
    under the board's symmetries."""
    groups: dict[int, tuple[str, list[noughts.Move]]] = {}
    for move in position.legal_moves():
        child = position.copy()
        child.play(move)
        solver_key = child.solver_key()
        if solver_key not in groups:
            groups[solver_key] = (min(child.symmetric(s).to_string() for s in range(child.num_symmetries)), [])
        groups[solver_key][1].append(move)
    return dict(groups.values())


FULL = (-1, 1)


def held(value: int, window: tuple[int, int]) -> int:
    return max(window[0], min(window[1], value))


class KeptValues:
    """Positions' values, each solved on its own on one kept table and appended to a log as soon
    as it is known (the value for the player who made the position's last move, held to the
    window it was asked within: see solve's `window`), so that a stopped run goes on from what
    the log holds."""

    def __init__(
        self,
        name: str,
        tt_mb: int,
        threads: int,
        log: str,
        start_ply: int = 0,
        tables: str | None = None,
        save_every: float = 1800,
    ) -> None:
        self.name, self.threads, self.log, self.start_ply = name, threads, log, start_ply
        self.solver = noughts.Solver(tt_mb=tt_mb)
        # The solver's table, saved every save_every seconds of a solve and at a stop, and
        # taken up again by the next run: a position that outlasts a run goes on from it.
        self.tables, self.save_every = None, save_every
        if tables is not None:
            os.makedirs(tables, exist_ok=True)
            self.tables = os.path.join(tables, re.sub(r"[^a-z0-9]+", "-", name.lower()) + ".tables")
            if os.path.exists(self.tables):
                started = time.monotonic()
                self.solver.load(self.tables)
                print(f"  {name}: the table of {self.tables} read in {time.monotonic() - started:.0f} s", flush=True)
        self.known: dict[str, tuple[int, tuple[int, int]]] = {}  # key: (value, the window it is held to)
        try:
            with open(log) as f:
                for line in f:
                    if line.startswith(name + " | "):
                        fields = line.rstrip("\n").split(" | ")
                        window = FULL
                        if fields[-1].startswith("window "):  # lines without one hold exact values
                            window = tuple(int(v) for v in fields[-1].split()[1].split(".."))  # type: ignore[assignment]
                        self.known[fields[1]] = (int(fields[2]), window)
        except FileNotFoundError:
            pass

    def value_after(
        self, position: noughts.Classic, move: noughts.Move, key: str, split: int, window: tuple[int, int] = FULL
    ) -> int:
        """The value, for the player to move at `position`, of playing `move` (which leads to the
        position `key`), held to `window`: solved whole when split is 1, else from the values of
        the replies."""
        if key in self.known:
            value, asked = self.known[key]
            if asked == window or asked == FULL or abs(value) == 1:  # a win or a loss is exact in any window
                return held(value, window)
        child = position.copy()
        child.play(move)
        if child.is_over():  # not logged: the game says it at once
            return held(0 if child.winner is None else (1 if child.winner == position.to_move else -1), window)
        label = " ".join(m.name for m in child.history[self.start_ply :])
        same = child.to_move == position.to_move  # else the child's value is the other player's
        child_window = window if same else (-window[1], -window[0])
        if split <= 1:
            best, nodes, seconds = self.solve(child, child_window, label)
        else:
            t0, best = time.monotonic(), child_window[0]
            for reply_key, replies in move_classes(child).items():
                best = max(best, self.value_after(child, replies[0], reply_key, split - 1, child_window))
                if best == child_window[1]:  # the best the window can tell: the other replies cannot change it
                    break
            nodes, seconds = 0, time.monotonic() - t0
        value = best if same else -best
        self.known[key] = (value, window)
        window_field = "" if window == FULL else f" | window {window[0]}..{window[1]}"
        with open(self.log, "a") as f:
            f.write(
                f"{self.name} | {key} | {value} | {nodes} nodes | {seconds:.0f} s | {self.threads} threads{window_field}\n"
            )
        print(f"  {self.name}, {label}: {value}{window_field} ({nodes:,} nodes, {seconds:.0f} s)", flush=True)
        return value

    def solve(self, position: noughts.Classic, window: tuple[int, int], label: str) -> tuple[int, int, float]:
        """The position's weak value within the window, with the nodes and seconds of this run;
        with tables, in steps of save_every seconds, the table saved after each."""
        nodes, seconds = 0, 0.0
        progress = progress_printer(self.name, label)
        while True:
            try:
                s = self.solver.solve(
                    position,
                    weak=True,
                    window=window,
                    threads=self.threads,
                    progress=progress,
                    max_seconds=self.save_every if self.tables else None,
                )
                return s.value, nodes + s.nodes, seconds + s.seconds
            except noughts.SearchTimeout as e:
                nodes, seconds = nodes + e.nodes, seconds + e.seconds
                self.save()

    def save(self) -> None:
        """Saves the table (when kept in a file)."""
        if self.tables:
            started = time.monotonic()
            self.solver.save(self.tables)
            print(f"  {self.name}: the table saved to {self.tables} in {time.monotonic() - started:.0f} s", flush=True)


def first_move_values(
    name: str,
    options: dict[str, object],
    tt_mb: int,
    threads: int,
    log: str,
    split: int = 1,
    root_at_most: int | None = None,
    tables: str | None = None,
) -> None:
    """Each first move's value for the first player, one solve a position (split > 1: the
    positions that many moves deep), kept in `log`. Given a bound the start's value is known not
    to pass (root_at_most, for the first player), each is asked only whether it reaches it: no
    first move can pass it."""
    start = noughts.Classic(**options)  # type: ignore[arg-type]
    classes = move_classes(start)
    values = KeptValues(name, tt_mb, threads, log, start.ply, tables)
    window = FULL if root_at_most is None else (root_at_most - 1, root_at_most)
    if window[0] < -1:  # a lost start: every first move keeps its value, nothing to ask
        window = FULL
    try:
        known = {key: values.value_after(start, moves[0], key, split, window) for key, moves in classes.items()}
    except KeyboardInterrupt:  # Ctrl-C, or SIGTERM (main): keep what the table proved
        values.save()
        raise
    words = {1: "wins", 0: "draws", -1: "loses"}

    def word(value: int) -> str:
        if window == FULL or abs(value) == 1:
            return words[value]
        return words[value] if value == root_at_most else "does not win (draws or loses)"

    for key, moves in classes.items():
        print(f"  {' '.join(m.name for m in moves)}: the first player {word(known[key])}")
    print(f"  {name}: the value by the first moves: {word(max(known.values()))} for the first player")


def read_rows(path: str) -> dict[str, str]:
    """The long-solve rows already in the results file, by board name."""
    text = open(path).read()
    if LONG_HEADING not in text:
        return {}
    section = text[text.index(LONG_HEADING) :].split("\n## ", 1)[0]
    return {line.split(" | ")[0][2:]: line for line in section.splitlines() if line.startswith("| 5x5")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--boards",
        default=",".join(BOARDS),
        help=f"comma-separated, of: {', '.join(BOARDS)}; with --first-moves also {', '.join(GRAVITY_BOARDS)}",
    )
    parser.add_argument("--tt-mb", type=int, default=8192)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--out", default="docs/solver-results.md")
    parser.add_argument("--first-moves", metavar="LOG", help="only each first move's value, kept in LOG (resumable)")
    parser.add_argument(
        "--split",
        type=int,
        default=1,
        help="with --first-moves: 1 solves each first move's position whole; 2 values it by its replies' positions,"
        " each solved whole and logged (a position too large for one run)",
    )
    parser.add_argument(
        "--root-at-most",
        choices=["win", "draw", "loss"],
        help="with --first-moves: a value for the first player that the start's is proved not to pass (the start's"
        " value from a weak solve, or a bound from a mirror strategy); each first move is then asked only whether it"
        " reaches it (about half the work)",
    )
    parser.add_argument(
        "--tables",
        metavar="DIR",
        help="with --first-moves: keep the solver's table in DIR, saved every half hour of a solve and at a stop"
        " (Ctrl-C, SIGTERM), and read back by the next run, so a position too large for one run goes on from"
        " where it stood (a file of up to --tt-mb MB)",
    )
    args = parser.parse_args()
    # SIGTERM stops like Ctrl-C (the solve ends at its next poll), so the table is saved.
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    keys = [k.strip() for k in args.boards.split(",") if k.strip()]
    boards = BOARDS | GRAVITY_BOARDS if args.first_moves else BOARDS
    unknown = [k for k in keys if k not in boards]
    if unknown or not keys:
        parser.error(f"--boards takes {', '.join(boards)}, not {args.boards!r}")
    if args.first_moves:
        at_most = None if args.root_at_most is None else {"win": 1, "draw": 0, "loss": -1}[args.root_at_most]
        try:
            for key in keys:
                first_move_values(
                    *boards[key], args.tt_mb, args.threads, args.first_moves, args.split, at_most, args.tables
                )
        except KeyboardInterrupt:
            raise SystemExit("stopped: the values proved so far are in the log (and the table in --tables)") from None
        return
    rows = read_rows(args.out)
    for key in keys:
        name, options = BOARDS[key]
        print(name, flush=True)
        rows[name] = solve_board(name, options, args.tt_mb, args.threads)
        section = [LONG_HEADING, "", intro(args.tt_mb, args.threads), "", *HEADER]
        section += [rows[n] for n, _ in BOARDS.values() if n in rows] + [""]
        replace_section(args.out, LONG_HEADING, GRAVITY_HEADING, section)


if __name__ == "__main__":
    main()
