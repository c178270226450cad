"""A table in play: its stored row, the engine's game replayed from the moves, and the state the page shows.

Every fact the page shows (whose turn, the legal moves, the result and why,
where collapsed marks landed) is read from the game object here; the page
itself holds no rule.
"""

from __future__ import annotations

import asyncio
import functools
import hmac
from dataclasses import dataclass, field
from typing import Any

from noughts import Classic, Player, Quantum
from noughts.registry import make_game
from noughts.serve.store import TableRow, token_digest
from noughts.svg import svg

__all__ = ["SEATS", "Table", "describe_settings"]

SEATS = ("X", "O")
Game = Any  # Classic | Ultimate | Quantum

_WORDS = {3: "three", 4: "four", 5: "five"}


def describe_settings(game: str, options: dict[str, Any]) -> str:
    """A table's game in words: "Classic 4×4, four in a row, misère"."""
    if game != "classic":
        return game.capitalize()
    g = Classic(**options)
    parts = [f"Classic {g.rows}×{g.cols}", f"{_WORDS.get(g.k, g.k)} in a row"]
    parts += [name for name, on in (("misère", g.misere), ("free choice", g.free_choice), ("gravity", g.gravity)) if on]
    return ", ".join(parts)


@functools.lru_cache(maxsize=16)
def _plain_classic(rows: int, cols: int) -> Classic:
    # Without gravity or free choice a move id is its cell: the engine names the cells.
    return Classic(rows, cols)


def cell_name(game: Game, cell: int) -> str:
    """The engine's name of a cell of a Classic or Quantum board."""
    if isinstance(game, Classic):
        return _plain_classic(game.rows, game.cols).move_name(cell)
    return _plain_classic(3, 3).move_name(cell)


def _mask_cells(game: Classic, mask: int) -> list[str]:
    return [cell_name(game, i) for i in range(game.rows * game.cols) if mask >> i & 1]


def _other(seat: str) -> str:
    return "O" if seat == "X" else "X"


def _landings(before: list[Any], after: list[Any]) -> list[tuple[str, int, int]]:
    """The Quantum marks that became classical: (x or o, mark number, cell)."""
    out = []
    for cell, (was, now) in enumerate(zip(before, after)):
        if was is None and now is not None:
            player, number = now
            out.append(("x" if player == Player.X else "o", int(number), cell))
    return sorted(out, key=lambda t: t[1])


@dataclass
class Table:
    """One table: its row, the replayed game, what the computer is doing, who is watching."""

    row: TableRow
    game: Game
    notes: list[str | None]
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    computing: bool = False
    watchers: set[Any] = field(default_factory=set)
    # The state of the version last asked for: every watcher and the reply share one.
    _state: tuple[int, dict[str, Any]] | None = None

    @classmethod
    def from_row(cls, row: TableRow) -> Table:
        table = cls(row, make_game(row.game, **row.options), [])
        for move in row.moves:
            table.apply(move.move)
        return table

    # ---- playing -------------------------------------------------------
    def apply(self, text: str) -> str:
        """Plays a move (engine notation) and returns its canonical name; the engine's errors leave the game unchanged."""
        game = self.game
        move_id = game.parse_move(text)
        before = game.classical_marks() if isinstance(game, Quantum) else None
        game.play(move_id)
        note = None
        if before is not None:
            landed = _landings(before, game.classical_marks())
            if landed:
                note = ", ".join(
                    f"{letter}{number} landed in {cell_name(game, cell)}" for letter, number, cell in landed
                )
        self.notes.append(note)
        return str(game.move_name(move_id))

    def take_back(self, count: int) -> None:
        for _ in range(count):
            self.game.undo()
            self.notes.pop()

    def moves_to_take_back(self, seat: str) -> int:
        """How many moves an undo asked for by `seat` takes back: the other side's replies, then seat's last move."""
        moves = self.row.moves
        n = len(moves)
        while n and moves[n - 1].seat != seat:
            n -= 1
        return len(moves) - n + 1 if n else 0

    # ---- who is who ----------------------------------------------------
    def seat_of(self, token: str | None) -> str | None:
        """The seat a token opens, or None; every stored key is compared, in constant time."""
        if token is None:
            return None
        digest = token_digest(token)
        found = None
        for seat in SEATS:
            key = self.row.key(seat)
            if key is not None and hmac.compare_digest(digest, key):
                found = seat
        return found

    def computer_seat(self) -> str | None:
        if self.row.computer is None:
            return None
        return "X" if self.row.x_key is None else "O"

    @property
    def finished(self) -> bool:
        return self.row.resigned is not None or bool(self.game.is_over())

    @property
    def to_move(self) -> str | None:
        return None if self.finished else self.game.to_move.name

    # ---- what the page shows -------------------------------------------
    def result(self) -> str:
        if self.row.resigned is not None:
            return "0-1" if self.row.resigned == "X" else "1-0"
        outcome = self.game.outcome()
        return "*" if outcome is None else outcome.result

    def explanation(self) -> dict[str, Any] | None:
        """How the game ended: the winner, the reason in words, and the cells of the line where the engine gives them."""
        row, game = self.row, self.game
        if row.resigned is not None:
            return {
                "winner": _other(row.resigned),
                "how": "resigned",
                "text": f"{row.resigned} resigned: {_other(row.resigned)} wins.",
                "cells": [],
            }
        outcome = game.outcome()
        if outcome is None:
            return None
        winner = None if outcome.winner is None else outcome.winner.name
        how = outcome.termination.name.lower()
        text = game.explanation  # who won and why, in the game's own words
        cells: list[str] = []
        if winner is not None and isinstance(game, Classic):
            cells = _mask_cells(game, game.winning_line())
        if winner is not None and isinstance(game, Quantum) and self.notes and self.notes[-1]:
            # Where the last move's marks landed: a collapse, or the last-cell mark.
            text = f"The last move: {self.notes[-1]}. {text}"
        return {"winner": winner, "how": how, "text": text, "cells": cells}

    def status(self) -> str:
        if self.finished:  # the outcome's text says why
            return f"Game over: {self.result()}."
        return f"{self.game.status}."  # whose turn and what to play, in the game's own words

    def players(self) -> dict[str, str]:
        computer = self.computer_seat()
        return {seat: f"computer ({self.row.computer})" if seat == computer else "player" for seat in SEATS}

    def state(self) -> dict[str, Any]:
        """The public state of the table (no tokens): what every watcher gets. Changes bump row.version."""
        if self._state is None or self._state[0] != self.row.version:
            self._state = (self.row.version, self._build_state())
        return self._state[1]

    def _build_state(self) -> dict[str, Any]:
        row, game = self.row, self.game
        finished = self.finished
        moves = [
            {"number": m.number, "move": m.move, "seat": m.seat, "note": note} for m, note in zip(row.moves, self.notes)
        ]
        return {
            "id": row.id,
            "game": row.game,
            "options": row.options,
            "title": describe_settings(row.game, row.options),
            "players": self.players(),
            "version": row.version,
            "number": len(row.moves),
            "moves": moves,
            "to_move": self.to_move,
            "finished": finished,
            "result": self.result(),
            "outcome": self.explanation(),
            "status": self.status(),
            "legal": [] if finished else [m.name for m in game.legal_moves()],
            "last": row.moves[-1].move if row.moves else None,
            "svg": svg(game, size=360, status=False),
            "undo_requested_by": row.undo_by,
            "rematch": row.rematch,
            "rematch_of": row.rematch_of,
        }
