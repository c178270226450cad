"""The exported CodinGame bot's iterations a turn, built three ways, against the documented build.

CodinGame compiles a C++ bot without an optimisation flag; the exported file asks GCC for
optimisation itself (a pragma on its first lines). This builds `noughts export codingame`
with the documented command (g++ -O2), with CodinGame's flags, and with CodinGame's flags
from the file without its pragma, then plays each build against the same cheap opponent
(noughts' MCTS at 300 iterations a move) and prints the median iterations the bot reported
a turn (its first turn, with its longer limit, left out), and the ratio to the -O2 build.
The builds take turns game by game, so that a shared machine's load falls on all of them.

Run on demand (about a minute and a half; needs g++): python benchmarks/bot_builds.py [--games 4]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import tempfile
from pathlib import Path

import noughts
from noughts.arena import Limits, ProgramEngine, SearchEngine, play_game
from noughts.export import CODINGAME_FLAGS, OPTIMIZE_PRAGMA, codingame_source

BUILDS = {
    "g++ -O2 (documented)": (["-std=c++20", "-O2"], True),
    "CodinGame's flags": (list(CODINGAME_FLAGS), True),
    "CodinGame's flags, no pragma": (list(CODINGAME_FLAGS), False),
}


def build(folder: Path, name: str, flags: list[str], pragma: bool) -> Path:
    source = codingame_source()
    if OPTIMIZE_PRAGMA not in source:
        raise SystemExit("the exported source has no optimisation pragma: this benchmark is out of date")
    if not pragma:
        source = source.replace(OPTIMIZE_PRAGMA, "")
    stem = folder / name.replace(" ", "_").replace("'", "").replace(",", "").replace("(", "").replace(")", "")
    stem.with_suffix(".cpp").write_text(source)
    subprocess.run(["g++", *flags, "-o", str(stem), str(stem.with_suffix(".cpp")), "-lm"], check=True, timeout=900)
    return stem


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4, help="games a build (it plays X and O in turn)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        binaries = {name: build(Path(tmp), name, flags, pragma) for name, (flags, pragma) in BUILDS.items()}
        iterations: dict[str, list[int]] = {name: [] for name in BUILDS}
        for g in range(args.games):
            for name, binary in binaries.items():
                bot = ProgramEngine([str(binary)], name=name)
                opponent = SearchEngine("mcts-300", iterations=300, seed=g)
                bot_is_x = g % 2 == 0
                x, o = (bot, opponent) if bot_is_x else (opponent, bot)
                result = play_game(x, o, noughts.Ultimate(tiebreak=True), Limits(forfeit_late=False))
                iterations[name] += result.iterations[0 if bot_is_x else 1][1:]
    reference = statistics.median(iterations[next(iter(BUILDS))])
    print(f"{'build':32} {'median iterations a turn':>26} {'ratio':>7}")
    for name, counts in iterations.items():
        median = statistics.median(counts)
        print(f"{name:32} {median:>26,.0f} {median / reference:>7.2f}")


if __name__ == "__main__":
    main()
