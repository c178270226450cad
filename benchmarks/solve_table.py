"""Writes docs/solver-results.md: every Classic option combination on the product's
boards, four in a row on gravity boards up to 7x6 with each rule option, Quantum, and
how deep Ultimate endgames solve. Anyone can rerun it:

    python benchmarks/solve_table.py [--max-seconds 300] [--out docs/solver-results.md]
    python benchmarks/solve_table.py --gravity-only [--gravity-seconds 60] [--threads 1] [--tt-mb 512]  # that section alone
    python benchmarks/solve_table.py --classic-only [--max-seconds 300]  # the Classic section alone
"""

from __future__ import annotations

import argparse
import itertools
import platform
import random
import time
from collections.abc import Iterator

import noughts

BOARDS = [(3, 3, 3), (4, 4, 3), (4, 4, 4), (5, 5, 4)]
# Gravity boards for four in a row, as (columns, rows), up to Connect Four's 7x6;
# the square ones already in BOARDS are left out.
GRAVITY_SIZES = [(c, r) for r in (4, 5, 6) for c in (4, 5, 6, 7) if (r, c, 4) not in BOARDS]
GRAVITY_OPTIONS = [dict(misere=m, free_choice=f) for m, f in itertools.product((False, True), repeat=2)]


def describe(options: dict[str, bool]) -> str:
    return ", ".join(name for name, on in options.items() if on) or "plain"


def row(name: str, game: object, max_seconds: float, threads: int = 1, tt_mb: int = 512) -> str:
    try:
        s = noughts.solve(game, max_seconds=max_seconds, tt_mb=tt_mb, threads=threads, book=False)
    except noughts.SearchTimeout as e:
        return f"| {name} | open | | | {e.nodes:,} (stopped) | {e.seconds:.1f} s |"
    best = " ".join(m.name for m in s.best_moves)
    dist = "" if s.distance is None else f" in {s.distance}"
    return f"| {name} | {s.result}{dist} | {best} | {' '.join(m.name for m in s.principal_variation)} | {s.nodes:,} | {s.seconds:.3f} s |"


GRAVITY_HEADING = "## Gravity boards, four in a row"
LONG_HEADING = "## Long solves"  # written by solve_long.py, between the Classic and gravity sections
RETRY_WORDS = "The boards still open were"


def gravity_intro(seconds: float, threads: int, tt_mb: int) -> str:
    cores = "one core" if threads == 1 else f"{threads} threads"
    return (
        f"Every board from 4 to 7 columns and 4 to 6 rows (Connect Four is 7x6), with each rule option,"
        f" solved with a {seconds:g} s limit (`--gravity-seconds`) on {cores} with a {tt_mb} MB table"
        f' (`--threads`, `--tt-mb`); "open" is a board not solved within it.'
    )


def gravity_section(
    seconds: float, threads: int = 1, tt_mb: int = 512, *, keep: dict[str, str] | None = None, retry: str = ""
) -> Iterator[list[str]]:
    """The gravity section, yielded anew after each board (so that a long run can be written as
    it goes). With `keep` (rows by board name, as read_gravity_rows reads them), only the boards
    whose row there is "open" are solved again; the others keep their row, and the intro keeps
    its words, followed by `retry`."""
    boards = [
        (f"{cols}x{rows} k=4 {describe(options)}", (rows, cols, options))
        for (cols, rows), options in itertools.product(GRAVITY_SIZES, GRAVITY_OPTIONS)
    ]
    intro = gravity_intro(seconds, threads, tt_mb)
    if keep is not None:  # the first run's words, without an earlier retry's
        intro = f"{keep.get('', '').split(RETRY_WORDS)[0].strip()} {retry}".strip()
    done = dict(keep or {})

    def section() -> list[str]:
        header = [
            "| game | value | best first moves | principal variation | nodes | time |",
            "|---|---|---|---|---|---|",
        ]
        return [GRAVITY_HEADING, "", intro, "", *header, *(done[n] for n, _ in boards if n in done), ""]

    for name, (rows, cols, options) in boards:
        if name in done and "| open |" not in done[name]:
            continue
        print(name, flush=True)
        done[name] = row(name, noughts.Classic(rows, cols, 4, gravity=True, **options), seconds, threads, tt_mb)
        yield section()
    yield section()


