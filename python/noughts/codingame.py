"""CodinGame's Ultimate Tic-Tac-Toe protocol, so the engine can play in those arenas (docs/protocol.md).

Each turn the referee sends ``opponentRow opponentCol`` (``-1 -1`` when we
move first), then ``validActionCount`` and that many ``row col`` lines, all on
the 9x9 grid (0-based, row 0 at the top); we answer ``row col``.

Time is kept as CodinGame keeps it, by the rule of ``noughts._core.TurnClock``
(which the exported bot shares): a turn's budget runs from the arrival of its
first line (on the first turn, if that line was already waiting, from the
start of this process, since the referee's clock may start before Python is
ready), and the search stops ``margin_ms`` before the budget ends so that the
answer is out in time on a loaded machine; after an answer that went out
later than planned the margin grows by that lateness and shrinks back over
the next turns. By default the game is scored as CodinGame's referee scores
it (``Ultimate(tiebreak=True)``: a full big board goes to the player with more
small boards); ``tiebreak=False`` plays the seeds' rule (such a game is a
draw).
"""

from __future__ import annotations

import gc
import os
import sys
import time
from typing import TextIO

from noughts._core import TurnClock
from noughts.errors import InvalidMoveError, InvalidOptionError
from noughts.mcts import MCTS, SearchResult
from noughts.ultimate import Ultimate

__all__ = ["DEFAULT_MARGIN_MS", "grid_to_id", "id_to_grid", "process_start", "run", "start_position"]

#: How long before the end of a turn's budget the search stops: room for
#: reading the turn and writing the answer and for the scheduler of a loaded
#: machine (the exported bot's default too).
DEFAULT_MARGIN_MS: float = TurnClock.DEFAULT_MARGIN_MS
#: The longest line the referee sends is a handful of characters; anything
#: far longer is not the protocol.
_MAX_LINE = 256


def grid_to_id(row: int, col: int) -> int:
    """The move id (board * 9 + cell) of a 9x9 grid square (row and column 0..8)."""
    return int(Ultimate.grid_to_id(row, col))


def id_to_grid(move: int) -> tuple[int, int]:
    """The 9x9 grid square (row, column) of an Ultimate move id (0..80)."""
    row, col = Ultimate.id_to_grid(move)
    return int(row), int(col)


def process_start() -> float:
    """When this process started, on the time.perf_counter() clock (Linux; elsewhere: now)."""
    try:
        with open("/proc/self/stat", "rb") as f:
            fields = f.read().rsplit(b")", 1)[1].split()
        started = int(fields[19]) / os.sysconf("SC_CLK_TCK")  # seconds after boot
        age = time.clock_gettime(time.CLOCK_BOOTTIME) - started
    except (OSError, ValueError, IndexError, AttributeError):
        return time.perf_counter()
    return time.perf_counter() - max(0.0, age)


def start_position(text: str | None, *, tiebreak: bool) -> Ultimate:
    """The game to start from: the empty board (None or "-"), a position string, or moves "e5,d4"."""
    if text is None or text.strip() in ("", "-"):
        return Ultimate(tiebreak=tiebreak)
    if "/" in text and " " in text.strip():
        game = Ultimate.from_string(text)
        if game.tiebreak != tiebreak:
            game = Ultimate.from_string(text.replace(" tiebreak", "") + (" tiebreak" if tiebreak else ""))
        return game
    game = Ultimate(tiebreak=tiebreak)
    for move in text.replace(",", " ").split():
        game.play(move)
    return game


def _read_line(stream: TextIO) -> str:
    line = stream.readline(_MAX_LINE + 1)
    if not line:
        raise EOFError
    if len(line) > _MAX_LINE:
        raise InvalidMoveError(f"referee line longer than {_MAX_LINE} characters: this is not CodinGame's protocol")
    return line


def _numbers(line: str, count: int, what: str) -> list[int]:
    words = line.split()
    try:
        values = [int(w) for w in words]
    except ValueError:
        values = []
    if len(values) != count or len(words) != count:
        shown = line.strip()[:60] or "an empty line"
        raise InvalidMoveError(f"expected {what} ({count} whole numbers), got {shown!r}")
    return values


def _check_ms(name: str, value: float) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value < 1e9:
        raise InvalidOptionError(f"{name} must be a number of milliseconds > 0, not {value!r}")
    return float(value)


