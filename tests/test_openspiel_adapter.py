"""noughts.openspiel: OpenSpiel's random_sim_test, OpenSpiel algorithms, and random games checked against the games."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import noughts
import numpy as np
import pytest
from noughts import Classic, Player, Quantum, Ultimate

pyspiel = pytest.importorskip("pyspiel")

import noughts.openspiel as nos  # noqa: E402

# The directory the noughts under test was imported from, for the subprocesses.
NOUGHTS_PARENT = str(Path(noughts.__file__).resolve().parent.parent)

# Game strings, and the noughts game each should be.
GAMES: dict[str, Any] = {
    "noughts_classic": lambda: Classic(),
    "noughts_classic(rows=4,cols=4)": lambda: Classic(4, 4),
    "noughts_classic(misere=True)": lambda: Classic(misere=True),
    "noughts_classic(free_choice=True)": lambda: Classic(free_choice=True),
    "noughts_classic(cols=5,gravity=True,k=3,rows=4)": lambda: Classic(4, 5, 3, gravity=True),
    "noughts_classic(cols=5,free_choice=True,gravity=True,k=3,misere=True,rows=4)": lambda: Classic(
        4, 5, 3, misere=True, free_choice=True, gravity=True
    ),
    "noughts_ultimate": Ultimate,
    "noughts_quantum": Quantum,
}


@pytest.fixture(scope="module", autouse=True)
def registered() -> None:
    nos.register()


def expected_planes(game: Any, player: int) -> np.ndarray:
    """The planes of docs/learning.md from `player`'s view, built from the board contents (see test_pettingzoo.py)."""
    planes = np.asarray(game.observation(), dtype=np.float32).copy()
    own, other = ("X", "O") if player == 0 else ("O", "X")
    if isinstance(game, (Classic, Ultimate)):
        board = np.array(game.board())
        planes[0], planes[1] = board == own, board == other
    if isinstance(game, Ultimate):
        states = game.board_states()
        for b in range(9):
            rows, cols = slice(b // 3 * 3, b // 3 * 3 + 3), slice(b % 3 * 3, b % 3 * 3 + 3)
            planes[3][rows, cols] = states[b].name == own
            planes[4][rows, cols] = states[b].name == other
    if isinstance(game, Quantum):
        marks = game.classical_marks()
        planes[0] = np.array([m is not None and int(m[0]) == player for m in marks]).reshape(3, 3)
        planes[1] = np.array([m is not None and int(m[0]) != player for m in marks]).reshape(3, 3)
    return planes


# ---- registration and parameters -------------------------------------------
def test_registered_names_and_parameters() -> None:
    from noughts.registry import GAME_INFO

    names = {nos.short_name(info) for info in GAME_INFO.values()}
    assert names == {"noughts_classic", "noughts_ultimate", "noughts_quantum"}
    assert names <= set(pyspiel.registered_names())
    nos.register()  # again: harmless
    game = pyspiel.load_game("noughts_classic", {"rows": 4, "cols": 5, "k": 3, "gravity": True})
    assert game.get_parameters() == {
        "rows": 4,
        "cols": 5,
        "k": 3,
        "misere": False,
        "free_choice": False,
        "gravity": True,
    }
    assert game.num_distinct_actions() == 5
    assert game.observation_tensor_shape() == [3, 4, 5]
    assert game.max_game_length() == 20
    assert pyspiel.load_game("noughts_classic").get_parameters()["k"] == 0
    ultimate = pyspiel.load_game("noughts_ultimate")
    assert ultimate.num_distinct_actions() == 81 and ultimate.observation_tensor_shape() == [6, 9, 9]
    quantum = pyspiel.load_game("noughts_quantum")
    assert quantum.num_distinct_actions() == 54 and quantum.observation_tensor_shape() == [13, 3, 3]
    game_type = ultimate.get_type()
    assert game_type.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert game_type.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert game_type.information == pyspiel.GameType.Information.PERFECT_INFORMATION


@pytest.mark.parametrize("name", GAMES)
def test_game_strings_build_the_right_game(name: str) -> None:
    game = pyspiel.load_game(name)
    state = game.new_initial_state()
    assert state.noughts_game.to_string() == GAMES[name]().to_string()
    assert pyspiel.load_game(str(game)).get_parameters() == game.get_parameters()


def test_bad_parameters_are_refused() -> None:
    # Values the game refuses: noughts' own error comes through.
    with pytest.raises(noughts.InvalidOptionError, match="k=9"):
        pyspiel.load_game("noughts_classic(k=9)")
    with pytest.raises(noughts.InvalidOptionError):
        pyspiel.load_game("noughts_classic(rows=9,cols=9)")  # 81 cells > 64
    # Names and types: OpenSpiel checks them against the parameter specification.
    with pytest.raises(pyspiel.SpielError, match="Unknown parameter"):
        pyspiel.load_game("noughts_ultimate(rows=4)")
    with pytest.raises(pyspiel.SpielError, match="Unknown parameter"):
        pyspiel.load_game("noughts_classic(size=4)")
    with pytest.raises(pyspiel.SpielError, match="Wrong type"):
        pyspiel.load_game("noughts_classic(rows=3.5)")


# ---- OpenSpiel's conformance test ------------------------------------------
@pytest.mark.parametrize("name", GAMES)
def test_random_sim_test(name: str) -> None:
    game = pyspiel.load_game(name)
    pyspiel.random_sim_test(game, num_sims=30, serialize=False, verbose=False)
    # Serialization works too: the state's attributes (the noughts game) pickle.
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


# ---- random games against the games themselves ------------------------------
@pytest.mark.parametrize("name", GAMES)
def test_random_games_match_the_game(name: str) -> None:
    game = pyspiel.load_game(name)
    rng = random.Random(name)
    outcomes = set()
    for _ in range(40):
        ours = GAMES[name]()
        state = game.new_initial_state()
        while True:
            assert state.is_terminal() == ours.is_over()
            for p in (0, 1):
                assert np.array_equal(
                    np.asarray(state.observation_tensor(p)).reshape(ours.observation_shape), expected_planes(ours, p)
                ), (p, ours.to_string())
                assert state.observation_string(p) == ours.to_string()
            if ours.is_over():
                break
            player = state.current_player()
            assert player == int(ours.to_move)
            assert state.legal_actions() == ours.legal_actions()
            assert state.legal_actions(1 - player) == []
            mask = state.legal_actions_mask(player)
            assert list(np.flatnonzero(mask)) == ours.legal_actions()
            assert state.rewards() == [0.0, 0.0]
            move = rng.choice(ours.legal_actions())
            assert state.action_to_string(player, move) == ours.move_name(move)
            ours.play(move)
            state.apply_action(move)
        assert state.current_player() == pyspiel.PlayerId.TERMINAL
        outcome = ours.outcome()
        assert outcome is not None
        assert state.returns() == [float(outcome.value_for(Player.X)), float(outcome.value_for(Player.O))]
        assert state.history() == ours.move_ids
        assert str(state) == ours.render()
        outcomes.add(outcome.winner)
    assert {Player.X, Player.O} <= outcomes, outcomes


def test_clone_is_independent() -> None:
    game = pyspiel.load_game("noughts_ultimate")
    state = game.new_initial_state()
    state.apply_action(40)
    clone = state.clone()
    clone.apply_action(36)
    assert state.history() == [40] and clone.history() == [40, 36]
    assert state.noughts_game.move_ids == [40] and clone.noughts_game.move_ids == [40, 36]
    assert 36 in state.legal_actions() and 36 not in clone.legal_actions()


# ---- Quantum's double move --------------------------------------------------
def test_quantum_collapse_chooser_is_current_player_twice() -> None:
    state = pyspiel.load_game("noughts_quantum").new_initial_state()
    state.apply_action(state.string_to_action("a1-b1"))  # x1
    state.apply_action(0)  # o2 in a1-b1 closes a cycle
    assert state.current_player() == 0  # X did not close it: X chooses
    assert state.legal_actions() == [36, 37]
    assert [state.action_to_string(0, a) for a in state.legal_actions()] == ["@a1", "@b1"]
    assert state.legal_actions(1) == []
    state.apply_action(36)
    assert state.current_player() == 0  # and then writes mark 3
    assert all(a < 36 for a in state.legal_actions())
    assert [(h.player, h.action) for h in state.full_history()] == [(0, 0), (1, 0), (0, 36)]
    x_view = np.asarray(state.observation_tensor(0)).reshape(13, 3, 3)
    o_view = np.asarray(state.observation_tensor(1)).reshape(13, 3, 3)
    assert x_view[0].ravel()[1] == 1 and x_view[1].ravel()[0] == 1  # x1 in b1 is X's own
    assert o_view[0].ravel()[0] == 1 and o_view[1].ravel()[1] == 1  # o2 in a1 is O's own
    assert np.array_equal(x_view[2:], o_view[2:])


def test_quantum_double_moves_happen_in_random_games() -> None:
    game = pyspiel.load_game("noughts_quantum")
    rng = random.Random(11)
    repeats = longest = 0
    for _ in range(300):
        state = game.new_initial_state()
        previous = None
        while not state.is_terminal():
            player = state.current_player()
            repeats += player == previous
            previous = player
            state.apply_action(rng.choice(state.legal_actions()))
        longest = max(longest, len(state.history()))
    assert repeats > 100
    assert longest <= game.max_game_length()


# ---- OpenSpiel algorithms on noughts games ------------------------------------
def test_mcts_bot_plays_ultimate() -> None:
    from open_spiel.python.algorithms import mcts

    game = pyspiel.load_game("noughts_ultimate")
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(0))
    bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=40, evaluator=evaluator, random_state=np.random.RandomState(1))
    state = game.new_initial_state()
    ours = Ultimate()
    for _ in range(6):
        action = bot.step(state)
        assert action in ours.legal_actions()
        state.apply_action(action)
        ours.play(action)
    assert state.noughts_game.to_string() == ours.to_string()


