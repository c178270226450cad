"""The ``noughts`` command line."""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any, Sequence

from noughts.classic import Classic
from noughts.errors import Error
from noughts.search import perft

__all__ = ["main"]


def _add_game_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", nargs="?", default="classic", choices=["classic"], help="the game (default: classic)")
    parser.add_argument("--size", type=int, help="a square board of this size (sets --rows and --cols)")
    parser.add_argument("--rows", type=int, default=3, help="board rows (default 3)")
    parser.add_argument("--cols", type=int, default=3, help="board columns (default 3)")
    parser.add_argument("-k", type=int, default=None, help="line length to win (default: RULES.md's default)")
    parser.add_argument("--misere", action="store_true", help="completing a line loses")
    parser.add_argument("--free", action="store_true", help="free choice: either symbol each turn")
    parser.add_argument("--gravity", action="store_true", help="marks fall to the lowest empty cell")
    parser.add_argument("--position", help="start from this position string instead")


def _make_game(args: argparse.Namespace) -> Any:
    if args.position:
        return Classic.from_string(args.position)
    rows, cols = (args.size, args.size) if args.size else (args.rows, args.cols)
    return Classic(rows, cols, args.k, misere=args.misere, free_choice=args.free, gravity=args.gravity)


def _cmd_perft(args: argparse.Namespace) -> int:
    game = _make_game(args)
    print(f"perft from {game.to_string()!r}")
    print(f"{'depth':>5} {'nodes':>16} {'seconds':>9} {'nodes/s':>14}")
    for depth in range(1, args.depth + 1):
        start = time.perf_counter()
        nodes = perft(game, depth)
        seconds = time.perf_counter() - start
        rate = f"{nodes / seconds:,.0f}" if seconds > 0 else "-"
        print(f"{depth:>5} {nodes:>16,} {seconds:>9.3f} {rate:>14}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="noughts", description="A fast engine for the tic-tac-toe family.")
    commands = parser.add_subparsers(dest="command", required=True)
    p = commands.add_parser("perft", help="count move sequences to a depth")
    _add_game_arguments(p)
    p.add_argument("--depth", type=int, default=5, help="the deepest depth to count (default 5)")
    p.set_defaults(run=_cmd_perft)
    args = parser.parse_args(argv)
    try:
        return int(args.run(args))
    except Error as e:
        print(f"noughts: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("noughts: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
