"""Random games of every option combination, move by move against the Python model."""

import random

import noughts
import pytest
from classic_model import ClassicModel

BOARDS = [(3, 3, 3), (4, 4, 3), (4, 4, 4), (5, 5, 4), (3, 5, 3), (6, 4, 4), (8, 8, 5), (1, 64, 5), (2, 2, 2), (3, 3, 1), (7, 1, 3)]
OPTIONS = [(m, f, g) for m in (False, True) for f in (False, True) for g in (False, True)]

WINNER = {"X": noughts.Player.X, "O": noughts.Player.O, "draw": None}


@pytest.mark.parametrize("misere,free_choice,gravity", OPTIONS)
@pytest.mark.parametrize("rows,cols,k", BOARDS)
def test_random_games_match_model(rows, cols, k, misere, free_choice, gravity):
    rng = random.Random(rows * 1000 + cols * 100 + k * 10 + misere * 4 + free_choice * 2 + gravity)
    for _ in range(15):
        game = noughts.Classic(rows, cols, k, misere=misere, free_choice=free_choice, gravity=gravity)
        model = ClassicModel(rows, cols, k, misere, free_choice, gravity)
        while True:
            legal = model.legal()
            assert game.legal_actions() == legal
            assert game.is_over() == (model.result is not None)
            if not legal:
                break
            assert game.to_move == (noughts.Player.X if model.ply % 2 == 0 else noughts.Player.O)
            move = rng.choice(legal)
            game.play(move)
            model.play(move)
        assert game.winner == WINNER[model.result]
        outcome = game.outcome()
        assert outcome is not None and outcome.winner == WINNER[model.result]
        # The position string of a finished game reads back as the same finished game.
        again = noughts.Classic.from_string(game.to_string())
        assert again == game and again.outcome() == outcome
