"""The ``noughts`` command line: play, solve, perft, analyse, match, bench, engine."""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Sequence
from typing import Any

from noughts._core import Player
from noughts.errors import Error, InvalidOptionError
from noughts.registry import GAME_INFO, make_game

__all__ = ["main"]


# ---- argument types: a bad value is argparse's error (status 2, the usage line) -----
def _whole(minimum: int) -> Any:
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be at least {minimum}, not {value}")
        return value

    parse.__name__ = f"whole number >= {minimum}"
    return parse


def _positive_number(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"must be a number > 0, not {text}")
    return value


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
            flags = [f"-{option.word}" if len(option.word) == 1 else f"--{option.word}"]
            # The option's Python name works too (--free-choice as free_choice=True).
            if option.name != option.word:
                flags.append("--" + option.name.replace("_", "-"))
            if option.is_flag:
                g.add_argument(*flags, dest=option.name, action="store_true", help=option.help)
            else:
                # None stands for "not given": a given value (0 too) is the game's to accept or refuse.
                default = "" if option.default is None else f" (default {option.default})"
                g.add_argument(*flags, dest=option.name, type=int, default=None, help=option.help + default)
    parser.add_argument("--position", help="start from this position string")
    parser.add_argument("--moves", default="", help="moves to play first, separated by spaces or commas")


def _make_game(args: argparse.Namespace) -> Any:
    info = GAME_INFO[args.game]
    # Options are "given" when they are on the command line, whatever their value
    # (--size 0 is a board size to refuse, not "no size").
    options = {o.name: o for i in GAME_INFO.values() for o in i.options}
    values = {name: getattr(args, name) for name in options}
    given = {name for name, value in values.items() if value is not None and value is not False}

    def flags(names: set[str]) -> str:
        words = [options[n].word for n in sorted(names)]
        return ", ".join(f"-{w}" if len(w) == 1 else f"--{w}" for w in words)

    size = getattr(args, "size", None)
    typed = set(given)  # as the user wrote them: --size stands for itself in messages
    if size is not None:
        if given & {"rows", "cols"}:
            raise InvalidOptionError("give --size or --rows/--cols, not both")
        values["rows"] = values["cols"] = size
        given |= {"rows", "cols"}
    own = {o.name for o in info.options}
    foreign = given - own
    if foreign:
        named = flags(typed - own) if typed - own else ""
        named = ", ".join(n for n in (named, "--size" if size is not None and not {"rows", "cols"} <= own else "") if n)
        theirs = flags(own) if own else "none"
        raise InvalidOptionError(f"{args.game} takes no {named} (its options: {theirs})")
    if args.position is not None and given:
        typed_flags = ", ".join(f for f in (flags(typed), "--size" if size is not None else "") if f)
        raise InvalidOptionError(f"a position string carries its own options: give --position or {typed_flags}")
    if args.position is not None:
        game = make_game(args.game, position=args.position)
    else:
        chosen: dict[str, Any] = {o.name: o.default if values[o.name] is None else values[o.name] for o in info.options}
        game = make_game(args.game, **chosen)
    for move in args.moves.replace(",", " ").split():
        game.play(move)
    return game


def _add_budget(parser: argparse.ArgumentParser, seconds: float | None = 1.0) -> None:
    parser.add_argument(
        "--seconds", type=_positive_number, default=seconds, help=f"engine time per move (default {seconds})"
    )
    parser.add_argument("--iterations", type=_whole(1), help="engine iterations per move instead of time")
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


# solve --ask: the window of the one question asked (noughts.solve's window).
_ASK_WINDOWS: dict[str | None, tuple[int, int]] = {None: (-1, 1), "win": (0, 1), "loss": (-1, 0)}


