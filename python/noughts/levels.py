"""Playing levels for the computer opponent: ``choose_move(game, "medium")``.

Each level is a budget of the one MCTS (noughts.MCTS): more iterations play
better. Every level also has a time limit, so a move never takes longer than
``MAX_SECONDS`` on any machine. The search runs in C++ without the GIL, so a
server can call ``choose_move`` from a worker thread while it serves others.

>>> import noughts
>>> from noughts.levels import choose_move
>>> game = noughts.Classic()
>>> game.play(choose_move(game, "easy", seed=1))
"""

from __future__ import annotations

import secrets
from typing import Any

from noughts._game import Move
from noughts.errors import IllegalMoveError, InvalidOptionError
from noughts.mcts import MCTS

__all__ = ["LEVELS", "MAX_SECONDS", "choose_move"]

#: The level names, weakest first.
LEVELS = ("easy", "medium", "hard")

#: The time limit of every level, in seconds.
MAX_SECONDS = 0.5

# Iterations per move (None: as many as fit in MAX_SECONDS).
_ITERATIONS: dict[str, int | None] = {"easy": 100, "medium": 3_000, "hard": None}


def choose_move(game: Any, level: str, *, seed: int | None = None) -> Move:
    """The move the computer plays at `level` ("easy", "medium" or "hard") in `game`.

    With a seed, the easy and medium levels (iteration budgets) choose the same
    move for the same position every time unless the time limit stops them
    first; without one, each call draws a fresh seed. Raises
    InvalidOptionError for an unknown level and IllegalMoveError when the game
    is over.
    """
    if not isinstance(level, str) or level not in _ITERATIONS:
        raise InvalidOptionError(f"unknown level {level!r}: the levels are {', '.join(LEVELS)}")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise InvalidOptionError(f"seed must be an int or None, not {seed!r}")
    if game.is_over():
        raise IllegalMoveError("the game is over: there is no move to choose")
    searcher = MCTS(seed=secrets.randbits(63) if seed is None else seed)
    return searcher.search(game, iterations=_ITERATIONS[level], seconds=MAX_SECONDS).best_move
