"""PettingZoo AEC environments for the noughts games (see docs/frameworks.md).

>>> from noughts.pettingzoo import ultimate_v0  # also classic_v0 (with its options), quantum_v0
>>> e = ultimate_v0.env()                      # the same as noughts.pettingzoo.env(game="ultimate")
>>> e.reset(seed=0)
>>> for agent in e.agent_iter():
...     obs, reward, terminated, truncated, info = e.last()
...     action = None if terminated or truncated else e.action_space(agent).sample(obs["action_mask"])
...     e.step(action)

Built as PettingZoo's classic games (tictactoe_v3, connect_four_v3) are:

- agents ``"player_x"`` (X, who moves first) and ``"player_o"``;
- ``observe(agent)`` is a dict: ``"observation"``, the game's planes
  (docs/learning.md) as int8 ``(planes, rows, cols)`` *from the view of
  ``agent``*, whether or not it is to move (its own marks in plane 0, the
  other player's in plane 1, and the same for Ultimate's won boards, planes 3
  and 4; the planes that describe the position, such as the cells a move
  can write now, are the same for both agents), and ``"action_mask"``, int8
  over the move ids: the legal moves for the agent to move, all zeros for the
  other agent and once the game is over;
- ``Discrete(num_actions)`` actions: the move ids of docs/rules.md "Move ids";
- rewards +1 / -1 / 0 to both agents when the game ends, nothing before;
- ``agent_selection`` is always the game's ``to_move``: in Quantum the player
  who makes a collapse choice then writes their own mark, so the same agent
  is selected twice in a row;
- an illegal action: ``env()`` wraps the raw environment as PettingZoo's
  classic games do (TerminateIllegalWrapper with reward -1, then
  AssertOutOfBoundsWrapper and OrderEnforcingWrapper), so the game ends at
  once, the agent that played it gets -1 and the other 0. ``raw_env`` raises
  ``noughts.IllegalMoveError`` and changes nothing.

The module imports without PettingZoo; ``env()`` and ``raw_env()`` raise an
ImportError naming the extra to install (``pip install ".[pettingzoo]" in a checkout (or "noughts[pettingzoo]")``).
"""

from __future__ import annotations

import operator
from typing import TYPE_CHECKING, Any

import numpy as np

from noughts._core import Player
from noughts.learning import observation as _observation
from noughts.registry import info_of, make_game

__all__ = ["AGENTS", "classic_v0", "env", "observation_for", "quantum_v0", "raw_env", "ultimate_v0"]

AGENTS = ("player_x", "player_o")

_INSTALL_HINT = 'noughts.pettingzoo needs PettingZoo and Gymnasium: pip install ".[pettingzoo]" in a checkout (or "noughts[pettingzoo]")'

_import_error: ImportError | None
if TYPE_CHECKING:
    _AECEnvBase = Any
    _EzPickleBase = Any
    spaces: Any
    gymnasium: Any
    seeding: Any
    wrappers: Any
else:
    try:
        import gymnasium
        from gymnasium import spaces
        from gymnasium.utils import EzPickle as _EzPickleBase
        from gymnasium.utils import seeding
        from pettingzoo import AECEnv as _AECEnvBase
        from pettingzoo.utils import wrappers
    except ImportError as error:  # the module still imports; the environments say what is missing
        _import_error = error

        class _AECEnvBase:
            pass

        class _EzPickleBase:
            def __init__(self, *args: Any, **kwargs: Any) -> None:
                pass

    else:
        _import_error = None


def _require() -> None:
    if _import_error is not None:
        raise ImportError(f"{_INSTALL_HINT} ({_import_error})") from _import_error


def observation_for(game: Any, player: Any, dtype: Any = np.int8) -> np.ndarray:
    """The game's planes from the view of ``player``, whether or not it is to move (see noughts.learning.observation)."""
    return _observation(game, dtype, player)


