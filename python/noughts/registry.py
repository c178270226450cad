"""Games by name, so that command lines, protocols and adapters can build any game."""

from __future__ import annotations

from typing import Any

from noughts.classic import Classic
from noughts.errors import InvalidOptionError
from noughts.quantum import Quantum
from noughts.ultimate import Ultimate

__all__ = ["GAMES", "make_game"]

GAMES: dict[str, Any] = {"classic": Classic, "ultimate": Ultimate, "quantum": Quantum}


def make_game(name: str = "classic", position: str | None = None, **options: Any) -> Any:
    """A new game by name ("classic", "ultimate", "quantum"), from its start or from a position string.

    Classic takes its constructor's options (rows, cols, k, misere, free_choice,
    gravity), Ultimate takes tiebreak, Quantum takes none.
    """
    cls = GAMES.get(str(name).lower())
    if cls is None:
        raise InvalidOptionError(f"unknown game {name!r}: the games are {', '.join(GAMES)}")
    if position is not None:
        if options:
            raise InvalidOptionError("a position string carries its own options: give one or the other")
        return cls.from_string(position)
    allowed = {Classic: None, Ultimate: {"tiebreak"}}.get(cls, set())
    if allowed is not None and set(options) - allowed:
        takes = f"only {', '.join(sorted(allowed))}" if allowed else "no options"
        raise InvalidOptionError(f"{name} takes {takes}, got {', '.join(options)}")
    return cls(**options)
