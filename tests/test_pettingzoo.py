"""noughts.pettingzoo: PettingZoo's own API and seed tests, and random games checked step by step against the games."""

from __future__ import annotations

import os
import pickle
import random
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import noughts
import numpy as np
import pytest
from noughts import Classic, IllegalMoveError, Player, Quantum, Ultimate

pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from noughts.pettingzoo import AGENTS, env, raw_env  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

# The directory the noughts under test was imported from, for the subprocesses.
NOUGHTS_PARENT = str(Path(noughts.__file__).resolve().parent.parent)

CONFIGS: dict[str, tuple[str, dict[str, Any]]] = {
    "classic": ("classic", {}),
    "classic-4x4": ("classic", {"rows": 4, "cols": 4}),
    "classic-misere": ("classic", {"misere": True}),
    "classic-free": ("classic", {"free_choice": True}),
    "classic-gravity": ("classic", {"rows": 4, "cols": 5, "k": 3, "gravity": True}),
    "classic-all": ("classic", {"rows": 4, "cols": 5, "k": 3, "misere": True, "free_choice": True, "gravity": True}),
    "classic-1x4": ("classic", {"rows": 1, "cols": 4, "k": 2}),
    "ultimate": ("ultimate", {}),
    "quantum": ("quantum", {}),
}

# What api_test says of any environment outside its own lists: a dict
# observation (as PettingZoo's classic games have) and agent names that are
# not "<word>_<number>" (ours are player_x and player_o, as asked).
EXPECTED_WARNINGS = (
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be",
    "We recommend agents to be named in the format",
)


def seed_spaces(e: Any, seed: int) -> None:
    for i, agent in enumerate(e.possible_agents):
        e.action_space(agent).seed(seed + i)


