"""OpenSpiel games for the noughts games, written as OpenSpiel's own Python games are (see docs/frameworks.md).

>>> import pyspiel
>>> import noughts.openspiel                  # registers the games, as OpenSpiel's own Python games do
>>> game = pyspiel.load_game("noughts_classic(rows=4,cols=4,k=3,gravity=True)")
>>> state = game.new_initial_state()
>>> state.apply_action(state.legal_actions()[0])

Importing the module registers three games with ``pyspiel.load_game``
(``register()`` does it again, harmlessly):

- ``noughts_classic``, with the parameters rows (int, 3), cols (int, 3), k
  (int, 0 = the default of docs/rules.md), misere, free_choice, gravity (bool,
  False);
- ``noughts_ultimate``: one action per move, ``board * 9 + cell`` (OpenSpiel's
  own ``ultimate_tic_tac_toe`` splits a free move in two actions);
- ``noughts_quantum``: ``current_player()`` follows the game, so the player who
  makes a collapse choice is the current player again for their own mark.

Actions are the move ids of docs/rules.md "Move ids"; ``action_to_string`` gives
the move's notation (``b2``, ``e5``, ``a1-b2``, ``@a1``); the observation
tensor is the game's planes (docs/learning.md) from the view of the player
asked about, as float32 ``(planes, rows, cols)``; returns are +1 / -1 / 0.

The module imports without OpenSpiel; ``register()`` raises an ImportError
naming the extra to install (``pip install ".[openspiel]" in a checkout (or "noughts[openspiel]")``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from noughts._core import Player
from noughts.learning import observation as _observation
from noughts.registry import GAME_INFO, GameInfo

__all__ = ["CLASSIC_PARAMETERS", "observation_for", "register", "short_name"]


def short_name(info: GameInfo) -> str:
    """The name a noughts game is registered under with pyspiel: ``noughts_`` and the registry's name."""
    return f"noughts_{info.name}"


def _parameters(info: GameInfo) -> dict[str, Any]:
    """A game's options as OpenSpiel parameters with their defaults (an option without one, k, is 0)."""
    return {o.name: 0 if o.default is None else o.default for o in info.options}


# noughts_classic's parameters and their defaults; k = 0 stands for the rules' default.
CLASSIC_PARAMETERS: dict[str, Any] = _parameters(GAME_INFO["classic"])

_INSTALL_HINT = 'noughts.openspiel needs OpenSpiel (Python >= 3.11): pip install ".[openspiel]" in a checkout (or "noughts[openspiel]")'

_import_error: ImportError | None
if TYPE_CHECKING:
    pyspiel: Any
    IIGObserverForPublicInfoGame: Any
    _GameBase = Any
    _StateBase = Any
else:
    try:
        import pyspiel
        from open_spiel.python.observation import IIGObserverForPublicInfoGame
    except ImportError as error:  # the module still imports; register() says what is missing
        _import_error = error
        _GameBase = _StateBase = object
    else:
        _import_error = None
        _GameBase = pyspiel.Game
        _StateBase = pyspiel.State


def _from_params(info: GameInfo, params: dict[str, Any]) -> Any:
    """The noughts game of ``info`` with its OpenSpiel parameters (all given, k = 0 for the rules' default)."""
    unknown = set(params) - {o.name for o in info.options}
    if unknown:
        raise ValueError(f"unknown {short_name(info)} parameters: {', '.join(sorted(unknown))}")
    options: dict[str, Any] = {}
    for o in info.options:
        value = bool(params[o.name]) if o.is_flag else int(params[o.name])
        options[o.name] = None if o.default is None and value == 0 else value
    return info.cls(**options)


def _game_type(short: str, long_name: str, parameters: dict[str, Any]) -> Any:
    return pyspiel.GameType(
        short_name=short,
        long_name=long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameters,
    )


def observation_for(game: Any, player: Any, dtype: Any = np.float32) -> np.ndarray:
    """The game's planes from the view of ``player``, whether or not it is to move (see noughts.learning.observation)."""
    return _observation(game, dtype, player)


