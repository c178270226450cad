"""Search entry points given something that is not a game, and results that describe the searched position."""

import noughts
import pytest


@pytest.mark.parametrize("not_a_game", ["classic", None, 3, [0, 1], object()])
@pytest.mark.parametrize(
    "call",
    [
        lambda g: noughts.solve(g),
        lambda g: noughts.best_move(g),
        lambda g: noughts.perft(g, 2),
        lambda g: noughts.random_playouts(g, 10),
    ],
    ids=["solve", "best_move", "perft", "random_playouts"],
)
def test_a_non_game_is_an_invalid_option_with_a_clear_message(call, not_a_game):
    with pytest.raises(noughts.InvalidOptionError, match=r"takes a noughts game \(Classic, Ultimate or Quantum\)") as e:
        call(not_a_game)
    assert "incompatible function arguments" not in str(e.value) and "_core" not in str(e.value)


def test_search_result_to_move_is_the_mover_of_the_searched_position():
    # The game moves on while the search runs (here: the searcher plays a move on it before answering):
    # the result still names the player it searched for, the one its best move belongs to.
    game = noughts.Ultimate()
    mcts = noughts.MCTS(seed=1)
    real = mcts._searcher(game)

    class PlaysMeanwhile:
        def search(self, g, n, s):
            result = real.search(g, n, s)
            game.play("e5")
            return result

    mcts._searcher = lambda g: PlaysMeanwhile()
    result = mcts.search(game, iterations=200)
    assert game.to_move == noughts.Player.O
    assert result.to_move == noughts.Player.X