def read_gravity_rows(path: str) -> dict[str, str]:
    """The gravity section's rows of a results file by board name, and its intro under ""."""
    text = open(path).read()
    section = text[text.index(GRAVITY_HEADING) :].split("\n## ", 1)[0]
    rows: dict[str, str] = {}
    for line in section.splitlines()[1:]:
        if line.startswith("| ") and " k=4 " in line:
            rows[line.split(" | ")[0][2:]] = line
        elif line and not line.startswith("|") and "" not in rows:
            rows[""] = line
    return rows


def replace_section(path: str, heading: str, next_heading: str | None, lines: list[str]) -> None:
    """Rewrites one section of a results file: from `heading` (or, where the file has none yet,
    from `next_heading`) to `next_heading` (None: the end of the file)."""
    text = open(path).read()
    end = text.index(next_heading) if next_heading else len(text)
    start = text.index(heading) if heading in text else end
    with open(path, "w") as fh:
        fh.write(text[:start] + "\n".join(lines) + "\n" + text[end:])
    print(f"wrote {path}")


def existing_section(path: str, heading: str) -> list[str]:
    """The lines of a section of a results file (heading to the next heading), or none: the
    sections that other scripts write (solve_long.py's) survive a full rewrite."""
    try:
        text = open(path).read()
    except FileNotFoundError:
        return []
    if heading not in text:
        return []
    return text[text.index(heading) :].split("\n## ", 1)[0].rstrip("\n").splitlines() + [""]


def random_open_position(rng: random.Random, played: int) -> object | None:
    """A random Ultimate game of `played` moves that is not over yet (None if none turns up)."""
    for _ in range(500):
        g = noughts.Ultimate()
        while g.ply < played and not g.is_over():
            g.play(rng.choice(g.legal_actions()))
        if not g.is_over():
            return g
    return None


def ultimate_intro(seconds: float) -> str:
    return (
        f"Random games played to a number of moves, then solved with a {seconds:g} s limit: by alpha-beta (the"
        ' default solve: value, distance, best moves) and by proof-number search (`method="pns", weak=True`: the value).'
    )