class NoughtsGame(_GameBase):  # type: ignore[misc]
    """A noughts game as an OpenSpiel game; the registered classes below say which."""

    _game_type: Any = None
    _info: GameInfo

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**_parameters(self._info), **(params or {})}
        start = _from_params(self._info, params)
        info = pyspiel.GameInfo(
            num_distinct_actions=int(start.num_actions),
            max_chance_outcomes=0,
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=int(start.max_game_length),
        )
        super().__init__(self._game_type, info, params)
        self._start = start
        self._shape = tuple(int(d) for d in start.observation_shape)

    def new_initial_state(self) -> NoughtsState:
        """The start of a game."""
        return NoughtsState(self, self._start.copy())

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Any:
        """The observer of the planes (and a history string for perfect-recall information states)."""
        if iig_obs_type is None or (iig_obs_type.public_info and not iig_obs_type.perfect_recall):
            return PlanesObserver(self._shape, params)
        return IIGObserverForPublicInfoGame(iig_obs_type, params)

    def noughts_game(self) -> Any:
        """A new noughts game at this game's start (with the parameters applied)."""
        return self._start.copy()


class NoughtsClassicGame(NoughtsGame):
    """``noughts_classic``: the m,n,k game with its options as game parameters."""

    _info = GAME_INFO["classic"]


class NoughtsUltimateGame(NoughtsGame):
    """``noughts_ultimate``: one action (``board * 9 + cell``) per move; ``tiebreak`` as a parameter."""

    _info = GAME_INFO["ultimate"]


class NoughtsQuantumGame(NoughtsGame):
    """``noughts_quantum``: the collapse chooser is the current player twice in a row."""

    _info = GAME_INFO["quantum"]


class NoughtsState(_StateBase):  # type: ignore[misc]
    """A position: a noughts game object does the work.

    OpenSpiel clones a Python state by deep-copying its attributes, which
    copies the noughts game (history included).
    """

    def __init__(self, game: NoughtsGame, noughts_game: Any) -> None:
        super().__init__(game)
        self._noughts = noughts_game

    @property
    def noughts_game(self) -> Any:
        """A copy of the underlying noughts game (history included)."""
        return self._noughts.copy()

    def current_player(self) -> int:
        """The player to move (0 = X, 1 = O), or pyspiel.PlayerId.TERMINAL."""
        if self._noughts.is_over():
            return int(pyspiel.PlayerId.TERMINAL)
        return int(self._noughts.to_move)

    def _legal_actions(self, player: int) -> list[int]:
        # OpenSpiel asks only for the current player; others get [] from its C++ side.
        return list(self._noughts.legal_actions())

    def _apply_action(self, action: int) -> None:
        self._noughts.play(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        return str(self._noughts.move_name(int(action)))

    def is_terminal(self) -> bool:
        return bool(self._noughts.is_over())

    def returns(self) -> list[float]:
        outcome = self._noughts.outcome()
        if outcome is None:
            return [0.0, 0.0]
        return [float(outcome.value_for(Player.X)), float(outcome.value_for(Player.O))]

    def __str__(self) -> str:
        return str(self._noughts.render())


class PlanesObserver:
    """OpenSpiel's PyObserver interface over the game's planes: ``tensor`` (flat) and ``dict["observation"]``."""

    def __init__(self, shape: tuple[int, ...], params: Any = None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        self.tensor = np.zeros(int(np.prod(shape)), np.float32)
        self.dict = {"observation": self.tensor.reshape(shape)}

    def set_from(self, state: NoughtsState, player: int) -> None:
        self.dict["observation"][...] = observation_for(state._noughts, player)

    def string_from(self, state: NoughtsState, player: int) -> str:
        # Perfect information: the position string, the same for both players.
        return str(state._noughts.to_string())


def register() -> None:
    """Registers noughts_classic, noughts_ultimate and noughts_quantum with pyspiel (again is harmless)."""
    if _import_error is not None:
        raise ImportError(f"{_INSTALL_HINT} ({_import_error})") from _import_error
    registered = set(pyspiel.registered_names())
    for cls, long in (
        (NoughtsClassicGame, "noughts Classic m,n,k"),
        (NoughtsUltimateGame, "noughts Ultimate"),
        (NoughtsQuantumGame, "noughts Quantum"),
    ):
        info = cls._info
        short = short_name(info)
        if cls._game_type is None:
            cls._game_type = _game_type(short, long, _parameters(info))
        if short not in registered:
            pyspiel.register_game(cls._game_type, cls)


# Importing the module registers the games, as OpenSpiel's own Python games
# (open_spiel.python.games) do; without OpenSpiel the import still works.
if _import_error is None:
    register()