def test_mcts_bot_finds_the_win_in_quantum_and_classic() -> None:
    from open_spiel.python.algorithms import mcts

    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=2, random_state=np.random.RandomState(0))
    # Classic: X (a1, b1) wins with c1 (id 2).
    game = pyspiel.load_game("noughts_classic")
    state = game.new_initial_state()
    for action in [0, 3, 1, 4]:
        state.apply_action(action)
    bot = mcts.MCTSBot(game, 2.0, 300, evaluator, solve=True, random_state=np.random.RandomState(2))
    assert bot.step(state) == 2
    # Quantum: a collapse choice that wins at once for the chooser is found by the solver.
    qgame = pyspiel.load_game("noughts_quantum")
    rng = random.Random(5)
    while True:
        g = Quantum()
        while not g.is_over():
            g.play(rng.choice(g.legal_actions()))
        moves = g.move_ids
        if 36 <= moves[-1] < 45 and g.winner is not None:
            before = Quantum()
            for m in moves[:-1]:
                before.play(m)
            if int(before.to_move) == int(g.winner):
                break
    qstate = qgame.new_initial_state()
    for m in moves[:-1]:
        qstate.apply_action(m)
    qbot = mcts.MCTSBot(qgame, 2.0, 300, evaluator, solve=True, random_state=np.random.RandomState(3))
    choice = qbot.step(qstate)
    child = qstate.child(choice)
    assert child.is_terminal() and child.returns()[int(g.winner)] == 1.0


@pytest.mark.parametrize(
    "name, options",
    [
        ("noughts_classic", {}),
        ("noughts_classic(misere=True)", {"misere": True}),
        ("noughts_classic(cols=4,gravity=True,k=3,rows=3)", {"rows": 3, "cols": 4, "k": 3, "gravity": True}),
        ("noughts_classic(cols=4,k=3,rows=2)", {"rows": 2, "cols": 4, "k": 3}),
    ],
)
def test_alpha_beta_agrees_with_the_solver(name: str, options: dict[str, Any]) -> None:
    from open_spiel.python.algorithms import minimax

    value, _ = minimax.alpha_beta_search(pyspiel.load_game(name))
    assert value == noughts.solve(Classic(**options)).value


# ---- imports -------------------------------------------------------------------
def test_without_openspiel_the_module_imports_and_register_says_what_to_install() -> None:
    code = (
        "import sys\n"
        "sys.modules['pyspiel'] = None\n"
        "import noughts.openspiel as nos\n"
        "try:\n"
        "    nos.register()\n"
        "except ImportError as e:\n"
        "    print('ImportError:', e)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": NOUGHTS_PARENT},
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert 'pip install ".[openspiel]"' in result.stdout
