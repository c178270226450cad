"""The ``noughts`` command line: play, solve, perft, analyse, match, bench, engine."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from typing import Any

from noughts._core import Player
from noughts.errors import Error
from noughts.registry import GAME_INFO, make_game

__all__ = ["main"]


# ---- shared arguments -------------------------------------------------------------
def _add_game_arguments(parser: argparse.ArgumentParser, default: str = "classic") -> None:
    parser.add_argument(
        "game", nargs="?", default=default, choices=sorted(GAME_INFO), help=f"the game (default: {default})"
    )
    for info in GAME_INFO.values():
        if not info.options:
            continue
        g = parser.add_argument_group(f"{info.name} options")
        if info.option("rows") and info.option("cols"):
            g.add_argument("--size", type=int, help="a square board of this size (sets --rows and --cols)")
        for option in info.options:
            flag = f"-{option.word}" if len(option.word) == 1 else f"--{option.word}"
            if option.is_flag:
                g.add_argument(flag, dest=option.name, action="store_true", help=option.help)
            else:
                default = "" if option.default is None else f" (default {option.default})"
                g.add_argument(flag, dest=option.name, type=int, default=option.default, help=option.help + default)
    parser.add_argument("--position", help="start from this position string")
    parser.add_argument("--moves", default="", help="moves to play first, separated by spaces or commas")


def _make_game(args: argparse.Namespace) -> Any:
    info = GAME_INFO[args.game]
    # Options given on the command line, by game: those of other games must be at their defaults.
    given = {o.name: getattr(args, o.name) for i in GAME_INFO.values() for o in i.options}
    changed = {o.name for i in GAME_INFO.values() for o in i.options if given[o.name] != o.default}
    if getattr(args, "size", None):
        changed |= {"rows", "cols"}
        given["rows"] = given["cols"] = args.size
    if changed - {o.name for o in info.options}:
        raise SystemExit(f"noughts: {args.game} takes no board options")
    if args.position:
        game = make_game(args.game, position=args.position)
    else:
        game = make_game(args.game, **{o.name: given[o.name] for o in info.options})
    for move in args.moves.replace(",", " ").split():
        game.play(move)
    return game


def _add_budget(parser: argparse.ArgumentParser, seconds: float | None = 1.0) -> None:
    parser.add_argument("--seconds", type=float, default=seconds, help=f"engine time per move (default {seconds})")
    parser.add_argument("--iterations", type=int, help="engine iterations per move instead of time")
    parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")


# ---- commands ----------------------------------------------------------------------
def _cmd_perft(args: argparse.Namespace) -> int:
    from noughts.search import perft

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


def _cmd_solve(args: argparse.Namespace) -> int:
    from noughts.solver import solve

    game = _make_game(args)
    print(f"solving {game.to_string()!r} ...", file=sys.stderr, flush=True)
    s = solve(game, max_seconds=args.max_seconds, tt_mb=args.tt_mb, move_values=args.values)
    print(f"value: {s.result}" + ("" if s.distance is None else f" in {s.distance} plies"))
    print(f"best moves: {' '.join(m.name for m in s.best_moves)}")
    if args.values:
        names = {m: game.move_name(m) for m in s.move_values}
        verdict = {1: "wins", 0: "draws", -1: "loses"}
        print("moves: " + ", ".join(f"{names[m]} {verdict[v]}" for m, v in sorted(s.move_values.items())))
    print(f"principal variation: {' '.join(m.name for m in s.principal_variation)}")
    print(f"nodes: {s.nodes:,} in {s.seconds:.3f} s")
    return 0


def _cmd_analyse(args: argparse.Namespace) -> int:
    from noughts.mcts import MCTS

    game = _make_game(args)
    r = MCTS(seed=args.seed, threads=args.threads).search(
        game, iterations=args.iterations, seconds=None if args.iterations else args.seconds
    )
    print(f"{game}\n{game.to_move.name} to move; {r.iterations:,} iterations in {r.seconds:.2f} s")
    if r.proven:
        print(
            f"proven: {'win' if r.proven_value == 1 else 'loss' if r.proven_value == -1 else 'draw'} for {game.to_move.name}"
        )
    print(f"{'move':>8} {'visits':>10} {'value':>7}")
    for s in sorted(r.moves, key=lambda s: -s.visits)[: args.top]:
        print(f"{s.move.name:>8} {s.visits:>10,} {s.value:>+7.3f}")
    print(f"best: {r.best_move.name}; pv: {' '.join(m.name for m in r.pv)}")
    return 0


def _engine_player(iterations: int | None, seconds: float | None, c: float | None, seed: int) -> Any:
    from noughts.mcts import MCTS

    kwargs: dict[str, Any] = {"seed": seed}
    if c is not None:
        kwargs["c"] = c
    return MCTS(iterations=iterations, seconds=None if iterations else seconds, **kwargs)


def _cmd_match(args: argparse.Namespace) -> int:
    from noughts.mcts import match

    game = _make_game(args)
    start = game.to_string()

    def factory() -> Any:
        return type(game).from_string(start)

    a = _engine_player(args.a_iterations, args.a_seconds, args.a_c, args.seed)
    b = _engine_player(args.b_iterations, args.b_seconds, args.b_c, args.seed + 1)

    done = [0]

    def progress(*_: Any) -> None:
        done[0] += 1
        width = 30
        filled = width * done[0] // args.games
        print(f"\r[{'#' * filled}{'.' * (width - filled)}] {done[0]}/{args.games}", end="", file=sys.stderr, flush=True)

    result = match(a, b, factory, games=args.games, on_game=progress)
    print(file=sys.stderr)
    print(result)
    if args.records:
        from noughts.records import Record, write_records

        def record(i: int, rec: Any) -> Record:
            game = factory()
            for m in rec.moves:
                game.play(m)
            a_is_x = rec.a_played == Player.X
            return Record.from_game(
                game, Event="noughts match", Round=str(i), X="A" if a_is_x else "B", O="B" if a_is_x else "A"
            )

        write_records([record(i, rec) for i, rec in enumerate(result.records, 1)], args.records)
        print(f"records written to {args.records}")
    return 0


def _cmd_bench(args: argparse.Namespace) -> int:
    from noughts.classic import Classic
    from noughts.mcts import MCTS
    from noughts.quantum import Quantum
    from noughts.search import perft, random_playouts
    from noughts.solver import solve
    from noughts.ultimate import Ultimate

    def timed(fn: Any) -> tuple[Any, float]:
        start = time.perf_counter()
        out = fn()
        return out, time.perf_counter() - start

    rows = []
    for name, game, depth in [
        ("classic 4x4 k=4", Classic(4, 4, 4), 6),
        ("ultimate", Ultimate(), 6),
        ("quantum", Quantum(), 4),
    ]:
        nodes, s = timed(lambda: perft(game, depth))
        rows.append((f"perft {name} d={depth}", f"{nodes / s:,.0f} nodes/s"))
    for name, game in [("classic 3x3", Classic()), ("ultimate", Ultimate()), ("quantum", Quantum())]:
        n = 200_000
        _, s = timed(lambda: random_playouts(game, n, seed=1))
        rows.append((f"random playouts {name}", f"{n / s:,.0f} games/s"))
    for name, game in [("classic 3x3", Classic()), ("ultimate", Ultimate())]:
        r = MCTS(seed=1).search(game, seconds=0.5)
        rows.append((f"mcts {name}", f"{r.iterations / r.seconds:,.0f} iterations/s"))
    sol, s = timed(lambda: solve(Classic(4, 4, 4)))
    rows.append(("solve classic 4x4 k=4", f"{s * 1000:.1f} ms ({sol.nodes:,} nodes)"))
    width = max(len(r[0]) for r in rows)
    for label, value in rows:
        print(f"{label:<{width}}  {value:>28}")
    return 0


def _cmd_play(args: argparse.Namespace) -> int:
    from noughts.terminal import play

    game = _make_game(args)
    humans = {"x": {Player.X}, "o": {Player.O}, "both": {Player.X, Player.O}, "none": set()}[args.human]
    if args.auto:
        humans = set()
    return play(game, humans, seconds=args.seconds, seed=args.seed)


def _cmd_engine(args: argparse.Namespace) -> int:
    if args.codingame:
        from noughts import codingame

        return codingame.run(
            ms=args.ms,
            first_ms=args.first_ms,
            margin_ms=args.margin_ms,
            threads=args.threads,
            seed=args.seed,
            tiebreak=args.tiebreak,
            start=args.start,
            diagnostics=None if args.quiet else sys.stderr,
        )
    from noughts import engine

    return engine.run()


def _cmd_serve(args: argparse.Namespace) -> int:
    from noughts.serve import run

    try:
        run(args.host, args.port, args.db, tables_per_client=args.max_tables)
    except ImportError as e:
        print(f"noughts: {e}", file=sys.stderr)
        return 2
    return 0


def _cmd_export(args: argparse.Namespace) -> int:
    from noughts.export import codingame_source

    sys.stdout.write(
        codingame_source(
            ms=args.ms, first_ms=args.first_ms, margin_ms=args.margin_ms, tiebreak=args.tiebreak, seed=args.seed
        )
    )
    return 0


def _positive_ms(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not 0 < value < 1e9:
        raise argparse.ArgumentTypeError(f"must be a number of milliseconds > 0, not {text!r}")
    return value


def codingame_margin() -> float:
    from noughts.codingame import DEFAULT_MARGIN_MS

    return DEFAULT_MARGIN_MS


# ---- parser ---------------------------------------------------------------------------
def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="noughts",
        description="A fast engine for the tic-tac-toe family: Classic (m,n,k; misere, free choice, gravity), "
        "Ultimate and Quantum.",
    )
    commands = parser.add_subparsers(dest="command", metavar="command")

    p = commands.add_parser("play", help="play a game in the terminal against the engine")
    _add_game_arguments(p)
    p.add_argument("--human", choices=["x", "o", "both", "none"], default="x", help="who types moves (default x)")
    p.add_argument("--auto", action="store_true", help="engine against engine (same as --human none)")
    _add_budget(p)
    p.set_defaults(run=_cmd_play)

    p = commands.add_parser("solve", help="solve a position exactly")
    _add_game_arguments(p)
    p.add_argument("--max-seconds", type=float, default=None, help="give up after this long")
    p.add_argument("--tt-mb", type=float, default=64, help="transposition table memory (default 64 MB)")
    p.add_argument("--values", action="store_true", help="also the value of every legal move")
    p.set_defaults(run=_cmd_solve)

    p = commands.add_parser("perft", help="count move sequences to a depth")
    _add_game_arguments(p)
    p.add_argument("--depth", type=int, default=5, help="the deepest depth to count (default 5)")
    p.set_defaults(run=_cmd_perft)

    p = commands.add_parser("analyse", aliases=["analyze"], help="MCTS analysis: top moves with visits and values")
    _add_game_arguments(p)
    _add_budget(p)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--top", type=int, default=10, help="how many moves to list (default 10)")
    p.set_defaults(run=_cmd_analyse)

    p = commands.add_parser("match", help="engine settings A against B")
    _add_game_arguments(p, default="ultimate")
    p.add_argument("--games", type=int, default=20)
    for side in ("a", "b"):
        p.add_argument(f"--{side}-iterations", type=int, default=None)
        p.add_argument(f"--{side}-seconds", type=float, default=0.05)
        p.add_argument(f"--{side}-c", type=float, default=None, help="UCT exploration constant")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--records", help="write the game records to this file")
    p.set_defaults(run=_cmd_match)

    p = commands.add_parser("bench", help="this machine's speed figures")
    p.set_defaults(run=_cmd_bench)

    p = commands.add_parser("engine", help="speak the engine protocol on stdin/stdout (docs/protocol.md)")
    p.add_argument("--codingame", action="store_true", help="CodinGame's Ultimate protocol instead")
    p.add_argument(
        "--ms", type=_positive_ms, default=100.0, help="CodinGame: time limit of a turn in ms, from its input (100)"
    )
    p.add_argument("--first-ms", type=_positive_ms, default=1000.0, help="CodinGame: limit of the first turn (1000)")
    p.add_argument(
        "--margin-ms", type=float, default=codingame_margin(), help="CodinGame: stop searching this early (ms)"
    )
    p.add_argument("--threads", type=int, default=1, help="CodinGame: search threads (default 1)")
    p.add_argument(
        "--tiebreak",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="CodinGame: score a full big board by small boards won, as CodinGame does (default; "
        "--no-tiebreak plays it as a draw)",
    )
    p.add_argument("--start", help="CodinGame: start from this position string, or moves such as e5,d4")
    p.add_argument("--quiet", action="store_true", help="CodinGame: no diagnostics on stderr")
    p.add_argument("--seed", type=int, default=0)
    p.set_defaults(run=_cmd_engine)

    p = commands.add_parser("export", help="print a single-file bot: codingame (C++, docs/protocol.md)")
    p.add_argument("target", choices=["codingame"], help="what to export")
    p.add_argument("--ms", type=_positive_ms, default=100.0, help="time limit of a turn in ms (100)")
    p.add_argument("--first-ms", type=_positive_ms, default=1000.0, help="limit of the first turn (1000)")
    p.add_argument("--margin-ms", type=float, default=codingame_margin(), help="stop searching this early (ms)")
    p.add_argument("--tiebreak", action=argparse.BooleanOptionalAction, default=True, help="CodinGame's scoring")
    p.add_argument("--seed", type=int, default=0)
    p.set_defaults(run=_cmd_export)

    p = commands.add_parser("serve", help="the game site: play in the browser against a friend or the engine")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    p.add_argument("--db", help="the tables' SQLite file (default: $XDG_DATA_HOME/noughts/serve.sqlite3)")
    p.add_argument("--max-tables", type=int, default=30, help="tables one address may create per hour (default 30)")
    p.set_defaults(run=_cmd_serve)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 0
    try:
        return int(args.run(args))
    except Error as e:
        print(f"noughts: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\nnoughts: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
