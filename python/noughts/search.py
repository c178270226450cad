"""Search entry points that work on every game; the work runs in C++ without the GIL."""

from __future__ import annotations

from typing import Any, NamedTuple

from noughts import _core
from noughts._numbers import whole_number
from noughts.errors import InvalidOptionError

__all__ = ["PlayoutCounts", "check_game", "perft", "random_playouts"]

_GAME_CLASSES = (_core.Classic, _core.Ultimate, _core.Quantum)


def check_game(game: Any, what: str) -> Any:
    """`game` itself if it is a noughts game; else InvalidOptionError naming the call (`what`)."""
    if not isinstance(game, _GAME_CLASSES):
        raise InvalidOptionError(
            f"{what} takes a noughts game (Classic, Ultimate or Quantum), not {type(game).__name__} {game!r:.60}"
        )
    return game


class PlayoutCounts(NamedTuple):
    x_wins: int
    o_wins: int
    draws: int


def _check_count(name: str, value: Any, limit: int | None = 2**63) -> int:
    return whole_number(name, value, 0, None if limit is None else limit - 1)


#: The deepest perft: no game lasts longer (Ultimate at most 81 moves, Classic 64, Quantum 18).
MAX_PERFT_DEPTH = 81


def perft(game: Any, depth: int) -> int:
    """The number of legal move sequences of exactly `depth` moves from the game's position.

    A sequence stops at a finished game (docs/rules.md "Counting moves").
    ``depth`` is at most MAX_PERFT_DEPTH (81), longer than any game lasts.
    Ctrl-C stops a long count (KeyboardInterrupt).
    """
    depth = whole_number("depth", depth, 0)
    if depth > MAX_PERFT_DEPTH:
        raise InvalidOptionError(
            f"depth {depth} is longer than any game lasts: depth must be between 0 and {MAX_PERFT_DEPTH}"
        )
    return int(_core.perft(check_game(game, "perft"), depth))


def random_playouts(game: Any, n: int, *, seed: int = 0) -> PlayoutCounts:
    """Plays `n` uniformly random games from the position; deterministic for a seed.

    Ctrl-C stops a long run (KeyboardInterrupt).
    """
    x, o, d = _core.random_playouts(
        check_game(game, "random_playouts"), _check_count("n", n), _check_count("seed", seed, None) & (2**64 - 1)
    )
    return PlayoutCounts(x, o, d)