def ultimate_depths(seconds: float, samples: int) -> list[str]:
    lines = [
        "| moves played | empty cells | solved within the limit | median time | proof-number search: value within the limit"
        " | median time | example |",
        "|---|---|---|---|---|---|---|",
    ]
    rng = random.Random(1)
    for played in range(60, 19, -5):
        solved, times, valued, value_times, example = 0, [], 0, [], ""
        for _ in range(samples):
            g = random_open_position(rng, played)
            if g is None:
                continue
            try:
                pns = noughts.solve(g, method="pns", weak=True, max_seconds=seconds)
                valued += 1
                value_times.append(pns.seconds)
            except noughts.SearchTimeout:
                pass
            try:
                s = noughts.solve(g, max_seconds=seconds)
            except noughts.SearchTimeout:
                continue
            solved += 1
            times.append(s.seconds)
            example = example or f"`{g.to_string()}`: {s.result}"

        def median(ts: list[float]) -> str:
            return f"{sorted(ts)[len(ts) // 2]:.3f} s" if ts else "-"

        lines.append(
            f"| {played} | {81 - played} | {solved}/{samples} | {median(times)} | {valued}/{samples}"
            f" | {median(value_times)} | {example} |"
        )
        print(f"ultimate {played}: {solved}/{samples}, proof-number values {valued}/{samples}", flush=True)
        if solved == 0 and valued == 0:
            break
    return lines


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--max-seconds", type=float, default=300)
    parser.add_argument("--ultimate-seconds", type=float, default=10)
    parser.add_argument("--ultimate-samples", type=int, default=10)
    parser.add_argument("--out", default="docs/solver-results.md")
    parser.add_argument("--ultimate-only", action="store_true", help="redo only the Ultimate section of --out")
    parser.add_argument("--classic-only", action="store_true", help="redo only the Classic section of --out")
    parser.add_argument("--gravity-seconds", type=float, default=60)
    parser.add_argument("--gravity-only", action="store_true", help="redo only the gravity section of --out")
    parser.add_argument("--threads", type=int, default=1, help="solver threads for the gravity section")
    parser.add_argument("--tt-mb", type=int, default=512, help="table size for the gravity section")
    parser.add_argument(
        "--only-open", action="store_true", help="with --gravity-only: solve again only the boards --out has as open"
    )
    args = parser.parse_args()
    if args.only_open and not args.gravity_only:
        parser.error("--only-open goes with --gravity-only")
    out = [
        "# Solver results",
        "",
        f"Written by `python benchmarks/solve_table.py --max-seconds {args.max_seconds:g}"
        f"{' --classic-only' if args.classic_only else ''}` on {time.strftime('%Y-%m-%d')}"
        f" ({platform.machine()}, one core, noughts {noughts.__version__})"
        f"{'; the sections after the Classic one are from earlier runs' if args.classic_only else ''}."
        " Values are with perfect play;",
        '"in N" is the number of plies to the end (the winner hurrying, the loser stalling); best moves',
        "are every first move that keeps the value. Gravity boards are written columns x rows.",
        "",
        "## Classic",
        "",
        "| game | value | best first moves | principal variation | nodes | time |",
        "|---|---|---|---|---|---|",
    ]
    if args.gravity_only:
        keep, retry = None, ""
        if args.only_open:
            keep = read_gravity_rows(args.out)
            retry = (
                f"{RETRY_WORDS} then given {args.gravity_seconds:g} s each on"
                f" {'one core' if args.threads == 1 else f'{args.threads} threads'} with a {args.tt_mb} MB table"
                f" (`--gravity-only --only-open`)."
            )
        for section in gravity_section(args.gravity_seconds, args.threads, args.tt_mb, keep=keep, retry=retry):
            replace_section(args.out, GRAVITY_HEADING, "## Quantum", section)
        return
    if args.ultimate_only:
        section = ["## Ultimate endgames", "", ultimate_intro(args.ultimate_seconds), ""]
        section += ultimate_depths(args.ultimate_seconds, args.ultimate_samples)
        replace_section(args.out, "## Ultimate endgames", None, section)
        return
    for (rows, cols, k), (m, f, g) in itertools.product(BOARDS, itertools.product((False, True), repeat=3)):
        options = dict(misere=m, free_choice=f, gravity=g)
        name = f"{rows}x{cols} k={k} {describe(options)}"
        print(name, flush=True)
        out.append(row(name, noughts.Classic(rows, cols, k, **options), args.max_seconds))
    if args.classic_only:
        replace_section(args.out, out[0], LONG_HEADING, [*out, ""])
        return
    long_solves = existing_section(args.out, LONG_HEADING)
    *_, gravity = gravity_section(args.gravity_seconds, args.threads, args.tt_mb)
    out += ["", *long_solves, *gravity]
    out += [
        "## Quantum",
        "",
        "| game | value | best first moves | principal variation | nodes | time |",
        "|---|---|---|---|---|---|",
    ]
    if hasattr(noughts, "Quantum"):
        out.append(row("Quantum, from the start", noughts.Quantum(), args.max_seconds))
    out += [
        "",
        "## Ultimate endgames",
        "",
        ultimate_intro(args.ultimate_seconds),
        "",
    ]
    if hasattr(noughts, "Ultimate"):
        out += ultimate_depths(args.ultimate_seconds, args.ultimate_samples)
    with open(args.out, "w") as fh:
        fh.write("\n".join(out) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