# ---- an independent account of the planes from either player's view -------
def expected_planes(game: Any, player: Player) -> np.ndarray:
    """The planes as docs/learning.md describes them, from `player`'s view, built from the board contents.

    Planes that do not belong to a player (legal cells, spooky marks...) are
    the mover's, from game.observation().
    """
    mover = np.asarray(game.observation(), dtype=np.int8)
    planes = mover.copy()
    own, other = ("X", "O") if player == Player.X else ("O", "X")
    if isinstance(game, Classic):
        board = np.array(game.board())
        planes[0], planes[1] = board == own, board == other
    elif isinstance(game, Ultimate):
        board = np.array(game.board())
        planes[0], planes[1] = board == own, board == other
        states = game.board_states()
        for b in range(9):
            rows, cols = slice(b // 3 * 3, b // 3 * 3 + 3), slice(b % 3 * 3, b % 3 * 3 + 3)
            planes[3][rows, cols] = states[b].name == own
            planes[4][rows, cols] = states[b].name == other
            planes[5][rows, cols] = states[b].name == "DRAWN"
    elif isinstance(game, Quantum):
        marks = game.classical_marks()
        planes[0] = np.array([m is not None and m[0] == player for m in marks]).reshape(3, 3)
        planes[1] = np.array([m is not None and m[0] != player for m in marks]).reshape(3, 3)
    return planes


def play_random_episode(e: Any, rng: random.Random, check: bool = True) -> dict[str, Any]:
    """Plays one random episode through the AEC loop while a noughts game plays the same moves; checks every step."""
    e.reset(seed=rng.randrange(2**31))
    game = e.unwrapped.game.copy()
    stats = {"moves": 0, "repeats": 0, "collapse_ended": False}
    previous = None
    final: dict[str, float] = {}
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        assert info == {}
        if terminated or truncated:
            assert game.is_over() and not truncated
            assert not obs["action_mask"].any()
            if check:
                player = Player.X if agent == "player_x" else Player.O
                assert np.array_equal(obs["observation"], expected_planes(game, player))
            final[agent] = reward
            e.step(None)
            continue
        assert agent == AGENTS[int(game.to_move)], game.to_string()
        assert reward == 0
        assert e.terminations == {a: False for a in AGENTS}
        mask = obs["action_mask"]
        assert mask.dtype == np.int8 and obs["observation"].dtype == np.int8
        assert list(np.flatnonzero(mask)) == game.legal_actions()
        if check:
            other = AGENTS[1 - int(game.to_move)]
            other_obs = e.observe(other)
            assert not other_obs["action_mask"].any()
            assert np.array_equal(obs["observation"], game.observation(np.int8))
            for a, p in zip(AGENTS, (Player.X, Player.O)):
                seen = obs["observation"] if a == agent else other_obs["observation"]
                assert np.array_equal(seen, expected_planes(game, p)), (a, game.to_string())
            assert e.observation_space(agent).contains(obs)
        action = rng.choice(game.legal_actions())
        if agent == previous:
            stats["repeats"] += 1
        previous = agent
        game.play(action)
        e.step(action)
        stats["moves"] += 1
        if game.is_over() and isinstance(game, Quantum) and 36 <= action < 45:
            stats["collapse_ended"] = True
    assert set(final) == set(AGENTS) and not e.agents
    outcome = game.outcome()
    assert outcome is not None
    assert final == {"player_x": outcome.value_for(Player.X), "player_o": outcome.value_for(Player.O)}
    stats["winner"] = game.winner
    return stats


# ---- PettingZoo's own tests -------------------------------------------------
@pytest.mark.parametrize("wrapped", [True, False], ids=["env", "raw_env"])
@pytest.mark.parametrize("config", CONFIGS)
def test_api_test(config: str, wrapped: bool) -> None:
    name, options = CONFIGS[config]
    for seed in range(3):  # each run plays one game to its end
        e = (env if wrapped else raw_env)(game=name, **options)
        seed_spaces(e, seed)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            api_test(e, num_cycles=200)
        unexpected = {str(w.message) for w in caught if not str(w.message).startswith(EXPECTED_WARNINGS)}
        assert not unexpected


@pytest.mark.parametrize("config", CONFIGS)
def test_seed_test(config: str) -> None:
    name, options = CONFIGS[config]
    seed_test(lambda: env(game=name, **options), num_cycles=200)


# ---- random games against the games themselves ------------------------------
@pytest.mark.parametrize("config", CONFIGS)
def test_random_episodes_match_the_game(config: str) -> None:
    name, options = CONFIGS[config]
    rng = random.Random(f"pettingzoo-{config}")
    e = env(game=name, **options)
    winners = set()
    for _ in range(60):
        winners.add(play_random_episode(e, rng)["winner"])
    if config not in ("classic-1x4",):
        assert {Player.X, Player.O} <= winners, winners  # both rewards signs were seen


def test_quantum_double_moves_in_random_episodes() -> None:
    rng = random.Random(7)
    e = raw_env(game="quantum")
    repeats = 0
    collapse_ended = 0
    for _ in range(150):
        stats = play_random_episode(e, rng, check=False)
        repeats += stats["repeats"]
        collapse_ended += stats["collapse_ended"]
    assert repeats > 50 and collapse_ended > 5, (repeats, collapse_ended)


# ---- Quantum's double move, spelled out -------------------------------------
def test_quantum_collapse_chooser_moves_twice() -> None:
    e = env(game="quantum")
    e.reset()
    assert e.agent_selection == "player_x"
    e.step(0)  # x1 in a1-b1
    assert e.agent_selection == "player_o"
    e.step(0)  # o2 in a1-b1: closes a cycle; X (who did not close it) chooses
    assert e.agent_selection == "player_x"
    obs = e.observe("player_x")
    assert list(np.flatnonzero(obs["action_mask"])) == [36, 37]  # @a1, @b1
    assert not e.observe("player_o")["action_mask"].any()
    e.step(36)  # o2 lands in a1, so x1 in b1 ...
    assert e.agent_selection == "player_x"  # ... and X writes mark 3 now
    mask = e.observe("player_x")["action_mask"]
    assert mask[:36].any() and not mask[36:].any()
    # Plane 0 is X's own classical mark in b1 (cell 1), plane 1 O's in a1 (cell 0), for X ...
    x_view = e.observe("player_x")["observation"]
    assert x_view[0].ravel()[1] == 1 and x_view[1].ravel()[0] == 1
    # ... and the other way round for O, who is not to move.
    o_view = e.observe("player_o")["observation"]
    assert o_view[0].ravel()[0] == 1 and o_view[1].ravel()[1] == 1
    assert np.array_equal(x_view[2:], o_view[2:])
    assert e.rewards == {"player_x": 0, "player_o": 0}


def test_quantum_collapse_that_ends_the_game_gives_no_second_move() -> None:
    # Find, in random games, one that a collapse choice ends, then replay it through the environment.
    rng = random.Random(3)
    while True:
        g = Quantum()
        moves = []
        while not g.is_over():
            moves.append(rng.choice(g.legal_actions()))
            g.play(moves[-1])
        if 36 <= moves[-1] < 45 and g.winner is not None:
            break
    e = env(game="quantum")
    e.reset()
    for move in moves[:-1]:
        e.step(move)
    chooser = e.agent_selection
    e.step(moves[-1])
    assert all(e.terminations.values())
    winner = AGENTS[int(g.winner)]
    loser = AGENTS[1 - int(g.winner)]
    assert e._cumulative_rewards == {winner: 1, loser: -1}
    assert chooser in AGENTS
    seen = []
    for agent in e.agent_iter():
        _, reward, terminated, _, _ = e.last()
        assert terminated
        seen.append((agent, reward))
        e.step(None)
    assert sorted(seen) == sorted([(winner, 1), (loser, -1)])


# ---- illegal moves ----------------------------------------------------------
def test_illegal_move_ends_the_game_with_minus_one_for_its_agent(caplog: pytest.LogCaptureFixture) -> None:
    e = env(game="classic")
    e.reset()
    e.step(4)
    assert e.agent_selection == "player_o"
    e.step(4)  # occupied
    assert "Illegal move" in caplog.text  # PettingZoo logs it
    assert all(e.terminations.values()) and all(e.truncations.values())
    results = {}
    for agent in e.agent_iter():
        _, reward, terminated, truncated, _ = e.last()
        assert terminated and truncated
        results[agent] = reward
        e.step(None)
    assert results == {"player_o": -1, "player_x": 0}


def test_illegal_move_of_the_chooser_in_quantum() -> None:
    e = env(game="quantum")
    e.reset()
    e.step(0)
    e.step(0)
    e.step(5)  # a spooky pair while X must choose the collapse
    assert e.env.unwrapped._cumulative_rewards == {"player_x": -1, "player_o": 0}


def test_out_of_range_action_is_an_assertion_error() -> None:
    e = env(game="classic")
    e.reset()
    with pytest.raises(AssertionError):
        e.step(9)


def test_raw_env_raises_on_an_illegal_move_and_changes_nothing() -> None:
    e = raw_env(game="ultimate")
    e.reset()
    e.step(40)
    before = e.game.to_string()
    with pytest.raises(IllegalMoveError):
        e.step(0)  # X's e5 (board 4, cell 4) sends O to board 4: board 0 is not open to O
    assert e.game.to_string() == before and e.agent_selection == "player_o"


# ---- construction, rendering, pickling ---------------------------------------
def test_spaces() -> None:
    e = env(game="classic", rows=4, cols=5, free_choice=True)
    e.reset()
    for agent in AGENTS:
        assert e.action_space(agent).n == 40
        space = e.observation_space(agent)
        assert space["observation"].shape == (3, 4, 5) and space["observation"].dtype == np.int8
        assert space["action_mask"].shape == (40,) and space["action_mask"].dtype == np.int8
        assert e.observation_space(agent) is space
    assert e.possible_agents == ["player_x", "player_o"]


def test_a_game_object_starts_every_episode() -> None:
    start = Classic(4, 4)
    for move in ["a1", "b2", "c3"]:
        start.play(move)
    e = env(game=start)
    for _ in range(2):
        e.reset()
        assert e.unwrapped.game.to_string() == start.to_string()
        assert e.agent_selection == "player_o"
        e.step(e.unwrapped.game.legal_actions()[0])
    assert start.ply == 3  # the caller's game is not played on


def test_bad_arguments() -> None:
    with pytest.raises(ValueError):
        raw_env(game="chess")
    with pytest.raises(ValueError):
        raw_env(game="ultimate", rows=4)
    with pytest.raises(ValueError):
        raw_env(game="classic", render_mode="rgb")
    e = raw_env()
    e.reset()
    with pytest.raises(KeyError):
        e.observe("player_1")


def test_render_modes(capsys: pytest.CaptureFixture[str]) -> None:
    e = env(game="ultimate", render_mode="ansi")
    e.reset()
    e.step(40)
    assert e.render() == Ultimate.render(e.unwrapped.game) and "X" in e.render()
    e = env(game="classic", render_mode="human")
    e.reset()
    capsys.readouterr()
    e.step(4)  # human mode prints after every step
    assert capsys.readouterr().out.strip() == e.unwrapped.game.render().strip()
    e = raw_env(game="classic")
    e.reset()
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        assert e.render() is None


def test_pickle_round_trip() -> None:
    e = raw_env(game="classic", rows=4, cols=4, gravity=True)
    copy = pickle.loads(pickle.dumps(e))
    copy.reset()
    assert copy.game.options() == Classic(4, 4, gravity=True).options()


# ---- imports ------------------------------------------------------------------
def run_python(code: str) -> subprocess.CompletedProcess[str]:
    env_vars = {"PYTHONPATH": NOUGHTS_PARENT}
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env={**os.environ, **env_vars}, timeout=60
    )


def test_import_noughts_does_not_import_the_adapters() -> None:
    result = run_python(
        "import sys, noughts\n"
        "bad = [m for m in sys.modules if m.split('.')[0] in ('pettingzoo', 'gymnasium', 'pyspiel', 'open_spiel')"
        " or m in ('noughts.pettingzoo', 'noughts.openspiel')]\n"
        "print(bad)"
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


def test_without_pettingzoo_the_module_imports_and_env_says_what_to_install() -> None:
    result = run_python(
        "import sys\n"
        "sys.modules['pettingzoo'] = None\n"
        "import noughts.pettingzoo as nz\n"
        "try:\n"
        "    nz.env(game='classic')\n"
        "except ImportError as e:\n"
        "    print('ImportError:', e)\n"
    )
    assert result.returncode == 0, result.stderr
    assert 'pip install ".[pettingzoo]"' in result.stdout
