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


@pytest.mark.parametrize(
    "minimax,rollout_weight,puct",
    [(0.0, 0.0, 2.0), (0.6, 0.0, 0.0), (1.0, 0.0, 2.0), (0.3, 1.0, 0.0), (0.3, 1.0, 2.0), (1.0, 0.5, 6.0)],
)
def test_proofs_agree_with_the_solver_whatever_the_weights(minimax, rollout_weight, puct):
    """Evaluations steer the search but never decide a proof: every proven value is exact."""
    proven = 0
    for seed in range(120):
        game = random_game(lambda: Ultimate(tiebreak=seed % 3 == 0), seed, 50 + seed % 12)
        if game.is_over():
            continue
        solution = quick_solve(game)
        if solution is None:
            continue
        mcts = noughts.MCTS(seed=seed, evaluation=True, minimax=minimax, rollout_weight=rollout_weight, puct=puct)
        result = mcts.search(game, iterations=4000)
        assert game.is_legal(result.best_move.id)
        if result.proven:
            proven += 1
            assert result.proven_value == solution.value
            if solution.value == 1:
                assert result.best_move in solution.best_moves
    assert proven >= 10


@pytest.mark.parametrize("rollout_weight", [0.0, 1.0])
def test_a_tree_kept_between_moves_stays_consistent(rollout_weight):
    """Reuse carries the evaluations with the nodes: a game played with one searcher only
    makes legal moves, and a reused search sees the visits it kept."""
    mcts = noughts.MCTS(seed=3, evaluation=True, rollout_weight=rollout_weight)
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
    rollouts = noughts.MCTS(seed=5, evaluation=False).search(game, iterations=3000)
    evaluated = noughts.MCTS(seed=5).search(game, iterations=3000)  # the default
    heavier = noughts.MCTS(seed=5, minimax=1.0).search(game, iterations=3000)
    alone = noughts.MCTS(seed=5, rollout_weight=0.0).search(game, iterations=3000)
    assert evaluated.moves != rollouts.moves
    assert heavier.moves != evaluated.moves
    assert alone.moves != evaluated.moves


def test_without_heuristics_there_is_no_evaluation():
    """heuristics=False is plain UCT: no rollout policy, no prior, no network."""
    game = random_game(Ultimate, 4, 14)
    plain = noughts.MCTS(seed=5, heuristics=False, evaluation=False).search(game, iterations=3000)
    asked = noughts.MCTS(seed=5, heuristics=False, evaluation=True).search(game, iterations=3000)
    assert (plain.moves, plain.pv) == (asked.moves, asked.pv)


@pytest.mark.parametrize("make", [lambda: Classic(4, 4), Quantum], ids=["classic", "quantum"])
def test_games_without_an_evaluation_ignore_it(make):
    game = random_game(make, 3, 3)
    a = noughts.MCTS(seed=5, evaluation=False).search(game, iterations=2000)
    b = noughts.MCTS(seed=5, evaluation=True, minimax=0.9, rollout_weight=0.2).search(game, iterations=2000)
    assert (a.moves, a.pv, a.best_move) == (b.moves, b.pv, b.best_move)


@pytest.mark.parametrize("rollout_weight", [0.0, 1.0])
def test_a_small_tree_still_answers(rollout_weight):
    """When the node pool is full, leaves keep the value their parent's expansion gave them."""
    game = random_game(Ultimate, 2, 6)
    mcts = noughts.MCTS(seed=1, rollout_weight=rollout_weight, max_nodes=300)
    result = mcts.search(game, iterations=5000)
    assert result.tree_full and game.is_legal(result.best_move.id)


@pytest.mark.parametrize("name", ["minimax", "rollout_weight"])
@pytest.mark.parametrize("bad", [-0.1, 1.5, float("nan"), "0.5", True])
def test_bad_weights_are_refused(name, bad):
    with pytest.raises(noughts.InvalidOptionError, match=name):
        noughts.MCTS(**{name: bad})


@pytest.mark.parametrize(
    "name,bad",
    [("puct", -0.5), ("puct", float("inf")), ("puct", float("nan")), ("puct", "2"), ("puct", True)]
    + [("puct_temperature", v) for v in (0.0, 0.001, 101, float("nan"), "0.15", False)],
)
def test_bad_puct_settings_are_refused(name, bad):
    with pytest.raises(noughts.InvalidOptionError, match=name):
        noughts.MCTS(**{name: bad})


def test_puct_spends_the_search_on_the_moves_the_evaluation_prefers():
    """PUCT's priors come from the evaluations: over random positions, at a small budget,
    its most visited move gets a larger share of the root's visits than UCT's, and with
    sharper priors (a lower temperature) a larger share still."""
    positions = [random_game(lambda: Ultimate(tiebreak=True), seed, 10 + seed % 20) for seed in range(30)]
    positions = [game for game in positions if not game.is_over()]

    def top_share(**options):
        shares = [
            noughts.MCTS(seed=i, **options).search(game, iterations=300).moves[0].visits / 300
            for i, game in enumerate(positions)
        ]
        return sum(shares) / len(shares)

    uct, puct, sharp = top_share(puct=0), top_share(), top_share(puct_temperature=0.05)
    assert uct + 0.05 < puct < sharp
    assert repr(noughts.MCTS(puct=0)).endswith("puct=0.0)")
