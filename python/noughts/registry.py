"""The one registry of games: what records, the engine, the command line and the adapters know of each game.

Each game has one descriptor (``GameInfo``): its name, its public class, the
C++ classes behind it and its options. Adding a game means adding its
descriptor here; everything that builds games by name reads this table.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from noughts import _core
from noughts._game import GameOption
from noughts.classic import CLASSIC_OPTIONS, Classic
from noughts.errors import InvalidOptionError
from noughts.quantum import Quantum
from noughts.ultimate import ULTIMATE_OPTIONS, Ultimate

__all__ = ["GAME_INFO", "GameInfo", "GameOption", "game_info", "info_of", "make_game"]


@dataclass(frozen=True)
class GameInfo:
    """What noughts knows of one game.

    ``name`` is how command lines, records and protocols name it; ``cls`` its
    public class; ``vector``, ``mcts`` and ``prover`` the C++ classes that step
    many games at once (``VectorGame``), search it (``MCTS``) and prove its
    positions with one table (``Prover``); ``options`` the constructor's
    options (none for Quantum).
    """

    name: str
    cls: type[Any]
    vector: type[Any]
    mcts: type[Any]
    prover: type[Any]
    options: tuple[GameOption, ...] = ()

    @property
    def core(self) -> type[Any]:
        """The C++ game class in noughts._core that ``cls`` derives from."""
        return self.cls._core_class  # type: ignore[no-any-return]

    def option(self, name: str) -> GameOption | None:
        """The option of this name, or None."""
        return next((o for o in self.options if o.name == name), None)


GAME_INFO: dict[str, GameInfo] = {
    info.name: info
    for info in (
        GameInfo("classic", Classic, _core.ClassicVector, _core.ClassicMcts, _core.ClassicProver, CLASSIC_OPTIONS),
        GameInfo(
            "ultimate", Ultimate, _core.UltimateVector, _core.UltimateMcts, _core.UltimateProver, ULTIMATE_OPTIONS
        ),
        GameInfo("quantum", Quantum, _core.QuantumVector, _core.QuantumMcts, _core.QuantumProver),
    )
}


def game_info(name: str) -> GameInfo:
    """The descriptor of the game called ``name`` (any case); InvalidOptionError for an unknown name."""
    info = GAME_INFO.get(str(name).lower())
    if info is None:
        raise InvalidOptionError(f"unknown game {name!r}: the games are {', '.join(GAME_INFO)}")
    return info


def info_of(game: Any) -> GameInfo | None:
    """The descriptor of a game object or class, or None when it is not a noughts game."""
    cls = game if isinstance(game, type) else type(game)
    return next((info for info in GAME_INFO.values() if issubclass(cls, info.core)), None)


def make_game(name: str = "classic", position: str | None = None, **options: Any) -> Any:
    """A new game by name ("classic", "ultimate", "quantum"), from its start or from a position string.

    Classic takes its constructor's options (rows, cols, k, misere, free_choice,
    gravity), Ultimate takes tiebreak, Quantum takes none.
    """
    info = game_info(name)
    if position is not None:
        if options:
            raise InvalidOptionError("a position string carries its own options: give one or the other")
        return info.cls.from_string(position)
    unknown = set(options) - {o.name for o in info.options}
    if unknown:
        takes = ", ".join(o.name for o in info.options) or "no options"
        raise InvalidOptionError(f"{info.name} takes {takes}, got {', '.join(sorted(unknown))}")
    return info.cls(**options)
