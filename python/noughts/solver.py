"""The exact solver: who wins with perfect play, by which moves, and how fast."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from noughts import _core
from noughts._core import Player
from noughts._game import Move
from noughts.errors import InvalidOptionError

__all__ = ["Solution", "best_move", "solve"]


@dataclass(frozen=True)
class Solution:
    """The solved value of a position.

    ``value`` is from the view of the player to move in the solved position,
    ``to_move`` (+1 they win, 0 draw, -1 they lose), as engines report it;
    ``value_for(player)`` gives it from either player's view. ``distance`` is
    the number of plies to the end with best play (the fastest win for the
    winner, the slowest loss for the loser), None for a draw.
    ``best_moves`` are every move that keeps the value; ``move_values`` maps
    every legal move id to its value for the mover (only when asked for with
    ``solve(..., move_values=True)``); the ``principal_variation``
    is one line of best play to the end.
    """

    value: int
    to_move: Player
    distance: int | None
    best_moves: list[Move]
    move_values: dict[int, int]
    principal_variation: list[Move]
    nodes: int
    seconds: float

    def value_for(self, player: Player) -> int:
        """The value from ``player``'s view: +1 they win, 0 draw, -1 they lose."""
        return self.value if player == self.to_move else -self.value

    @property
    def result(self) -> str:
        """Who wins with perfect play: "X wins", "draw" or "O wins"."""
        return {1: "X wins", 0: "draw", -1: "O wins"}[self.value_for(Player.X)]


def _number(name: str, value: Any, allow_none: bool = False) -> float:
    if value is None and allow_none:
        return 0.0
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0:
        raise InvalidOptionError(f"{name} must be a positive number{' or None' if allow_none else ''}, not {value!r}")
    return float(value)


def solve(
    game: Any,
    *,
    max_seconds: float | None = None,
    tt_mb: float = 64,
    symmetry: bool = True,
    move_values: bool = False,
    stop: Any = None,
) -> Solution:
    """Solves the game's position exactly, in C++ without the GIL.

    ``max_seconds`` bounds the time (SearchTimeout when it runs out; Ctrl-C
    raises KeyboardInterrupt); ``tt_mb`` bounds the transposition table's
    memory; ``symmetry`` keys the table by the position up to the board's
    symmetries; ``move_values`` also tells win, draw or loss for every legal
    move (slower: a drawn move must be told from a losing one; without it
    ``Solution.move_values`` is empty); ``stop``, a ``threading.Event`` that
    another thread may set, ends the search early with SearchTimeout (it is
    asked every 20 ms; what its ``is_set()`` raises stops the search and
    propagates).
    Raises IllegalMoveError on a finished game.
    """
    if stop is not None and not callable(getattr(stop, "is_set", None)):
        raise InvalidOptionError(f"stop must be a threading.Event (or have is_set()), not {stop!r}")
    raw = _core.solve(
        game,
        _number("max_seconds", max_seconds, True),
        _number("tt_mb", tt_mb),
        bool(symmetry),
        bool(move_values),
        stop,
    )

    def moves(ids: list[int]) -> list[Move]:
        return [Move(i, game.move_name(i)) for i in ids]

    return Solution(
        value=raw["value"],
        to_move=game.to_move,
        distance=None if raw["distance"] < 0 else raw["distance"],
        best_moves=moves(raw["best_moves"]),
        move_values=dict(raw["move_values"]),
        principal_variation=moves(raw["principal_variation"]),
        nodes=raw["nodes"],
        seconds=raw["seconds"],
    )


def best_move(game: Any, **limits: Any) -> Move:
    """A perfect move: the first of the principal variation (the fastest win when winning)."""
    return solve(game, **limits).principal_variation[0]
