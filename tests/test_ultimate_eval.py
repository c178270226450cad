"""Ultimate's learned evaluation, and MCTS with it and with the rollout policy."""

import re
from pathlib import Path

import noughts
import numpy as np
import pytest
from game_choices import random_game
from noughts import BoardState, Ultimate

HEADER = Path(__file__).resolve().parents[1] / "cpp/include/noughts/ultimate_eval_weights.hpp"


def read_weights(tiebreak):
    """The network of a rule set, read from the generated header (an independent reading of the data)."""
    text = HEADER.read_text()

    def floats(name):
        body = re.search(name + r"[^=]*=\s*(\{.*?\});\n", text, re.S).group(1)
        return np.array([float(v) for v in re.findall(r"-?[\d.]+(?:e[-+]?\d+)?(?=f)", body)], np.float64)

    rule_sets = int(re.search(r"kRuleSets = (\d+);", text).group(1))
    hidden = int(re.search(r"kHidden = (\d+);", text).group(1))
    assert rule_sets == 2
    r = int(tiebreak)
    w1 = floats("kInput").reshape(rule_sets, -1, hidden)[r]
    b1 = floats("kHiddenBias").reshape(rule_sets, hidden)[r]
    w2 = floats("kOutput\\b").reshape(rule_sets, hidden)[r]
    b2 = floats("kOutputBias")[r]
    return w1, b1, w2, b2


LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


def has_two_and_a_gap(mine, yours):
    """Some line holds two of mine and an empty cell."""
    cells = [("m" if mine >> c & 1 else "y" if yours >> c & 1 else ".") for c in range(9)]
    return any(sorted(cells[c] for c in line) == [".", "m", "m"] for line in LINES)


def can_still_line(yours):
    """Some line holds none of yours."""
    return any(all(not yours >> c & 1 for c in line) for line in LINES)


def features(game):
    """The features docs/mcts.md lists, built from the public API."""
    me = int(game.to_move)
    xs, os = game.board_marks()
    own, theirs = (xs, os) if me == 0 else (os, xs)
    f = np.zeros(235)
    for b in range(9):
        for c in range(9):
            f[9 * b + c] = own[b] >> c & 1
            f[81 + 9 * b + c] = theirs[b] >> c & 1
    mine, yours = (BoardState.X, BoardState.O) if me == 0 else (BoardState.O, BoardState.X)
    for b, state in enumerate(game.board_states()):
        f[162 + b] = state == mine
        f[171 + b] = state == yours
        f[180 + b] = state == BoardState.DRAWN
        if state == BoardState.OPEN:
            f[199 + b] = has_two_and_a_gap(own[b], theirs[b])
            f[208 + b] = has_two_and_a_gap(theirs[b], own[b])
            f[217 + b] = can_still_line(theirs[b])
            f[226 + b] = can_still_line(own[b])
    f[189 + (9 if game.forced_board is None else game.forced_board)] = 1
    return f


@pytest.mark.skipif(not HEADER.exists(), reason="needs the source tree (the generated weights header)")
@pytest.mark.parametrize("seed", range(40))
def test_evaluation_is_the_network_of_the_documented_features(seed):
    tiebreak = seed % 2 == 1  # each rule set's position is valued by that rule set's network
    w1, b1, w2, b2 = read_weights(tiebreak)
    game = random_game(lambda: Ultimate(tiebreak=tiebreak), seed, seed * 3 % 61)
    if game.is_over():
        pytest.skip("the random game ended")
    h = np.clip(features(game) @ w1 + b1, 0, 1)
    expected = np.tanh(h @ w2 + b2)
    # The engine adds the weights in 16-bit fixed point (ultimate_eval.cpp): over
    # thousands of random positions it is within about 0.01 of the float network.
    assert game.evaluate() == pytest.approx(expected, abs=0.02)


@pytest.mark.parametrize("seed", range(20))
def test_the_training_features_are_the_documented_ones(seed):
    """Ultimate._eval_features (what the training script learns from) of a position's masks."""
    tiebreak = seed % 2 == 1
    game = random_game(lambda: Ultimate(tiebreak=tiebreak), seed, seed * 7 % 70)
    if game.is_over():
        pytest.skip("the random game ended")
    xs, os = game.board_marks()
    own, theirs = (xs, os) if game.to_move == noughts.Player.X else (os, xs)
    sent = -1 if game.forced_board is None else game.forced_board
    rows = Ultimate._eval_features(np.array([own], np.uint16), np.array([theirs], np.uint16), np.array([sent], np.int8))
    assert rows.shape == (1, Ultimate._EVAL_FEATURES) and rows.dtype == np.uint8
    assert list(rows[0]) == list(features(game).astype(np.uint8))


def test_the_training_features_refuse_what_is_not_a_position():
    ok = np.zeros((1, 9), np.uint16)
    with pytest.raises(noughts.InvalidOptionError, match="9-bit masks"):
        Ultimate._eval_features(np.full((1, 9), 512, np.uint16), ok, np.array([-1], np.int8))
    with pytest.raises(noughts.InvalidOptionError, match="in common"):
        Ultimate._eval_features(np.ones((1, 9), np.uint16), np.ones((1, 9), np.uint16), np.array([-1], np.int8))
    with pytest.raises(noughts.InvalidOptionError, match="sent must be"):
        Ultimate._eval_features(ok, ok, np.array([9], np.int8))
    with pytest.raises(noughts.InvalidOptionError, match=r"\(n, 9\)"):
        Ultimate._eval_features(np.zeros((2, 9), np.uint16), ok, np.array([-1], np.int8))


def test_evaluation_is_a_value_between_minus_one_and_one():
    for seed in range(200):
        game = random_game(Ultimate, seed, seed % 70)
        if not game.is_over():
            assert -1 <= game.evaluate() <= 1
    over = random_game(Ultimate, 0, 200)
    assert over.is_over()
    with pytest.raises(noughts.IllegalMoveError, match="over"):
        over.evaluate()


def quick_solve(game):
    try:
        return noughts.solve(game, max_seconds=0.5)
    except noughts.SearchTimeout:
        return None


@pytest.mark.parametrize("heuristics,evaluation", [(False, False), (True, False), (False, True), (True, True)])
def test_every_leaf_valuation_finds_and_proves_a_win_in_one(heuristics, evaluation):
    """Proofs come from the rules, whatever values the leaves: a position with a winning move is proven."""
    for seed in range(300):
        game = random_game(Ultimate, seed, 56)
        if game.is_over():
            continue
        solution = quick_solve(game)
        if solution is None:
            continue
        if solution.value == 1 and solution.distance == 1:
            mcts = noughts.MCTS(seed=seed, heuristics=heuristics, evaluation=evaluation)
            result = mcts.search(game, iterations=5_000)
            assert result.proven_value == 1
            assert result.best_move in solution.best_moves
            return
    pytest.fail("no position with a win in one found")
