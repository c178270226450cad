"""What every game class shares on the Python side, written once.

Each public game class (Classic, Ultimate, Quantum) derives from this mixin
and from its C++ class in ``noughts._core``; the C++ class does the work,
this adds the Pythonic surface: copies, pickling, repr, outcome objects and
Move objects.
"""

from __future__ import annotations

import operator
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar, Union

from noughts._core import Player, Termination

__all__ = ["GameMixin", "GameOption", "Move", "MoveLike", "Outcome"]

G = TypeVar("G", bound="GameMixin")


@dataclass(frozen=True, eq=False)
class Move:
    """A move of a particular game: its id (docs/rules.md "Move ids") and its notation.

    A Move behaves like the values it stands for: it equals its id and its
    notation (``4 in g.legal_moves()``, ``"b2" in g.legal_moves()``,
    ``g.history[-1] == "b2"``), and another Move with the same id and name. It
    hashes as its id, so a dict keyed by ids can be read with a Move (and a set
    of Moves with an id); notation strings hash as strings, so look a Move up in
    a set or dict by its id or by itself, not by its notation. Where a move is
    taken (``play``, ``is_legal``), a Move whose id and name are not the same
    move of that game is refused with InvalidMoveError.
    """

    id: int
    name: str

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Move):
            return self.id == other.id and self.name == other.name
        if isinstance(other, str):
            return self.name == other
        if isinstance(other, bool):
            return NotImplemented
        try:
            return self.id == operator.index(other)  # type: ignore[arg-type]  # an int or a numpy integer
        except TypeError:
            return NotImplemented

    def __hash__(self) -> int:
        return hash(self.id)

    def __index__(self) -> int:
        return self.id

    def __int__(self) -> int:
        return self.id

    def __str__(self) -> str:
        return self.name


MoveLike = Union[int, str, Move]

#: Each set of options' Move objects by id (GameMixin._moves), for this many sets at most.
_MOVE_TABLES = 64
_MOVES: dict[tuple[Any, ...], list[Move | None]] = {}


@dataclass(frozen=True)
class GameOption:
    """One option of a game's constructor, with the names it has elsewhere.

    ``default`` is the constructor's (``None`` for Classic's ``k``: the
    rules' default); ``tag`` names it in game records, ``word`` on the
    command line (``--word``, or ``-k``) and in the engine protocol.
    """

    name: str
    default: int | bool | None
    tag: str
    word: str
    help: str

    @property
    def is_flag(self) -> bool:
        """Whether the option is on or off (else it is a whole number)."""
        return isinstance(self.default, bool)


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended."""

    winner: Player | None
    termination: Termination

    @property
    def result(self) -> str:
        """The result as in game records: "1-0" (X won), "0-1" (O won) or "1/2-1/2"."""
        if self.winner is None:
            return "1/2-1/2"
        return "1-0" if self.winner == Player.X else "0-1"

    def value_for(self, player: Player) -> int:
        """+1 if `player` won, -1 if they lost, 0 for a draw."""
        if self.winner is None:
            return 0
        return 1 if self.winner == player else -1


class _BuiltInNew:
    """Sits between GameMixin and the C++ class: takes the constructor's
    arguments in __init__ and does nothing, since __new__ built the game (the
    C++ __init__ must not run twice). Kept below GameMixin so that type
    checkers read a game's constructor signature from its __new__."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        pass


