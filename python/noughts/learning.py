"""Learning support: observations, action masks, and many games stepped at once in C++.

See docs/learning.md for the observation planes of each game.
"""

from __future__ import annotations

import operator
from typing import Any, NamedTuple

import numpy as np

from noughts._core import Player
from noughts._numbers import whole_number
from noughts.errors import InvalidMoveError, InvalidOptionError
from noughts.registry import info_of, make_game

__all__ = ["Step", "VectorGame", "action_mask", "observation"]


def observation(game: Any, dtype: Any = np.float32, player: Any = None) -> np.ndarray:
    """The game's observation planes (planes, rows, cols).

    From the view of the player to move, or of ``player`` (Player.X or 0,
    Player.O or 1) when given: for the player not to move, the planes each
    player owns (marks, and Ultimate's won boards) trade places and every
    other plane (legal cells, spooky marks...) stays as it is. Any other
    ``player`` raises InvalidOptionError.
    """
    view = game.to_move if player is None else _player(player)
    return np.asarray(game._observation(view), dtype=dtype)


def _player(player: Any) -> Player:
    if isinstance(player, Player):
        return player
    if not isinstance(player, bool) and hasattr(player, "__index__") and operator.index(player) in (0, 1):
        return Player(operator.index(player))
    raise InvalidOptionError(f"player must be a Player or 0 (X) or 1 (O), not {player!r}")


def action_mask(game: Any) -> np.ndarray:
    """A bool array over the move id space: True where the move is legal."""
    return np.asarray(game._action_mask(), dtype=bool)


class Step(NamedTuple):
    """What VectorGame.step returns; arrays have the batch as their first axis."""

    observations: np.ndarray  # uint8 (n, planes, rows, cols), of the games after auto-reset
    rewards: np.ndarray  # float32 (n,): +1 / -1 / 0 for the player who just moved
    terminated: np.ndarray  # bool (n,): the game ended with this step (and was reset)
    action_masks: np.ndarray  # bool (n, num_actions)
    to_move: np.ndarray  # int8 (n,): 0 = X, 1 = O, the player to move next


class VectorGame:
    """n games of one kind stepped together in C++; finished games restart at once.

    >>> import numpy as np, noughts
    >>> env = noughts.VectorGame("ultimate", 1024, seed=0)
    >>> obs, masks, to_move = env.reset()
    >>> step = env.step(env.random_actions())        # or your policy's actions
    >>> step.observations.shape, step.rewards.shape
    ((1024, 6, 9, 9), (1024,))

    ``game`` is a name ("classic", "ultimate", "quantum"), a game object (its
    position is the start of every episode) or a callable returning one.
    Observations are uint8 planes (0/1) to keep batches small; cast them as
    your model needs.
    """

    def __init__(self, game: Any, n: int, *, seed: int = 0, **options: Any) -> None:
        n = whole_number("n", n, 1, 2**31 - 1)
        seed = whole_number("seed", seed, -(2**63), 2**64 - 1)  # its low 64 bits seed the generator
        if isinstance(game, str):
            start = make_game(game, **options)
        elif hasattr(game, "_observation") and not isinstance(game, type):
            start = game  # a game object: its position starts every episode
        elif callable(game):
            start = game()
        else:
            start = game
        info = info_of(start) if not isinstance(start, type) else None
        if info is None:
            raise InvalidOptionError(f"VectorGame needs a noughts game, a game name or a factory, not {game!r}")
        self._start = start.copy()
        self._env = info.vector(start, n, seed & (2**64 - 1))
        self.n = n
        self.num_actions: int = start.num_actions
        self.observation_shape: tuple[int, int, int] = tuple(start.observation_shape)

    def reset(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Restarts every game; returns (observations, action_masks, to_move)."""
        obs, masks, to_move = self._env.reset()
        return obs, masks.view(bool), to_move

    def step(self, actions: Any) -> Step:
        """Plays actions[i] in game i. An illegal action raises IllegalMoveError and changes no game."""
        a = np.asarray(actions)
        if a.dtype.kind not in "iu":
            raise InvalidMoveError(f"actions must be integer move ids, not an array of {a.dtype}")
        obs, rewards, terminated, masks, to_move = self._env.step(a.astype(np.int64, copy=False))
        return Step(obs, rewards, terminated.view(bool), masks.view(bool), to_move)

    def random_actions(self) -> np.ndarray:
        """One uniformly random legal action per game, drawn in C++ (deterministic for the seed)."""
        return np.asarray(self._env.random_actions())

    def game(self, i: int) -> Any:
        """A copy of game i (0..n-1) as a game object (without its history)."""
        index = whole_number("the game index", i, 0, self.n - 1)
        return type(self._start)._wrap(self._env.game(index))
