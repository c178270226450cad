"""The engine protocol: a line protocol on stdin/stdout, modelled on UCI (docs/protocol.md).

Another program selects a game, sets a position, and asks for a move with
``go``; searches run on a worker thread so that ``stop``, ``isready`` and
``quit`` are answered while one runs. Malformed lines get ``error ...`` and
the engine stays alive.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable, Iterator
from typing import Any, TextIO

from noughts import __version__
from noughts.errors import Error
from noughts.mcts import MCTS, check_c, check_threads
from noughts.registry import GAME_INFO, GameOption, make_game
from noughts.solver import Solver

__all__ = ["Engine", "run"]

# A game option in a "game" command: its protocol word or its constructor name.
_OPTION_WORDS: dict[str, GameOption] = {
    word: option for info in GAME_INFO.values() for option in info.options for word in (option.word, option.name)
}


def _game_usage() -> str:
    """The "game" command's forms, one per game with its options: ``game classic [rows=R] ... [misere]``."""
    forms = []
    for info in GAME_INFO.values():
        words = [f"[{o.word}]" if o.is_flag else f"[{o.word}={o.word[0].upper()}]" for o in info.options]
        forms.append(" ".join(["game", info.name, *words]))
    return " | ".join(forms)


#: The longest line the engine reads, in characters; a longer one is answered with an error and skipped.
MAX_LINE = 8192
#: The longest answer to a bad line: messages quote at most this much of what they were given.
_MAX_MESSAGE = 300
#: The largest budgets of `go`: movetime in milliseconds (about 11.5 days) and iterations (the C++ counter).
MAX_MOVETIME = 10**9
MAX_ITERATIONS = 2**63 - 1


class ProtocolError(Exception):
    """A line the engine cannot act on; answered with ``error <message>``."""


def _shown(text: str, limit: int = 40) -> str:
    """A word of the input for a message: quoted, and cut after `limit` characters."""
    return repr(text if len(text) <= limit else text[:limit] + "...")


def _int(word: str, what: str, maximum: int | None = None) -> int:
    """A whole number >= 0 written in ASCII digits (at most `maximum`)."""
    if not (word.isascii() and word.isdigit()):
        raise ProtocolError(f"{what} must be a whole number >= 0, not {_shown(word)}")
    digits = word.lstrip("0")
    if maximum is not None and (len(digits) > len(str(maximum)) or int(digits or "0") > maximum):
        raise ProtocolError(f"{what} must be at most {maximum}, not {_shown(word)}")
    if len(digits) > 30:  # int() refuses 4,300 digits and more; no setting needs a tenth of that
        raise ProtocolError(f"{what} is too large: {_shown(word)}")
    return int(digits or "0")


