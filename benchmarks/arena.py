"""The arena: a match between two Ultimate engines, as engine authors test a change (docs/arena.md).

An engine is given as
  noughts:KEY=VALUE,...   noughts' MCTS in this process; keys: ms, iterations, first_ms,
                          and noughts.MCTS's own (c, threads, max_nodes, reuse, seed)
  cmd:COMMAND             an external program speaking CodinGame's Ultimate protocol
                          (any CodinGame bot, or "noughts engine --codingame --ms 90")

Examples (run on demand; a match of 200 games at 90 ms takes about 15 minutes):

  python benchmarks/arena.py --a noughts:ms=90 --b "cmd:./bot" --opening-plies 0 --games 200
  python benchmarks/arena.py --a noughts:iterations=20000,c=0.8 --b noughts:iterations=20000 \\
      --games 2000 --sprt 0,10 --jsonl ab.jsonl

Two versions of an engine against one opponent, compared game by game (both matches played
with the same --seed, --opening-plies and --games, each with its version as --a):

  python benchmarks/arena.py --a "cmd:OLD" --b "cmd:./bot" --seed 7 --jsonl old.jsonl
  python benchmarks/arena.py --a "cmd:NEW" --b "cmd:./bot" --seed 7 --jsonl new.jsonl
  python benchmarks/arena.py --compare old.jsonl new.jsonl

Pairs of games share a random opening with colours swapped. One JSON line per game goes to
--jsonl; the summary (W/D/L, score and Elo with 95 % intervals, think times, iterations)
is printed every --report games and at the end.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from noughts import Ultimate
from noughts.arena import Limits, ProgramEngine, SearchEngine, Sprt, run_match
from noughts.arena_pairs import compare_matches, read_games
from noughts.errors import InvalidOptionError

_FLAGS = ("reuse", "heuristics", "evaluation")
_NUMBERS = {
    "ms": float,
    "first_ms": float,
    "iterations": int,
    "c": float,
    "threads": int,
    "max_nodes": int,
    "seed": int,
    "prior_visits": int,
    "minimax": float,
    "rollout_weight": float,
    "puct": float,
    "puct_temperature": float,
}


def engine_from_spec(spec: str, name: str | None) -> Any:
    kind, _, rest = spec.partition(":")
    if kind == "cmd":
        return ProgramEngine(rest, name=name)
    if kind != "noughts":
        raise SystemExit(f"arena: unknown engine {spec!r}: write noughts:KEY=VALUE,... or cmd:COMMAND")
    options: dict[str, Any] = {}
    for item in filter(None, rest.split(",")):
        key, _, value = item.partition("=")
        if key in _FLAGS:
            options[key] = value.lower() in ("1", "true", "yes")
        elif key in _NUMBERS:
            options[key] = _NUMBERS[key](value)
        else:
            raise SystemExit(f"arena: unknown key {key!r} in {spec!r}: keys are {', '.join([*_NUMBERS, *_FLAGS])}")
    return SearchEngine(name or f"noughts({rest})", **options)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--a", help="engine A (see above)")
    parser.add_argument("--b", help="engine B")
    parser.add_argument("--a-name")
    parser.add_argument("--b-name")
    parser.add_argument("--games", type=int, default=200, help="games at most (pairs; default 200)")
    parser.add_argument("--opening-plies", type=int, default=2, help="random plies before the engines play")
    parser.add_argument("--seed", type=int, default=0, help="seed of the openings")
    parser.add_argument(
        "--tiebreak", action="store_true", help="CodinGame's scoring: a full big board goes to more boards won"
    )
    parser.add_argument("--turn-ms", type=float, default=100.0, help="time limit a turn (default 100)")
    parser.add_argument("--first-turn-ms", type=float, default=1000.0, help="time limit on a side's first turn")
    parser.add_argument("--no-forfeit", action="store_true", help="count late answers instead of forfeiting")
    parser.add_argument("--sprt", help="ELO0,ELO1: stop when the SPRT decides (alpha = beta = 0.05)")
    parser.add_argument("--jsonl", type=Path, help="write one JSON line per game here")
    parser.add_argument("--report", type=int, default=20, help="print the summary every N games")
    parser.add_argument(
        "--compare",
        nargs=2,
        type=Path,
        metavar=("FIRST", "SECOND"),
        help="play nothing: compare two matches' --jsonl files game by game (the same openings, one opponent)",
    )
    args = parser.parse_args(argv)
    if args.compare:
        try:
            print(compare_matches(*(read_games(path) for path in args.compare)).report())
        except (InvalidOptionError, OSError) as e:
            parser.exit(2, f"arena: {e}\n")
        return 0
    if not (args.a and args.b):
        parser.error("a match needs --a and --b (or --compare FIRST SECOND)")

    a = engine_from_spec(args.a, args.a_name)
    b = engine_from_spec(args.b, args.b_name)
    sprt = None
    if args.sprt:
        elo0, elo1 = (float(v) for v in args.sprt.split(","))
        sprt = Sprt(elo0, elo1)
    out = args.jsonl.open("a") if args.jsonl else None
    t0 = time.monotonic()

    def on_game(i: int, result: Any, summary: Any) -> None:
        if out is not None:
            out.write(result.to_json() + "\n")
            out.flush()
        if (i + 1) % args.report == 0:
            rate = (time.monotonic() - t0) / (i + 1)
            print(f"--- after {i + 1} games ({rate:.1f} s a game)\n{summary.report()}", flush=True)

    summary = run_match(
        a,
        b,
        lambda: Ultimate(tiebreak=args.tiebreak),
        args.games,
        opening_plies=args.opening_plies,
        seed=args.seed,
        limits=Limits(args.turn_ms, args.first_turn_ms, not args.no_forfeit),
        sprt=sprt,
        on_game=on_game,
    )
    print(f"=== final\n{summary.report()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
