"""MCTS valued by the game's evaluation: children evaluated at expansion, minimax backed up (docs/mcts.md)."""

import noughts
import pytest
from game_choices import random_game
from noughts import Classic, Quantum, Ultimate


def quick_solve(game):
    try:
        return noughts.solve(game, max_seconds=0.5)
    except noughts.SearchTimeout:
        return None


@pytest.mark.parametrize("minimax", [0.0, 0.6, 1.0])
def test_proofs_agree_with_the_solver_whatever_the_weight(minimax):
    """Evaluations steer the search but never decide a proof: every proven value is exact."""
    proven = 0
    for seed in range(120):
        game = random_game(lambda: Ultimate(tiebreak=seed % 3 == 0), seed, 50 + seed % 12)
        if game.is_over():
            continue
        solution = quick_solve(game)
        if solution is None:
            continue
        result = noughts.MCTS(seed=seed, evaluation=True, minimax=minimax).search(game, iterations=4000)
        assert game.is_legal(result.best_move.id)
        if result.proven:
            proven += 1
            assert result.proven_value == solution.value
            if solution.value == 1:
                assert result.best_move in solution.best_moves
    assert proven >= 10


def test_a_tree_kept_between_moves_stays_consistent():
    """Reuse carries the evaluations with the nodes: a game played with one searcher only
    makes legal moves, and a reused search sees the visits it kept."""
    mcts = noughts.MCTS(seed=3, evaluation=True)
    game = Ultimate()
    reused = 0
    while not game.is_over():
        result = mcts.search(game, iterations=1500)
        reused += result.reused_visits
        assert game.is_legal(result.best_move.id)
        game.play(result.best_move.id)
    assert reused > 0


def test_the_evaluation_changes_ultimate_searches():
    game = random_game(Ultimate, 4, 14)
    rollouts = noughts.MCTS(seed=5).search(game, iterations=3000)
    evaluated = noughts.MCTS(seed=5, evaluation=True).search(game, iterations=3000)
    heavier = noughts.MCTS(seed=5, evaluation=True, minimax=1.0).search(game, iterations=3000)
    assert evaluated.moves != rollouts.moves
    assert heavier.moves != evaluated.moves


@pytest.mark.parametrize("make", [lambda: Classic(4, 4), Quantum], ids=["classic", "quantum"])
def test_games_without_an_evaluation_ignore_it(make):
    game = random_game(make, 3, 3)
    a = noughts.MCTS(seed=5).search(game, iterations=2000)
    b = noughts.MCTS(seed=5, evaluation=True, minimax=0.9).search(game, iterations=2000)
    assert (a.moves, a.pv, a.best_move) == (b.moves, b.pv, b.best_move)


def test_a_small_tree_still_answers():
    """When the node pool is full, leaves keep the value their parent's expansion gave them."""
    game = random_game(Ultimate, 2, 6)
    result = noughts.MCTS(seed=1, evaluation=True, max_nodes=300).search(game, iterations=5000)
    assert result.tree_full and game.is_legal(result.best_move.id)


@pytest.mark.parametrize("bad", [-0.1, 1.5, float("nan"), "0.5", True])
def test_bad_minimax_weights_are_refused(bad):
    with pytest.raises(noughts.InvalidOptionError, match="minimax"):
        noughts.MCTS(minimax=bad)