class GameMixin(_BuiltInNew):
    """Shared Python behaviour of the game classes (see the module docstring)."""

    # The C++ class in noughts._core that the public class derives from.
    _core_class: ClassVar[Any]

    # ---- construction -----------------------------------------------------
    # The C++ part is built in __new__, not __init__: an object made by
    # ``cls.__new__(cls)`` alone (as copy and pickle helpers do) must never
    # reach C++ unbuilt, where it crashed. A game with options (Classic)
    # defines its own typed __new__ that checks them first and calls _build,
    # so a failed constructor leaves nothing half-built behind (a traceback
    # that shows its frame's locals would touch it).
    def __new__(cls) -> Any:
        return cls._build()

    @classmethod
    def _build(cls: type[G], *core_args: Any) -> G:
        """A new instance, its C++ part made by the C++ constructor from core_args."""
        # The C++ class's own __new__ (the next after GameMixin), then its
        # constructor: one step, so no unbuilt object escapes.
        game: G = super().__new__(cls)
        cls._core_class.__init__(game, *core_args)
        return game

    @classmethod
    def _wrap(cls: type[G], core_game: Any) -> G:
        """A new instance of the public class holding a copy of a core game."""
        return cls._build(core_game)

    @classmethod
    def from_string(cls: type[G], text: str) -> G:
        """The position described by a position string (see docs/positions.md)."""
        if not isinstance(text, str):
            from noughts.errors import InvalidPositionError

            raise InvalidPositionError(f"a position string must be a str, not {type(text).__name__}")
        return cls._wrap(cls._core_class._from_string(text))

    def symmetric(self: G, s: int) -> G:
        """The position under symmetry ``s`` (0 = identity, up to ``num_symmetries - 1``), without history.

        The symmetries are those that keep the rules: the 8 of the square on
        square boards (Ultimate acts on boards and cells alike), 4 on a
        rectangle, only the left-right mirror with gravity.
        """
        from noughts._numbers import whole_number

        count = self.num_symmetries  # type: ignore[attr-defined]
        s = whole_number("symmetry", s, 0, count - 1)
        return type(self)._wrap(self._symmetric(s))  # type: ignore[attr-defined]

    def observation(self, dtype: Any = None, player: Any = None) -> Any:
        """The observation planes (planes, rows, cols) as numpy, from the view of the player to move
        (or of ``player``).

        float32 unless ``dtype`` says otherwise; see docs/learning.md for each game's planes.
        """
        import numpy as np

        from noughts.learning import observation

        return observation(self, np.float32 if dtype is None else dtype, player)

    def action_mask(self) -> Any:
        """A numpy bool array over the move ids: True where the move is legal."""
        from noughts.learning import action_mask

        return action_mask(self)

    def copy(self: G) -> G:
        """An independent copy, history included."""
        return type(self)._wrap(self)

    def __copy__(self: G) -> G:
        return self.copy()

    def __deepcopy__(self: G, memo: dict[int, Any]) -> G:
        return self.copy()

    def __reduce__(self) -> tuple[Any, ...]:
        # The start position and the moves: unpickling replays them, so the
        # history (and undo) survive a round trip.
        return (_restore, (type(self), self.start_string(), list(self.move_ids)))  # type: ignore[attr-defined]

    # ---- reading the game ------------------------------------------------
    def options(self) -> dict[str, Any]:
        """The game's parameters, as keyword arguments of the constructor (none unless the game has options)."""
        return {}

    def outcome(self) -> Outcome | None:
        """None while the game goes on; else the winner (None for a draw) and why it ended."""
        if not self.is_over():  # type: ignore[attr-defined]
            return None
        return Outcome(self.winner, self.termination)  # type: ignore[attr-defined]

    def legal_moves(self) -> list[Move]:
        """The legal moves as Move objects (id and notation), ascending by id."""
        return self._moves(self.legal_actions())  # type: ignore[attr-defined]

    @property
    def history(self) -> list[Move]:
        """The moves played since the game (or its start position) began, first to last."""
        return self._moves(self.move_ids)  # type: ignore[attr-defined]

    def _moves(self, ids: Iterable[int]) -> list[Move]:
        """The Move objects (id and notation) of move ids of this game, legal here or not."""
        # A move's notation depends on its id and the game's options only, never on the
        # position: the Moves of each set of options are made once and shared (they are frozen),
        # and a game keeps its options' table (its options never change).
        table: list[Move | None] | None = getattr(self, "_move_table", None)
        if table is None:
            key = (type(self), *self.options().values())
            table = _MOVES.get(key)
            if table is None:
                if len(_MOVES) >= _MOVE_TABLES:
                    _MOVES.clear()
                table = _MOVES[key] = [None] * self.num_actions  # type: ignore[attr-defined]
            self._move_table = table
        out = []
        for i in ids:
            move = table[i] if 0 <= i < len(table) else None
            if move is None:
                move = Move(i, self.move_name(i))  # type: ignore[attr-defined]  # the game's error for a bad id
                table[i] = move
            out.append(move)
        return out

    def __str__(self) -> str:
        return str(self.render())  # type: ignore[attr-defined]

    def __repr__(self) -> str:
        # noughts.Classic.from_string(...) for the package's own classes; a
        # subclass is written by its own name, MyGame.from_string(...), which
        # evaluates back wherever that name is in scope (from_string makes an
        # instance of the class it is called on).
        cls = type(self)
        name = f"noughts.{cls.__name__}" if cls.__module__.startswith("noughts.") else cls.__qualname__
        return f"{name}.from_string({self.to_string()!r})"  # type: ignore[attr-defined]

    def _repr_svg_(self) -> str:
        """The picture Jupyter shows; svg.py is imported only when a game is displayed."""
        from noughts.svg import svg

        return svg(self)  # type: ignore[arg-type]


def _restore(cls: type[G], start: str, moves: list[int]) -> G:
    game = cls.from_string(start)
    for move in moves:
        game.play(move)  # type: ignore[attr-defined]
    return game
