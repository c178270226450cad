"""Ultimate tic-tac-toe: nine small boards in a big one (docs/rules.md section 2)."""

from __future__ import annotations

import enum
from typing import Any

from noughts import _core
from noughts._game import GameMixin, GameOption
from noughts._numbers import as_int
from noughts.errors import InvalidOptionError

__all__ = ["ULTIMATE_OPTIONS", "BoardState", "Ultimate"]

# Ultimate's one option, as records, the command line and the engine protocol name it.
ULTIMATE_OPTIONS = (
    GameOption(
        "tiebreak",
        False,
        "Tiebreak",
        "tiebreak",
        "a full big board is won by the player with more small boards (CodinGame's rule)",
    ),
)


class BoardState(enum.IntEnum):
    """The state of one small board. Won and drawn boards are closed."""

    OPEN = 0
    X = 1  # won by X
    O = 2  # won by O  # noqa: E741
    DRAWN = 3  # full without a line; counts for nobody

    @property
    def is_decided(self) -> bool:
        """Whether the board is closed (won or drawn)."""
        return self is not BoardState.OPEN


class Ultimate(GameMixin, _core.Ultimate):
    """Ultimate tic-tac-toe as docs/rules.md section 2 specifies it.

    >>> g = Ultimate()
    >>> g.play("e5")             # the center cell of the center board (id 40)
    >>> g.forced_board           # ... sends O to the center board
    4
    >>> g.play("4/0")            # board/cell also works: board 4, cell 0 = d4
    >>> g.forced_board
    0

    Move ids are ``board * 9 + cell`` (both 0..8 in reading order). Moves are
    named on the 9x9 grid: columns ``a``..``i`` from the left and rows
    ``1``..``9`` from the top, so ``a1`` is id 0, ``e5`` id 40 and ``i9`` id
    80. ``"board/cell"`` with 0-based digits is accepted on input. A won or
    drawn small board is closed; a player sent to one may play in any open
    board (``forced_board`` is then None).

    ``Ultimate(tiebreak=True)`` plays CodinGame's referee rule: a game that
    ends with every small board decided and no line of boards is won by the
    player who won more small boards (``Termination.MORE_BOARDS``), and drawn
    only when both won as many. By default such a game is a draw.
    """

    _core_class = _core.Ultimate

    def __new__(cls, *, tiebreak: bool = False) -> Ultimate:
        if not isinstance(tiebreak, bool):
            raise InvalidOptionError(f"tiebreak must be True or False, not {tiebreak!r}")
        return cls._build(tiebreak)

    def options(self) -> dict[str, Any]:
        """The game's parameters, as keyword arguments of the constructor: ``{"tiebreak": ...}``."""
        return {"tiebreak": bool(self.tiebreak)}

    @property
    def forced_board(self) -> int | None:
        """The small board (0..8) the mover must play in, or None when they may play in any open board.

        None before the first move, after being sent to a decided board, and once the game is over.
        """
        board = self._forced_board
        return None if board < 0 else int(board)

    def board_states(self) -> list[BoardState]:
        """The state of the nine small boards, in reading order."""
        return [BoardState(s) for s in self._board_states()]

    def open_boards(self) -> list[int]:
        """The small boards still open, ascending."""
        return [b for b, s in enumerate(self._board_states()) if s == BoardState.OPEN]

    def cell(self, board: int, cell: int) -> str:
        """The mark in a cell of a small board (both 0..8): "X", "O" or "."."""
        for name, value in (("board", board), ("cell", cell)):
            index = as_int(value)
            if index is None or not 0 <= index <= 8:
                raise IndexError(f"{name} must be an int 0..8, not {value!r}")
        board, cell = int(board), int(cell)
        xs, os = self.board_marks()
        return "X" if xs[board] >> cell & 1 else "O" if os[board] >> cell & 1 else "."

    def board(self) -> list[list[str]]:
        """The 9x9 grid as rows of "X", "O" or ".", top row first: ``board()[r][c]`` is the cell named ``"abcdefghi"[c]`` + ``str(r + 1)``."""
        return [[mark.upper() for mark in row] for row in self._grid_rows()]
