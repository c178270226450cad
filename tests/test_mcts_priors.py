"""MCTS's prior: moves the game discourages start with virtual losses (Ultimate: moves that give a free move)."""

import noughts
import pytest
from game_choices import random_game
from noughts import Classic, Ultimate


def quick_solve(game):
    try:
        return noughts.solve(game, max_seconds=0.5)
    except noughts.SearchTimeout:
        return None


def test_a_discouraged_win_is_still_found_and_proven():
    """Proofs come from the rules: winning moves are never discouraged, and virtual
    losses never hide a forced result."""
    found = 0
    for seed in range(400):
        game = random_game(Ultimate, seed, 56)
        if game.is_over():
            continue
        solution = quick_solve(game)
        if solution is None or solution.value != 1:
            continue
        result = noughts.MCTS(seed=seed, prior_visits=30).search(game, iterations=20_000)
        if solution.distance == 1:
            assert result.proven_value == 1 and result.best_move in solution.best_moves
        if result.proven:
            assert result.proven_value == solution.value
        found += 1
        if found == 12:
            return
    pytest.fail("too few won endgames found")


def test_games_without_the_hook_search_as_before():
    game = random_game(lambda: Classic(4, 4), 3, 4)
    a = noughts.MCTS(seed=5).search(game, iterations=3000)
    b = noughts.MCTS(seed=5, prior_visits=0).search(game, iterations=3000)
    assert (a.moves, a.pv, a.best_move) == (b.moves, b.pv, b.best_move)


def test_the_prior_changes_ultimate_searches_and_needs_heuristics():
    game = random_game(Ultimate, 8, 12)
    plain = noughts.MCTS(seed=5, prior_visits=0).search(game, iterations=3000)
    prior = noughts.MCTS(seed=5, prior_visits=10).search(game, iterations=3000)
    off = noughts.MCTS(seed=5, prior_visits=10, heuristics=False).search(game, iterations=3000)
    no_heuristics = noughts.MCTS(seed=5, heuristics=False).search(game, iterations=3000)
    assert prior.moves != plain.moves
    assert off.moves == no_heuristics.moves  # the prior is part of the game's heuristics


@pytest.mark.parametrize("bad", [-1, 1001, 1.5, True])
def test_bad_prior_visits_are_refused(bad):
    with pytest.raises(noughts.InvalidOptionError, match="prior_visits"):
        noughts.MCTS(prior_visits=bad)
