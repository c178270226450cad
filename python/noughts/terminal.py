"""``noughts play``: a game in the terminal, against the engine or between humans.

The game's own text board (``render()``), with the last move, the winning line
and Ultimate's decided boards marked (in colour where the terminal has it, in
words always). Line editing and history come from prompt_toolkit when it is
installed (the ``play`` extra) and the input is a terminal, else from the
standard input line. Works with stdin not a TTY (moves piped in), so it can
be scripted and tested: ``play`` takes its input and output streams.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable
from typing import Any, TextIO

from noughts._core import Player
from noughts.errors import Error
from noughts.mcts import MCTS

__all__ = ["Console", "play"]

COMMANDS = "undo, hint, moves, help, quit"
AFTER_THE_GAME = "rematch (sides swapped), new (the same sides), save [FILE], quit"

# ANSI styles, used only where the output is a terminal that has colour.
STYLE = {
    "X": "\x1b[1;31m",
    "O": "\x1b[1;34m",
    "last": "\x1b[7m",
    "win": "\x1b[1;42;97m",
    "drawn": "\x1b[2m",
    "note": "\x1b[2m",
    "bold": "\x1b[1m",
}
RESET = "\x1b[0m"


def _wants_colour(stream: TextIO) -> bool:
    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    return bool(getattr(stream, "isatty", lambda: False)())


class Console:
    """Where ``play`` reads and writes: lines in, text out, colour if ``colour``."""

    def __init__(self, stdin: TextIO | None = None, stdout: TextIO | None = None, colour: bool | None = None) -> None:
        self.stdin = stdin or sys.stdin
        self.stdout = stdout or sys.stdout
        self.colour = _wants_colour(self.stdout) if colour is None else colour
        self._session: Any = None
        interactive = self.stdin is sys.stdin and self.stdout is sys.stdout and sys.stdin.isatty()
        if interactive:
            try:
                from prompt_toolkit import PromptSession
                from prompt_toolkit.history import InMemoryHistory

                self._session = PromptSession(history=InMemoryHistory())
            except ImportError:  # the plain fallback: input() with readline's editing where Python has it
                try:
                    import readline  # noqa: F401
                except ImportError:  # pragma: no cover - Windows without pyreadline
                    pass
        self._interactive = interactive

    def paint(self, text: str, style: str) -> str:
        return f"{STYLE[style]}{text}{RESET}" if self.colour else text

    def say(self, text: str = "") -> None:
        self.stdout.write(text + "\n")
        self.stdout.flush()

    def ask(self, prompt: str, words: list[str] | None = None) -> str | None:
        """One line of input without its newline; None at the end of input. ``words`` complete with Tab."""
        if self._session is not None:
            from prompt_toolkit.completion import WordCompleter

            completer = WordCompleter(words, ignore_case=True, sentence=True) if words else None
            try:
                return str(self._session.prompt(prompt, completer=completer))
            except EOFError:
                return None
        if self._interactive:
            try:
                return input(prompt)
            except EOFError:
                return None
        self.stdout.write(prompt)
        self.stdout.flush()
        line = self.stdin.readline()
        return None if not line else line.rstrip("\n")


# ---- what to mark on the board ------------------------------------------------------
def _width(game: Any) -> int:
    """Columns of the game's grid (Classic's board, Ultimate's 9x9, Quantum's 3x3): cells are row * width + column."""
    return int(game.observation_shape[2])


def _last_cells(game: Any) -> set[tuple[int, int]]:
    """Row and column of the cells the last move marked (the game says which)."""
    if not game.move_ids:
        return set()
    return {divmod(cell, _width(game)) for cell in game.move_cells(game.move_ids[-1])}


def _deciding_lines(game: Any) -> list[tuple[int, ...]]:
    """The cells of the lines that decided a finished game (Ultimate: its small boards), as the game names them."""
    if not game.is_over() or game.winner is None:
        return []
    lines = game.completed_lines()
    if hasattr(game, "classical_marks") or hasattr(game, "forced_board"):  # owned by players: the winner's
        return [cells for owner, cells in lines if owner == game.winner]
    return [cells for _, cells in lines]  # Classic: by symbol (misere: the loser's line decides)


def _winning_cells(game: Any) -> set[tuple[int, int]]:
    """The painted cells of the deciding lines (Classic only: Ultimate's lines are of boards)."""
    if not hasattr(game, "rows"):
        return set()
    return {divmod(cell, game.cols) for cells in _deciding_lines(game) for cell in cells}


def _board_text(game: Any, console: Console, last: set[tuple[int, int]]) -> list[str]:
    """The game's text board, with the last move, the winning cells and decided boards painted."""
    lines = str(game).split("\n")
    if lines and lines[-1][:1].isalpha():
        lines = lines[:-1]  # a status line (Ultimate, Quantum): the prompt says whose turn it is
    if not hasattr(game, "rows") and not hasattr(game, "forced_board"):
        return lines  # Quantum: cells hold several marks; the words below the board say what changed
    header = lines[0]
    columns = [m.start() for m in re.finditer(r"[a-z]+", header)]
    win = _winning_cells(game)
    boards = game.board_states() if hasattr(game, "board_states") else None
    out = [header]
    row = 0
    for line in lines[1:]:
        if not line.split() or not line.split()[0].isdigit():
            out.append(line)
            continue
        chars = list(line)
        painted: dict[int, str] = {}
        for col, x in enumerate(columns):
            if x >= len(chars) or chars[x] not in "XO.":
                continue
            style = None
            if boards is not None:
                state = boards[(row // 3) * 3 + col // 3].name
                style = {"X": "X", "O": "O", "DRAWN": "drawn"}.get(state)
            if style is None and chars[x] in "XO":
                style = chars[x]
            if (row, col) in win:
                style = "win"
            if (row, col) in last:
                style = "last"
            if style is not None and console.colour:
                painted[x] = console.paint(chars[x], style)
        out.append("".join(painted.get(i, ch) for i, ch in enumerate(chars)))
        row += 1
    if boards is not None:  # the big board beside the first rows: who holds each small board
        symbol = {"OPEN": ".", "X": "X", "O": "O", "DRAWN": "="}
        forced = game.forced_board
        for r in range(3):
            cells = []
            for b in range(3 * r, 3 * r + 3):
                s = symbol[boards[b].name]
                cells.append("*" if b == forced and not game.is_over() else s)
            out[1 + r] += "     " + " ".join(cells) + ("   boards (X/O won, = drawn, * to play)" if r == 0 else "")
    return out


def _plain(message: str) -> str:
    """An engine message without move ids: the user types and reads notation."""
    return re.sub(r" \(id \d+\)", "", message)


def _collapse_words(before: list[Any], after: list[Any]) -> str | None:
    """Which marks a Quantum collapse made classical, and where: 'x1 landed in a1, o2 in b2'."""
    landed = []
    for cell, (old, new) in enumerate(zip(before, after)):
        if old is None and new is not None:
            player, number = new
            landed.append((number, f"{player.name.lower()}{number} in {'abc'[cell % 3]}{cell // 3 + 1}"))
    if not landed:
        return None
    return "collapse: " + ", ".join(text for _, text in sorted(landed)) + " (now classical)"


def _value_words(player: Player, value: float, proven: int | None) -> str:
    if proven is not None:
        return {
            1: f"{player.name} wins with best play",
            0: "a draw with best play",
            -1: f"{player.name} loses with best play",
        }[proven]
    return f"{value:+.2f} for {player.name} (+1: {player.name} wins, -1: loses)"


# ---- the game loop ---------------------------------------------------------------------
class _Table:
    """One game at the table: plays moves and says what happened."""

    def __init__(self, game: Any, humans: set[Player], engine: MCTS, seconds: float, console: Console) -> None:
        self.game, self.humans, self.engine, self.seconds, self.console = game, humans, engine, seconds, console
        self.last: set[tuple[int, int]] = _last_cells(game)

    def play(self, move: Any, who: str) -> None:
        game = self.game
        marks = game.classical_marks() if hasattr(game, "classical_marks") else None
        game.play(move)  # raises, leaving the game as it was, for an illegal move
        self.last = _last_cells(game)
        self.console.say(f"{who} played {game.history[-1].name}")
        if marks is not None:
            words = _collapse_words(marks, game.classical_marks())
            if words:
                self.console.say(words)

    def show(self) -> None:
        c = self.console
        c.say()
        for line in _board_text(self.game, c, self.last):
            c.say(line)
        outcome = self.game.outcome()
        if outcome is not None:
            self.console.say(self._end_words(outcome))

    def _end_words(self, outcome: Any) -> str:
        # The game words its own result; the table adds only the score.
        return self.console.paint(f"Game over ({outcome.result}): {self.game.explanation}", "bold")

    def status(self) -> str:
        """Whose turn it is and what they play, in the game's own words, as the prompt."""
        game = self.game
        you = " (you)" if game.to_move in self.humans and len(self.humans) == 1 else ""
        return f"{game.status}{you} > "

    def engine_move(self) -> None:
        game = self.game
        result = self.engine.search(game, seconds=self.seconds)
        self.play(result.best_move, f"{game.to_move.name} (engine)")
        self.console.say(
            self.console.paint(
                f"  the engine's view: {_value_words(result.to_move, result.value, result.proven_value)}", "note"
            )
        )


def _instructions(game: Any, humans: set[Player], console: Console) -> None:
    name = type(game).__name__
    examples = " ".join(m.name for m in game.legal_moves()[:3])
    if not humans:
        sides = "the engine plays both sides"
    elif len(humans) == 1:
        sides = f"you play {next(iter(humans)).name}"
    else:
        sides = "two players at one keyboard"
    what = name
    if hasattr(game, "rows"):  # Classic: its options in words
        flags = [
            f for f, on in (("misere", game.misere), ("free choice", game.free_choice), ("gravity", game.gravity)) if on
        ]
        what = f"{name} {game.rows}x{game.cols}, {game.k} in a row" + "".join(f", {f}" for f in flags)
    if game.ply:
        what += f", from {game.to_string()!r}"
    console.say(f"noughts: {what}; {sides}.")
    console.say(f"Type a move in notation (such as {examples}), or one of: {COMMANDS}.")
    if hasattr(game, "pending_collapse"):
        console.say("A move is a spooky pair of cells (a1-b2); when a cycle closes, the other player picks where")
        console.say("the closing mark lands (@a1), and the rest of the cycle follows.")


def play(
    game: Any,
    humans: set[Player],
    *,
    seconds: float = 1.0,
    seed: int = 0,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    console: Console | None = None,
    save: Callable[[Any, str], None] | None = None,
) -> int:
    """Plays games until the user quits or input ends; returns 0 (the exit status).

    After a game: ``rematch`` (sides swapped), ``new`` (the same sides), ``save
    [FILE]`` (the record, by default ``noughts-game.txt``), ``quit``. With nobody
    at the keyboard (``humans`` empty) one game is played and the function returns.
    """
    console = console or Console(stdin, stdout)
    engine = MCTS(seed=seed)
    start = game.to_string()
    _instructions(game, humans, console)
    while True:
        table = _Table(game, humans, engine, seconds, console)
        table.show()
        if not _play_one(table):
            return 0
        if not humans:
            return 0
        next_humans = _after_the_game(table, start, console, save)
        if next_humans is None:
            return 0
        humans = next_humans
        game = type(game).from_string(start)
        console.say(f"\nA new game: you play {' and '.join(p.name for p in sorted(humans, key=int))}.")


def _play_one(table: _Table) -> bool:
    """Plays the game to its end; False when the user quit or input ended."""
    game, console = table.game, table.console
    while not game.is_over():
        if game.to_move not in table.humans:
            table.engine_move()
            table.show()
            continue
        line = console.ask(table.status(), [m.name for m in game.legal_moves()] + COMMANDS.split(", "))
        if line is None:
            console.say("\nend of input")
            return False
        text = line.strip()
        command = text.lower()
        if not text:
            continue
        if command in ("quit", "exit", "q"):
            return False
        if command in ("help", "?"):
            console.say(f"Type a move in notation, or one of: {COMMANDS}.")
        elif command == "moves":
            console.say(" ".join(m.name for m in game.legal_moves()))
        elif command == "hint":
            r = table.engine.search(game, seconds=table.seconds)
            console.say(f"hint: {r.best_move.name} ({_value_words(r.to_move, r.value, r.proven_value)})")
        elif command == "undo":
            if not game.move_ids:
                console.say("nothing to undo")
                continue
            game.undo()  # back to the last position where a human was to move
            while game.move_ids and game.to_move not in table.humans:
                game.undo()
            table.last = _last_cells(game)
            table.show()
        else:
            try:
                table.play(text, game.to_move.name)
            except Error as e:
                console.say(f"{_plain(str(e))}\n(type a move in notation, or one of: {COMMANDS})")
                continue
            table.show()
    return True


def _after_the_game(
    table: _Table, start: str, console: Console, save: Callable[[Any, str], None] | None
) -> set[Player] | None:
    """Asks what next; the sides of the next game, or None to stop."""
    while True:
        line = console.ask(f"What next? {AFTER_THE_GAME} > ", ["rematch", "new", "save", "quit"])
        if line is None:
            return None
        words = line.split()
        command = words[0].lower() if words else ""
        if command in ("quit", "exit", "q"):
            return None
        if command in ("rematch", "r"):
            return {Player.O if p == Player.X else Player.X for p in table.humans}
        if command in ("new", "n"):
            return set(table.humans)
        if command in ("save", "s"):
            path = words[1] if len(words) > 1 else "noughts-game.txt"
            try:
                if save is not None:
                    save(table.game, path)
                else:
                    _save_record(table.game, path, table.humans)
            except (OSError, Error) as e:
                console.say(f"cannot save to {path}: {getattr(e, 'strerror', None) or e}")
            else:
                console.say(f"the record is saved in {path}")
            continue
        if command:
            console.say(f"{command!r}: type one of {AFTER_THE_GAME}")


def _save_record(game: Any, path: str, humans: set[Player]) -> None:
    from noughts.records import Record, write_records

    names = {p.name: "human" if p in humans else "noughts engine" for p in (Player.X, Player.O)}
    write_records([Record.from_game(game, Event="noughts play", **names)], path)
