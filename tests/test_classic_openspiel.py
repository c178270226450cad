"""Cross-checks against OpenSpiel's tic_tac_toe, mnk and connect_four over random games."""

import random

import noughts
import pytest

pyspiel = pytest.importorskip("pyspiel")

GAMES = 1000


def compare(spiel_game, make_ours, seed, ours_to_spiel=lambda a: a):
    rng = random.Random(seed)
    for _ in range(GAMES):
        state = spiel_game.new_initial_state()
        ours = make_ours()
        while not state.is_terminal():
            theirs = sorted(state.legal_actions())
            assert [ours_to_spiel(a) for a in ours.legal_actions()] == theirs
            assert int(ours.to_move) == state.current_player()
            action = rng.choice(theirs)
            state.apply_action(action)
            ours.play(action)
        assert ours.is_over() and ours.legal_actions() == []
        returns = state.returns()
        expected = None if returns[0] == 0 else (noughts.Player.X if returns[0] > 0 else noughts.Player.O)
        assert ours.winner == expected


def test_tic_tac_toe():
    compare(pyspiel.load_game("tic_tac_toe"), noughts.Classic, 1)


@pytest.mark.parametrize("size", [4, 5])
def test_mnk(size):
    # OpenSpiel's mnk: m columns, n rows, k in a row; actions row * m + col, as ours.
    game = pyspiel.load_game("mnk", {"m": size, "n": size, "k": 4})
    compare(game, lambda: noughts.Classic(size, size, 4), size)


def test_mnk_rectangle():
    game = pyspiel.load_game("mnk", {"m": 5, "n": 3, "k": 3})
    compare(game, lambda: noughts.Classic(3, 5, 3), 3)


def test_connect_four_is_gravity_7x6_k4():
    game = pyspiel.load_game("connect_four")
    compare(game, lambda: noughts.Classic(6, 7, 4, gravity=True), 4)