class Engine:
    """One protocol session; ``handle`` takes a line, answers go to ``write``."""

    def __init__(self, write: Callable[[str], None]) -> None:
        self._write_raw = write
        self._lock = threading.Lock()
        self.game_name = "classic"
        self.options: dict[str, Any] = {}
        self.game = make_game("classic")
        self.seed, self.c, self.threads = 0, 1.4, 1
        self._mcts: MCTS | None = None
        self._solver = Solver()  # its table carries over from one move's solve to the next
        self._search: threading.Thread | None = None
        self._stop = threading.Event()
        self._busy = threading.Event()
        self.running = True

    # ---- output -------------------------------------------------------------
    def write(self, line: str) -> None:
        with self._lock:
            self._write_raw(line)

    # ---- input --------------------------------------------------------------
    def handle(self, line: str) -> None:
        if len(line) > MAX_LINE:
            self.refuse_long_line()
            return
        words = line.split()  # words are separated by blanks: linear in the line's length
        if not words:
            return
        command, args = words[0].lower(), words[1:]
        handler = getattr(self, f"_cmd_{command}", None) if command.isidentifier() else None
        if handler is None:
            self.write(f"error unknown command {_shown(command)}; send 'help' for the list")
            return
        try:
            handler(args)
        except (ProtocolError, Error) as e:
            message = str(e)
            if len(message) > _MAX_MESSAGE:
                message = message[:_MAX_MESSAGE] + "..."
            self.write(f"error {message}")

    def refuse_long_line(self) -> None:
        """The answer to a line longer than MAX_LINE, which is not read."""
        self.write(f"error the line is longer than {MAX_LINE} characters, the limit: it was ignored")

    def searching(self) -> bool:
        return self._busy.is_set()

    def _finish(self, move: str) -> None:
        """The last act of a search: from here on the engine takes new commands."""
        self._busy.clear()
        self.write(f"bestmove {move}")

    def _idle(self) -> None:
        if self.searching():
            raise ProtocolError("a search is running: send 'stop' first")

    # ---- commands -------------------------------------------------------------
    def _cmd_help(self, args: list[str]) -> None:
        for text in (
            "commands: noughts, isready, game, position, play, undo, legal, show, setoption, go, stop, quit",
            _game_usage(),
            "position start [moves M ...] | position string <position string> [moves M ...]",
            "go [iterations N] [movetime MS] | go solve [movetime MS]",
            "setoption name seed|c|threads value V",
        ):
            self.write(f"help {text}")

    def _cmd_noughts(self, args: list[str]) -> None:
        self.write(f"id name noughts {__version__}")
        self.write("id games " + " ".join(GAME_INFO))
        self.write("noughtsok")

    _cmd_uci = _cmd_noughts

    def _cmd_isready(self, args: list[str]) -> None:
        self.write("readyok")

    def _cmd_game(self, args: list[str]) -> None:
        self._idle()
        if not args:
            raise ProtocolError(f"game needs a name: {', '.join(GAME_INFO)}")
        name, options = args[0].lower(), dict[str, Any]()
        for word in args[1:]:
            key, _, value = word.lower().partition("=")
            option = _OPTION_WORDS.get(key)
            if option is None or option.is_flag == bool(value):  # flags take no value, numbers need one
                raise ProtocolError(f"unknown game option {_shown(word)}")
            options[option.name] = True if option.is_flag else _int(value, key)
        game = make_game(name, **options)
        self.game_name, self.options, self.game = name, options, game
        self._mcts = None
        self._solver = Solver()

    def _cmd_position(self, args: list[str]) -> None:
        self._idle()
        moves: list[str] = []
        if "moves" in args:
            i = args.index("moves")
            args, moves = args[:i], args[i + 1 :]
        if args == ["start"]:
            game = make_game(self.game_name, **self.options)
        elif args[:1] == ["string"] and len(args) > 1:
            game = make_game(self.game_name, position=" ".join(args[1:]))
        else:
            raise ProtocolError("position needs 'start' or 'string <position string>'")
        for m in moves:
            game.play(m)  # an error leaves the previous position in place
        self.game = game

    def _cmd_play(self, args: list[str]) -> None:
        self._idle()
        if len(args) != 1:
            raise ProtocolError("play takes one move")
        self.game.play(args[0])

    def _cmd_undo(self, args: list[str]) -> None:
        self._idle()
        if not self.game.move_ids:
            raise ProtocolError("there is no move to undo")
        self.game.undo()

    def _cmd_legal(self, args: list[str]) -> None:
        self.write(" ".join(["legal"] + [m.name for m in self.game.legal_moves()]))

    def _cmd_show(self, args: list[str]) -> None:
        for line in str(self.game).splitlines():
            self.write(f"board {line}")
        self.write(f"position {self.game.to_string()}")
        outcome = self.game.outcome()
        self.write(f"result {outcome.result}" if outcome else f"tomove {self.game.to_move.name}")

    def _cmd_setoption(self, args: list[str]) -> None:
        self._idle()
        if len(args) != 4 or args[0] != "name" or args[2] != "value":
            raise ProtocolError("setoption name <seed|c|threads> value <v>")
        name, value = args[1].lower(), args[3]
        if name == "seed":
            self.seed = _int(value, "seed")
        elif name == "threads":
            self.threads = check_threads(_int(value, "threads"))
        elif name == "c":
            try:
                number = float(value)
            except ValueError:
                raise ProtocolError(f"c must be a number, not {_shown(value)}") from None
            self.c = check_c(number)  # a finite number >= 0, else InvalidOptionError
        else:
            raise ProtocolError(f"unknown option {_shown(name)}: seed, c, threads")
        self._mcts = None

    def _cmd_go(self, args: list[str]) -> None:
        self._idle()
        if self.game.is_over():
            self.write("bestmove none")
            return
        iterations: int | None = None
        movetime: int | None = None
        exact = False
        i = 0
        while i < len(args):
            word = args[i]
            if word == "solve":
                exact, i = True, i + 1
            elif word in ("iterations", "movetime") and i + 1 < len(args):
                value = _int(args[i + 1], word, MAX_ITERATIONS if word == "iterations" else MAX_MOVETIME)
                if value == 0:
                    raise ProtocolError(f"{word} must be positive")
                iterations, movetime = (value, movetime) if word == "iterations" else (iterations, value)
                i += 2
            else:
                raise ProtocolError(f"cannot read go argument {_shown(word)}")
        if iterations is None and movetime is None:
            movetime = 1000
        if self._mcts is None:
            self._mcts = MCTS(seed=self.seed, c=self.c, threads=self.threads)
        self._stop.clear()
        self._busy.set()
        game = self.game.copy()
        self._search = threading.Thread(target=self._work, args=(exact, game, iterations, movetime), daemon=True)
        self._search.start()

    def _cmd_stop(self, args: list[str]) -> None:
        self._stop.set()
        if self._search is not None:
            self._search.join()

    def _cmd_quit(self, args: list[str]) -> None:
        self._cmd_stop(args)
        self.running = False

    # ---- searches (worker thread) -----------------------------------------------
    def _work(self, exact: bool, game: Any, iterations: int | None, movetime: int | None) -> None:
        """The search thread: it ends with ``bestmove``, or with ``error search failed: ...``; either way
        the engine is idle again and takes new commands."""
        try:
            move = self._solve(game, movetime) if exact else self._think(game, iterations, movetime)
        except Exception as e:  # never let the worker die silently, nor leave the engine busy
            message = str(e)[:_MAX_MESSAGE]
            self._busy.clear()
            self.write(f"error search failed: {type(e).__name__}: {message}")
            return
        self._finish(move)

    def _think(self, game: Any, iterations: int | None, movetime: int | None) -> str:
        """MCTS in slices of at most 0.1 s, reporting after each; the tree carries over between slices."""
        import time

        assert self._mcts is not None
        start, done, result = time.perf_counter(), 0, None
        while not self._stop.is_set():
            left_s = None if movetime is None else movetime / 1000 - (time.perf_counter() - start)
            left_n = None if iterations is None else iterations - done
            if (left_s is not None and left_s <= 0) or (left_n is not None and left_n <= 0):
                break
            slice_s = 0.1 if left_s is None else min(0.1, left_s)
            result = self._mcts.search(game, iterations=left_n, seconds=slice_s)
            done += result.iterations
            pv = " ".join(m.name for m in result.pv)
            self.write(
                f"info iterations {done} time {int((time.perf_counter() - start) * 1000)} "
                f"value {result.value:.3f} pv {pv}"
            )
            if result.proven:
                self.write(f"info proven {result.proven_value}")
                break
        if result is None:
            result = self._mcts.search(game, iterations=1)
        return str(result.best_move.name)

    def _solve(self, game: Any, movetime: int | None) -> str:
        try:
            s = self._solver.solve(game, max_seconds=None if movetime is None else movetime / 1000, stop=self._stop)
        except Error as e:
            self.write(f"info {e}")
            return self._think(game, 1000, None)
        dist = "" if s.distance is None else f" distance {s.distance}"
        self.write(
            f"info solved value {s.value}{dist} nodes {s.nodes} pv {' '.join(m.name for m in s.principal_variation)}"
        )
        return str(s.principal_variation[0].name)


def _lines(stdin: TextIO) -> Iterator[str | None]:
    """The lines of stdin, None for a line longer than MAX_LINE: it is read in pieces and dropped, so no
    line is ever held whole in memory."""
    while True:
        line = stdin.readline(MAX_LINE + 1)
        if not line:
            return
        if len(line) > MAX_LINE and not line.endswith("\n"):
            while line and not line.endswith("\n"):
                line = stdin.readline(MAX_LINE + 1)
            yield None
        else:
            yield line


def run(stdin: TextIO = sys.stdin, stdout: TextIO = sys.stdout) -> int:
    """Reads commands until 'quit' or the end of input."""

    def write(line: str) -> None:
        stdout.write(line + "\n")
        stdout.flush()

    engine = Engine(write)
    for line in _lines(stdin):
        if line is None:
            engine.refuse_long_line()
        else:
            engine.handle(line.strip())
        if not engine.running:
            return 0
    # End of input: let a running search finish and answer (piped use), then leave.
    if engine._search is not None:
        engine._search.join()
    return 0