def _diagnostic(game: Ultimate, move: int, result: SearchResult, ms: float, margin: float) -> str:
    proven = {None: "no", 1: "win", 0: "draw", -1: "loss"}[result.proven_value]
    pv = " ".join(m.name for m in result.pv[:8])
    return (
        f"noughts: {game.move_name(move)} ms={ms:.1f} margin={margin:.1f} iterations={result.iterations} "
        f"visits={result.iterations + result.reused_visits} value={result.value:+.3f} proven={proven} pv={pv}"
    )


def run(
    stdin: TextIO = sys.stdin,
    stdout: TextIO = sys.stdout,
    *,
    ms: float = 100.0,
    first_ms: float = 1000.0,
    margin_ms: float = DEFAULT_MARGIN_MS,
    threads: int = 1,
    seed: int = 0,
    tiebreak: bool = True,
    start: str | None = None,
    diagnostics: TextIO | None = None,
    started_at: float | None = None,
) -> int:
    """Plays CodinGame's protocol until the referee's input ends; returns 0.

    ``ms`` and ``first_ms`` are the time limits of a turn and of the first
    turn, counted from the arrival of the turn's first line (the first turn
    from `started_at`, by default the start of this process, if its line was
    already waiting); the search stops ``margin_ms`` before them, or longer
    after late answers. ``start`` is the position the game begins from (see
    :func:`start_position`). One line a move goes to
    `diagnostics` (e.g. sys.stderr) when given. Input that is not the
    protocol raises InvalidMoveError, naming what was wrong.
    """
    ms, first_ms = _check_ms("ms", ms), _check_ms("first_ms", first_ms)
    if isinstance(margin_ms, bool) or not isinstance(margin_ms, (int, float)) or not 0 <= margin_ms < 1e9:
        raise InvalidOptionError(f"margin_ms must be a number of milliseconds >= 0, not {margin_ms!r}")
    game = start_position(start, tiebreak=tiebreak)
    engine = MCTS(seed=seed, threads=threads)
    clock = TurnClock(ms, first_ms, float(margin_ms))
    started = process_start() if started_at is None else started_at
    # Collections run between turns, never inside one's budget.
    gc.disable()
    try:
        while True:
            ready = time.perf_counter()
            line = _read_line(stdin)
            arrived = time.perf_counter()
            before = clock.began_before_read_ms((arrived - ready) * 1000, (arrived - started) * 1000)
            began = arrived - before / 1000
            row, col = _numbers(line, 2, "the opponent's move: row col, or -1 -1")
            if (row, col) != (-1, -1):
                move = grid_to_id(row, col)
                try:
                    game.play(move)
                except ValueError as e:
                    raise InvalidMoveError(f"the opponent's move {row} {col} is not legal here: {e}") from None
            (count,) = _numbers(_read_line(stdin), 1, "the number of valid actions")
            if not 0 <= count <= 81:
                raise InvalidMoveError(f"the number of valid actions must be 0..81, not {count}")
            valid = {grid_to_id(*_numbers(_read_line(stdin), 2, "a valid action: row col")) for _ in range(count)}
            if game.is_over():
                raise InvalidMoveError("the referee asks for a move, but the game is over by the rules")
            margin = clock.margin_ms
            left_ms = clock.search_ms((time.perf_counter() - began) * 1000)
            result = engine.search(game, seconds=left_ms / 1000)
            move = result.best_move.id
            if valid and move not in valid:  # trust the referee's list if the rules ever differ
                ranked = [s.move.id for s in result.moves]
                move = next((m for m in ranked if m in valid), min(valid))
            r, c = id_to_grid(move)
            stdout.write(f"{r} {c}\n")
            stdout.flush()
            clock.answered((time.perf_counter() - began) * 1000)
            # The answer first: the diagnostics' formatting and write are not the referee's time.
            if diagnostics is not None:
                diagnostics.write(_diagnostic(game, move, result, (time.perf_counter() - began) * 1000, margin) + "\n")
                diagnostics.flush()
            game.play(move)
            # The youngest generation only: a turn's garbage, in microseconds. A full
            # collection takes milliseconds, and the referee's clock for the next turn
            # may already run while it does (an opponent that answers at once).
            gc.collect(0)
    except EOFError:
        return 0
    finally:
        gc.enable()