def _cmd_solve(args: argparse.Namespace) -> int:
    from noughts.errors import SearchTimeout
    from noughts.solver import Solver, solve

    game = _make_game(args)
    solver = None
    if args.tables is not None:
        # A Solver whose table lives in the file: read before, written after (also when stopped).
        if args.method != "alphabeta":
            raise InvalidOptionError("--tables keeps alpha-beta's table: it does not go with --method pns")
        solver = Solver(tt_mb=args.tt_mb)
        if os.path.exists(args.tables):
            solver.load(args.tables)
            print(f"read the table of {args.tables}", file=sys.stderr, flush=True)
    print(f"solving {game.to_string()!r} ...", file=sys.stderr, flush=True)
    last: list[Any] = []
    tty = sys.stderr.isatty()

    def progress(status: Any) -> None:
        last[:] = [status]
        line = f"{status.nodes:,} nodes, {status.seconds:.0f} s: {status}"
        print(f"\r{line}\x1b[K" if tty else line, end="" if tty else "\n", file=sys.stderr, flush=True)

    options: dict[str, Any] = dict(
        max_seconds=args.max_seconds,
        move_values=args.values,
        weak=args.weak or args.ask is not None,
        window=_ASK_WINDOWS[args.ask],
        all_best_moves=not args.one_best_move,
        progress=progress,
        threads=args.threads,
        book=not args.no_book,
    )
    try:
        if solver is None:
            s = solve(game, tt_mb=args.tt_mb, method=args.method, **options)
        else:
            try:
                s = solver.solve(game, **options)
            finally:  # what it proved, finished or not
                solver.save(args.tables)
                end_progress = "\n" if tty and last else ""  # the progress line is rewritten in place on a terminal
                print(f"{end_progress}saved the table to {args.tables}", file=sys.stderr, flush=True)
    except SearchTimeout as e:
        print(f"noughts: {e}; proved so far: {e.proven}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        proved = f"; proved so far: {last[0]}" if last else ""
        print(f"\nnoughts: interrupted{proved}", file=sys.stderr)
        return 130
    finally:
        if last and tty:
            print(file=sys.stderr)
    print(f"value: {s.result}" + ("" if s.distance is None else f" in {s.distance} plies"))
    print(
        f"{'a best move' if (s.weak or args.one_best_move) and not args.values else 'best moves'}: {' '.join(m.name for m in s.best_moves)}"
    )
    if args.values:
        names = {m: game.move_name(m) for m in s.move_values}
        verdict = {1: "wins", 0: "draws", -1: "loses"}
        if args.ask is not None:  # a draw held to the window
            verdict[0] = "does not win" if args.ask == "win" else "does not lose"
        print("moves: " + ", ".join(f"{names[m]} {verdict[v]}" for m, v in sorted(s.move_values.items())))
    if not s.weak:
        print(f"principal variation: {' '.join(m.name for m in s.principal_variation)}")
    print(f"nodes: {s.nodes:,} in {s.seconds:.3f} s")
    return 0


def _cmd_analyse(args: argparse.Namespace) -> int:
    from noughts.mcts import MCTS

    game = _make_game(args)
    mover = game.to_move.name
    r = MCTS(seed=args.seed, threads=args.threads).search(
        game, iterations=args.iterations, seconds=None if args.iterations else args.seconds
    )
    verdict = {1: "win", 0: "draw", -1: "loss"}
    board = str(game)
    says_who = board.rsplit("\n", 1)[-1][:1].isalpha()  # Ultimate's and Quantum's boards end with whose turn it is
    print(board)
    print(("" if says_who else f"{mover} to move; ") + f"{r.iterations:,} iterations in {r.seconds:.2f} s")
    if r.proven_value is not None:
        print(f"proven: {verdict[r.proven_value]} for {mover}")
    # Values and proofs are the mover's: +1 / win means the move wins for them.
    print(f"{'move':>8} {'visits':>10} {'value':>7}  proven (for {mover})")
    for s in sorted(r.moves, key=lambda s: -s.visits)[: args.top]:
        proof = "-" if s.proven_value is None else verdict[s.proven_value]
        print(f"{s.move.name:>8} {s.visits:>10,} {s.value:>+7.3f}  {proof}")
    best = r.stats(r.best_move)
    why = f"proven {verdict[best.proven_value]}" if best.proven_value is not None else "the most visited"
    print(f"best: {r.best_move.name} ({why}); pv: {' '.join(m.name for m in r.pv)}")
    return 0


def _engine_player(iterations: int | None, seconds: float | None, c: float | None, seed: int) -> Any:
    from noughts.mcts import MCTS

    kwargs: dict[str, Any] = {"seed": seed}
    if c is not None:
        kwargs["c"] = c
    return MCTS(iterations=iterations, seconds=None if iterations else seconds, **kwargs)


def _describe_engine(iterations: int | None, seconds: float, c: float | None, seed: int) -> str:
    from noughts.mcts import DEFAULT_C

    budget = f"{iterations:,} iterations" if iterations else f"{seconds:g} s"
    return f"MCTS, {budget} a move, c={DEFAULT_C if c is None else c:g}, seed {seed}"


def _score_interval(result: Any) -> tuple[float, float]:
    """The 95% Wilson score interval of A's score (a draw half a point): inside 0..1, and not of zero width
    when every game went one way (4 wins of 4 do not prove a 100% score)."""
    import math

    n, p, z = result.games, result.score, 1.96
    if n == 0:
        return 0.0, 1.0
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)