class raw_env(_AECEnvBase, _EzPickleBase):  # type: ignore[misc]  # noqa: N801 (PettingZoo's name)
    """A noughts game as a PettingZoo AEC environment, without the illegal-move wrappers (see ``env``).

    ``game`` is a name ("classic", "ultimate", "quantum"; Classic takes its
    options as keywords: rows, cols, k, misere, free_choice, gravity) or a
    noughts game object, whose position then starts every episode.
    ``render_mode`` is None, "ansi" (``render()`` returns the text board),
    "human" (the board is printed after every step) or "rgb_array" (``render()``
    returns the picture of ``noughts.svg``, rendered by resvg-py, as an
    (height, width, 3) uint8 array).
    """

    metadata: dict[str, Any] = {
        "render_modes": ["human", "ansi", "rgb_array"],
        "name": "noughts_v0",
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(self, game: Any = "classic", render_mode: str | None = None, **options: Any) -> None:
        _require()
        _EzPickleBase.__init__(self, game, render_mode, **options)
        super().__init__()
        if isinstance(game, str):
            start = make_game(game, **options)
        elif not isinstance(game, type) and info_of(game) is not None:
            if options:
                raise TypeError("options go with a game name, not with a game object")
            start = game.copy()
        else:
            raise TypeError(f"game must be a name or a noughts game, not {game!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or one of {self.metadata['render_modes']}, not {render_mode!r}")
        self._start = start
        self.game: Any = start.copy()
        self.render_mode = render_mode
        info = info_of(start)
        assert info is not None
        self.metadata = {**type(self).metadata, "name": f"noughts_{info.name}_v0"}

        self.possible_agents: list[str] = list(AGENTS)
        self.agents: list[str] = list(AGENTS)
        n = int(start.num_actions)
        shape = tuple(start.observation_shape)
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(low=0, high=1, shape=shape, dtype=np.int8),
                    "action_mask": spaces.Box(low=0, high=1, shape=(n,), dtype=np.int8),
                }
            )
            for agent in AGENTS
        }
        self.action_spaces = {agent: spaces.Discrete(n) for agent in AGENTS}
        self.np_random, self.np_random_seed = seeding.np_random(None)
        self._reset_state()

    # ---- spaces ----------------------------------------------------------
    def observation_space(self, agent: str) -> Any:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        return self.action_spaces[agent]

    # ---- the AEC loop ----------------------------------------------------
    def _reset_state(self) -> None:
        self.game = self._start.copy()
        self.agents = list(self.possible_agents)
        self.rewards = {agent: 0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._skip_agent_selection = None
        self._select_mover()
        if self.game.is_over():  # a finished start position: the episode is over at once
            self.terminations = {agent: True for agent in self.agents}
            self._set_final_rewards()
            self._accumulate_rewards()

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Starts a new episode. The games have no chance: ``seed`` only seeds ``self.np_random``.

        ``options`` is accepted for the API and ignored.
        """
        if seed is not None:
            self.np_random, self.np_random_seed = seeding.np_random(seed)
        self._reset_state()

    def _select_mover(self) -> None:
        # Always the game's player to move, never simple alternation: Quantum's
        # collapse chooser acts twice in a row.
        self.agent_selection = AGENTS[int(self.game.to_move)]

    def _set_final_rewards(self) -> None:
        outcome = self.game.outcome()  # called once the game is over
        for agent, player in zip(AGENTS, (Player.X, Player.O)):
            self.rewards[agent] = outcome.value_for(player)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The agent's observation: its view of the planes and its action mask (zeros unless it is to move)."""
        if agent not in AGENTS:
            raise KeyError(f"unknown agent {agent!r}: the agents are {', '.join(AGENTS)}")
        player = Player.X if agent == AGENTS[0] else Player.O
        if int(player) == int(self.game.to_move) and not self.game.is_over():
            mask = np.asarray(self.game._action_mask(), dtype=np.int8)
        else:
            mask = np.zeros(self.game.num_actions, dtype=np.int8)
        return {"observation": observation_for(self.game, player), "action_mask": mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        move = operator.index(action)  # ints and numpy integers; the ids are those of the game
        self.game.play(move)  # raises IllegalMoveError, changing nothing, for an illegal move
        self._cumulative_rewards[agent] = 0
        self._clear_rewards()
        if self.game.is_over():
            self.terminations = {a: True for a in self.agents}
            self._set_final_rewards()
        self._select_mover()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    # ---- rendering -------------------------------------------------------
    def render(self) -> Any:
        """The text board: returned with render_mode="ansi", printed with "human"; pixels with "rgb_array"."""
        if self.render_mode is None:
            gymnasium.logger.warn("You are calling render method without specifying any render mode.")
            return None
        if self.render_mode == "rgb_array":
            from noughts._raster import svg_to_rgb
            from noughts.svg import svg

            return svg_to_rgb(svg(self.game))
        text = str(self.game.render())
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def close(self) -> None:
        pass


def env(game: Any = "classic", render_mode: str | None = None, **options: Any) -> Any:
    """The environment wrapped as PettingZoo's classic games are: an illegal action ends the game, -1 to its agent.

    Arguments as for ``raw_env``.
    """
    _require()
    environment = raw_env(game, render_mode=render_mode, **options)
    environment = wrappers.TerminateIllegalWrapper(environment, illegal_reward=-1)
    environment = wrappers.AssertOutOfBoundsWrapper(environment)
    return wrappers.OrderEnforcingWrapper(environment)


# ---- versioned modules, as PettingZoo names its environments ------------------------
def _versioned_module(name: str, game: str) -> Any:
    """``noughts.pettingzoo.<name>``: ``env`` and ``raw_env`` of one game, like ``pettingzoo.classic.tictactoe_v3``.

    The version changes whenever the environment's observations, actions or
    rewards change, so that results stay comparable.
    """
    import sys
    import types

    module = types.ModuleType(f"{__name__}.{name}", f"The noughts {game} game as a PettingZoo AEC environment.")

    def versioned_env(render_mode: str | None = None, **options: Any) -> Any:
        return env(game, render_mode=render_mode, **options)

    def versioned_raw_env(render_mode: str | None = None, **options: Any) -> Any:
        return raw_env(game, render_mode=render_mode, **options)

    versioned_env.__doc__ = f"noughts.pettingzoo.env({game!r}, ...): wrapped as PettingZoo's classic games are."
    versioned_raw_env.__doc__ = f"noughts.pettingzoo.raw_env({game!r}, ...): without the illegal-move wrappers."
    module.env = versioned_env  # type: ignore[attr-defined]
    module.raw_env = versioned_raw_env  # type: ignore[attr-defined]
    # Importable as a submodule (import noughts.pettingzoo.ultimate_v0) and an attribute.
    sys.modules[module.__name__] = module
    return module


classic_v0 = _versioned_module("classic_v0", "classic")
ultimate_v0 = _versioned_module("ultimate_v0", "ultimate")
quantum_v0 = _versioned_module("quantum_v0", "quantum")
