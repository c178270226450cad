"""Gymnasium environments for the noughts games (docs/frameworks.md).

>>> from noughts.gymnasium import VectorEnv
>>> envs = VectorEnv("ultimate", num_envs=64)
>>> obs, infos = envs.reset(seed=0)
>>> actions = envs.action_space.sample()          # or your policy, within infos["action_mask"]

- ``VectorEnv(game, num_envs, **options)``: a ``gymnasium.vector.VectorEnv``
  stepping ``num_envs`` games together in C++ (``noughts.VectorGame``), with
  Gymnasium's same-step auto-reset (``metadata["autoreset_mode"]`` is
  ``AutoresetMode.SAME_STEP``): a game that ends is reset within the step,
  ``infos["final_obs"][i]`` holds the observation of the finished position and
  ``infos["_final_obs"]`` says which entries are set, as Gymnasium documents.
- ``Env(game, **options)``: one game as a ``gymnasium.Env`` (the same
  observations, actions and rewards), which Gymnasium's ``check_env`` accepts.

Both are self-play environments of a two-player game: the observation is the
game's planes (docs/learning.md) from the view of the player to move, as uint8
``(planes, rows, cols)``; an action is a move id; the reward is for the player
who just moved (+1 a win, -1 a loss, 0 otherwise); ``infos["action_mask"]``
(int8, for ``action_space.sample(mask)``) marks the legal moves and
``infos["to_move"]`` the player to move (0 = X, 1 = O). The games have no
chance moves: ``reset(seed=...)`` seeds the action spaces and VectorGame's
``random_actions``. An illegal action: ``Env`` ends the episode with -1 for
the player who made it (as PettingZoo's classic games do); ``VectorEnv``
raises ``IllegalMoveError`` and changes no game (mask your policy).

The module imports without Gymnasium; the classes raise an ImportError naming
the extra to install.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from noughts.errors import InvalidMoveError
from noughts.learning import VectorGame
from noughts.registry import make_game

__all__ = ["Env", "VectorEnv"]

_INSTALL_HINT = 'noughts.gymnasium needs Gymnasium: pip install ".[pettingzoo]" in a checkout (or gymnasium)'

_import_error: ImportError | None
if TYPE_CHECKING:
    _EnvBase = Any
    _VectorEnvBase = Any
    gymnasium: Any
    spaces: Any
    AutoresetMode: Any
    batch_space: Any
else:
    try:
        import gymnasium
        from gymnasium import spaces
        from gymnasium.vector import AutoresetMode
        from gymnasium.vector.utils import batch_space
    except ImportError as error:
        _import_error = error
        _EnvBase = _VectorEnvBase = object
    else:
        _import_error = None
        _EnvBase = gymnasium.Env
        _VectorEnvBase = gymnasium.vector.VectorEnv


def _require() -> None:
    if _import_error is not None:
        raise ImportError(f"{_INSTALL_HINT} ({_import_error})") from _import_error


def _start_of(game: Any, options: dict[str, Any]) -> Any:
    if isinstance(game, str):
        return make_game(game, **options)
    if options:
        raise TypeError("options go with a game name, not with a game object")
    return game.copy()


def _single_spaces(start: Any) -> tuple[Any, Any]:
    return (
        spaces.Box(low=0, high=1, shape=tuple(start.observation_shape), dtype=np.uint8),
        spaces.Discrete(int(start.num_actions)),
    )


class Env(_EnvBase):  # type: ignore[misc]
    """One noughts game as a Gymnasium environment (self-play; see the module docstring)."""

    metadata: dict[str, Any] = {"render_modes": ["ansi", "rgb_array"], "render_fps": 1}

    def __init__(self, game: Any = "ultimate", render_mode: str | None = None, **options: Any) -> None:
        _require()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or one of {self.metadata['render_modes']}, not {render_mode!r}")
        self._start = _start_of(game, options)
        self.game: Any = self._start.copy()
        self.render_mode = render_mode
        self.observation_space, self.action_space = _single_spaces(self._start)

    def _observe(self) -> tuple[np.ndarray, dict[str, Any]]:
        mask = self.game.action_mask().astype(np.int8)
        obs = self.game.observation(np.uint8)
        return obs, {"action_mask": mask, "to_move": int(self.game.to_move)}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self.action_space.seed(seed)
        self.game = self._start.copy()
        return self._observe()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        mover = self.game.to_move
        if self.game.is_over() or not self.game.is_legal(int(action)):
            obs, info = self._observe()
            return obs, -1.0, True, False, {**info, "illegal_action": True}
        self.game.play(int(action))
        winner = self.game.winner
        reward = 0.0 if winner is None else (1.0 if winner == mover else -1.0)
        obs, info = self._observe()
        return obs, reward, bool(self.game.is_over()), False, info

    def render(self) -> Any:
        if self.render_mode == "ansi":
            return str(self.game)
        if self.render_mode == "rgb_array":
            from noughts._raster import svg_to_rgb
            from noughts.svg import svg

            return svg_to_rgb(svg(self.game))
        return None


class VectorEnv(_VectorEnvBase):  # type: ignore[misc]
    """``num_envs`` noughts games as a Gymnasium VectorEnv, stepped in C++ (see the module docstring)."""

    metadata: dict[str, Any] = {"autoreset_mode": None, "render_modes": []}

    def __init__(self, game: Any = "ultimate", num_envs: int = 8, **options: Any) -> None:
        _require()
        self.metadata = {**type(self).metadata, "autoreset_mode": AutoresetMode.SAME_STEP}
        self._start = _start_of(game, options)
        self._vector = VectorGame(self._start, num_envs)
        self.num_envs = num_envs
        self.single_observation_space, self.single_action_space = _single_spaces(self._start)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._masks = np.zeros((num_envs, int(self._start.num_actions)), np.int8)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        if seed is not None:
            self._vector = VectorGame(self._start, self.num_envs, seed=seed)
            self.action_space.seed(seed)
            self.observation_space.seed(seed)
        obs, masks, to_move = self._vector.reset()
        self._masks = masks.astype(np.int8)
        return obs, {"action_mask": self._masks, "to_move": to_move}

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        a = np.asarray(actions)
        if a.dtype.kind not in "iu":
            raise InvalidMoveError(f"actions must be integer move ids, not an array of {a.dtype}")
        obs, rewards, terminated, masks, to_move, finals = self._vector._env.step(a.astype(np.int64, copy=False), True)
        ended = terminated.view(bool)
        self._masks = masks.astype(np.int8)
        infos: dict[str, Any] = {"action_mask": self._masks, "to_move": to_move}
        if ended.any():
            final_obs = np.full(self.num_envs, None, dtype=object)
            for i in np.flatnonzero(ended):
                final_obs[i] = finals[i]
            infos["final_obs"], infos["_final_obs"] = final_obs, ended.copy()
        return obs, rewards, ended, np.zeros(self.num_envs, bool), infos

    def action_masks(self) -> np.ndarray:
        """The legal moves of every game now (int8, num_envs x num_actions), as in the last infos."""
        return self._masks

    def game(self, i: int) -> Any:
        """A copy of game i's position (without its history)."""
        return self._vector.game(i)