def _duration(seconds: float) -> str:
    seconds = int(round(seconds))
    return f"{seconds // 60}m{seconds % 60:02d}s" if seconds >= 60 else f"{seconds}s"


def _cmd_match(args: argparse.Namespace) -> int:
    from noughts.mcts import match

    game = _make_game(args)
    start = game.to_string()

    def factory() -> Any:
        return type(game).from_string(start)

    a = _engine_player(args.a_iterations, args.a_seconds, args.a_c, args.seed)
    b = _engine_player(args.b_iterations, args.b_seconds, args.b_c, args.seed + 1)
    who = {
        "A": _describe_engine(args.a_iterations, args.a_seconds, args.a_c, args.seed),
        "B": _describe_engine(args.b_iterations, args.b_seconds, args.b_c, args.seed + 1),
    }
    print(f"{args.games} games of {args.game} from {start!r}, colours alternating (A is X in the first)")
    for side, text in who.items():
        print(f"  {side}: {text}")

    done = [0]
    started = time.perf_counter()

    records_file = None
    if args.records:
        # Opened before the first game: a path that cannot be written fails now, not after the match.
        try:
            records_file = open(args.records, "w", encoding="utf-8")  # noqa: SIM115 - closed below
        except OSError as e:
            raise InvalidOptionError(f"cannot write the records to {args.records}: {e.strerror or e}") from None

    def progress(*_: Any) -> None:
        done[0] += 1
        width = 30
        filled = width * done[0] // args.games
        elapsed = time.perf_counter() - started
        left = elapsed / done[0] * (args.games - done[0])
        eta = f", about {_duration(left)} left" if done[0] < args.games else ""
        print(
            f"\r[{'#' * filled}{'.' * (width - filled)}] {done[0]}/{args.games} games, {_duration(elapsed)}{eta}   ",
            end="",
            file=sys.stderr,
            flush=True,
        )

    try:
        result = match(a, b, factory, games=args.games, on_game=progress)
    except BaseException:
        if records_file is not None:
            records_file.close()
        raise
    print(file=sys.stderr)
    low, high = _score_interval(result)
    print(
        f"A against B: +{result.wins} ={result.draws} -{result.losses} in {result.games} games; "
        f"A scored {100 * result.score:.1f}% (95% interval {100 * low:.1f}% to {100 * high:.1f}%)"
    )
    if records_file is not None:
        from noughts.records import Record, write_records

        def record(i: int, rec: Any) -> Record:
            game = factory()
            for m in rec.moves:
                game.play(m)
            a_is_x = rec.a_played == Player.X
            return Record.from_game(
                game, Event="noughts match", Round=str(i), X="A" if a_is_x else "B", O="B" if a_is_x else "A"
            )

        with records_file:
            write_records([record(i, rec) for i, rec in enumerate(result.records, 1)], records_file)
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
    humans: set[Player] = {"x": {Player.X}, "o": {Player.O}, "both": {Player.X, Player.O}, "none": set()}[args.human]
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

    # Input that is not UTF-8 is the protocol's problem to answer (an unknown
    # command), not a reason to die: undecodable bytes read as U+FFFD.
    if hasattr(sys.stdin, "reconfigure"):
        sys.stdin.reconfigure(errors="replace")
    return engine.run(sys.stdin, sys.stdout)


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
    from noughts import __version__

    parser.add_argument("--version", action="version", version=f"noughts {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="command")

    p = commands.add_parser("play", help="play a game in the terminal against the engine")
    _add_game_arguments(p)
    p.add_argument(
        "--human",
        type=str.lower,
        choices=["x", "o", "both", "none"],
        default="x",
        help="who types moves: x, o, both or none (any case; default x)",
    )
    p.add_argument("--auto", action="store_true", help="engine against engine (same as --human none)")
    _add_budget(p)
    p.set_defaults(run=_cmd_play)

    p = commands.add_parser("solve", help="solve a position exactly")
    _add_game_arguments(p)
    p.add_argument("--max-seconds", type=_positive_number, default=None, help="give up after this long")
    p.add_argument("--tt-mb", type=_positive_number, default=64, help="transposition table memory (default 64 MB)")
    p.add_argument("--values", action="store_true", help="also the value of every legal move")
    p.add_argument(
        "--weak", action="store_true", help="win, draw or loss only: no distance, one best move, no line of play"
    )
    p.add_argument(
        "--ask",
        choices=("win", "loss"),
        help="a weak solve of one question: can the mover win (win), or can they avoid losing (loss)? "
        "About half the work, when the other answer is known or not wanted",
    )
    p.add_argument(
        "--one-best-move",
        action="store_true",
        help="the exact score and line of play, but only its first move as best move (faster)",
    )
    p.add_argument(
        "--method",
        choices=("alphabeta", "pns"),
        default="alphabeta",
        help="alphabeta (default: value, distance, fastest line) or pns (proof-number search: "
        "value and best moves of deep endgames, no distance)",
    )
    p.add_argument(
        "--threads",
        type=_whole(1),
        default=1,
        help="threads sharing one table (default 1)",
    )
    p.add_argument(
        "--no-book",
        action="store_true",
        help="search every position, without the opening book shipped for the game (Connect Four's)",
    )
    p.add_argument(
        "--tables",
        metavar="FILE",
        help="keep the solver's table in FILE: read before the solve if it exists, written after it, also when the "
        "solve is stopped (--max-seconds, Ctrl-C), so that a long solve goes on in the next run",
    )
    p.set_defaults(run=_cmd_solve)

    p = commands.add_parser("perft", help="count move sequences to a depth")
    _add_game_arguments(p)
    p.add_argument("--depth", type=_whole(1), default=5, help="the deepest depth to count (default 5)")
    p.set_defaults(run=_cmd_perft)

    p = commands.add_parser("analyse", aliases=["analyze"], help="MCTS analysis: top moves with visits and values")
    _add_game_arguments(p)
    _add_budget(p)
    p.add_argument("--threads", type=_whole(1), default=1)
    p.add_argument("--top", type=_whole(1), default=10, help="how many moves to list (default 10)")
    p.set_defaults(run=_cmd_analyse)

    p = commands.add_parser("match", help="engine settings A against B")
    _add_game_arguments(p, default="ultimate")
    p.add_argument("--games", type=_whole(1), default=20, help="games to play (default 20)")
    for side in ("a", "b"):
        p.add_argument(f"--{side}-iterations", type=_whole(1), default=None)
        p.add_argument(f"--{side}-seconds", type=_positive_number, default=0.05)
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
        "--margin-ms",
        type=float,
        default=codingame_margin(),
        help="CodinGame: stop searching this early (ms; more after a late answer)",
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
    p.add_argument(
        "--margin-ms",
        type=float,
        default=codingame_margin(),
        help="stop searching this early (ms; more after a late answer)",
    )
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
