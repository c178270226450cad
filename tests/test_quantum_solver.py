"""Quantum's solver hooks (tactics, search state): the solver's answers against the exhaustive referee.

Positions of every stage, including pending collapses and the last cell, where the tactics
settle wins and losses without searching them.
"""

import random

import noughts
import pytest
from minimax import minimax, move_values


def random_quantum(plies, seed, pending=None):
    """A random position after `plies` moves that is not over (with a pending collapse when `pending`)."""
    rng = random.Random(seed)
    while True:
        g = noughts.Quantum()
        for _ in range(plies):
            if g.is_over():
                break
            g.play(rng.choice(g.legal_actions()))
        if g.is_over():
            continue
        if pending is None or any(36 <= m < 45 for m in g.legal_actions()) == pending:
            return g


@pytest.mark.parametrize("plies,seed", [(p, s) for p in range(5, 12) for s in range(4)])
def test_values_distances_and_move_values_against_minimax(plies, seed):
    g = random_quantum(plies, 100 * plies + seed)
    memo = {}
    value, distance = minimax(g.copy(), memo)
    s = noughts.solve(g, move_values=True)
    assert s.value == value
    if value != 0:
        assert s.distance == distance
    assert s.move_values == move_values(g.copy(), memo)
    assert [m.id for m in s.best_moves] == sorted(i for i, v in s.move_values.items() if v == value)
    assert noughts.solve(g).best_moves == s.best_moves


@pytest.mark.parametrize("seed", range(8))
def test_pending_collapses_against_minimax(seed):
    g = random_quantum(5 + seed % 5, seed, pending=True)
    memo = {}
    value, distance = minimax(g.copy(), memo)
    s = noughts.solve(g, move_values=True)
    assert (s.value, s.move_values) == (value, move_values(g.copy(), memo))
    if value != 0:
        assert s.distance == distance


def test_start_by_two_routes():
    """X wins (Ishizeki and Matsuura); the table keyed with and without symmetry agrees on the
    distance and every best first move, and the best moves are closed under the board's symmetries."""
    a = noughts.solve(noughts.Quantum())
    b = noughts.solve(noughts.Quantum(), symmetry=False)
    assert a.value == b.value == 1
    assert a.distance == b.distance and a.best_moves == b.best_moves
    start = noughts.Quantum()
    pairs = {tuple(start.move_cells(m)) for m in a.best_moves}
    for move in a.best_moves:
        g = start.copy()
        g.play(move)
        for s in range(g.num_symmetries):
            ((_, _, cells),) = g.symmetric(s).spooky_marks()
            assert tuple(sorted(cells)) in pairs
    g = start.copy()
    for m in a.principal_variation:
        g.play(m)
    assert g.winner == noughts.Player.X and len(a.principal_variation) == a.distance
