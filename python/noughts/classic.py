"""Classic: m x n boards, k in a row, with misere, free choice and gravity."""

from __future__ import annotations

from typing import Any

from noughts import _core
from noughts._game import GameMixin, GameOption
from noughts._numbers import as_int
from noughts.errors import InvalidOptionError

__all__ = ["CLASSIC_OPTIONS", "Classic"]

# Classic's options, the one list that the constructor's checks, records,
# the command line, the engine protocol and the adapters read.
CLASSIC_OPTIONS = (
    GameOption("rows", 3, "Rows", "rows", "board rows"),
    GameOption("cols", 3, "Cols", "cols", "board columns"),
    GameOption("k", None, "K", "k", "line length to win (default: the rules' default)"),
    GameOption("misere", False, "Misere", "misere", "completing a line loses"),
    GameOption("free_choice", False, "FreeChoice", "free", "free choice: either symbol each turn"),
    GameOption("gravity", False, "Gravity", "gravity", "marks fall to the lowest empty cell"),
)


def _whole_number(name: str, value: Any) -> int:
    number = as_int(value)
    if number is None:
        raise InvalidOptionError(f"{name} must be a whole number, not {value!r}")
    # Far outside what the rules allow, and too large for the C++ int.
    if not -(2**31) < number < 2**31:
        raise InvalidOptionError(f"{name}={number} is not allowed: boards have at most 64 cells and k at most 64")
    return number


def _flag(name: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise InvalidOptionError(f"{name} must be True or False, not {value!r}")
    return value


def _options(
    rows: Any, cols: Any, k: Any, misere: Any, free_choice: Any, gravity: Any
) -> tuple[int, int, int, bool, bool, bool]:
    """The constructor's arguments checked for type, as the C++ side takes them (k = 0: the default)."""
    rows = _whole_number("rows", rows)
    cols = _whole_number("cols", cols)
    if k is not None:
        k = _whole_number("k", k)
        if k < 1:
            raise InvalidOptionError(f"k={k} is not allowed: k must be between 1 and max(rows, cols)")
    return (
        rows,
        cols,
        0 if k is None else k,
        _flag("misere", misere),
        _flag("free_choice", free_choice),
        _flag("gravity", gravity),
    )


class Classic(GameMixin, _core.Classic):
    """The m,n,k game of docs/rules.md section 1.

    >>> g = Classic()            # 3x3, three in a row
    >>> g.play("b2"); g.play(0)  # notation or move id
    >>> print(g)
      a b c
    1 O . .
    2 . X .
    3 . . .
    >>> g.to_move
    <Player.X: 0>

    ``k=None`` takes the default of docs/rules.md (3 on 3x3, 4 on 4x4 and 5x5, 5 on
    larger boards, never more than the longer side). Cells are named by
    column letter and row number counted from the top (``a1`` is the top-left
    cell, id 0); with gravity a move is a column letter; with free choice a
    move carries its symbol, ``b2=O``.
    """

    _core_class = _core.Classic

    def __new__(
        cls,
        rows: int = 3,
        cols: int = 3,
        k: int | None = None,
        *,
        misere: bool = False,
        free_choice: bool = False,
        gravity: bool = False,
    ) -> Classic:
        options = _options(rows, cols, k, misere, free_choice, gravity)
        _core.Classic._check_options(*options)  # before the object exists
        return cls._build(*options)

    def options(self) -> dict[str, Any]:
        """The game's parameters, as keyword arguments of the constructor."""
        return {option.name: getattr(self, option.name) for option in CLASSIC_OPTIONS}

    def board(self) -> list[list[str]]:
        """The board as rows of "X", "O" or "." (symbols as written)."""
        xs, os = self.cell_marks()
        return [
            [
                "X" if xs >> (r * self.cols + c) & 1 else "O" if os >> (r * self.cols + c) & 1 else "."
                for c in range(self.cols)
            ]
            for r in range(self.rows)
        ]
