"""Misère's mirror strategy, checked from outside the engine.

On some misère boards a player can answer every move with its mirror image
in the other symbol and never complete a line (docs/solver.md, "Misère's
mirror strategy"), and the solver uses it. This test finds those mirrors
from the lines alone (its own model, not the engine's), plays games that
keep the mirror, and checks the solver against the exhaustive referee on
them, and that the player who keeps the mirror never loses.
"""

from __future__ import annotations

import random

import noughts
import pytest
from minimax import minimax

DIRECTIONS = [(0, 1), (1, 0), (1, 1), (1, -1)]


def lines(rows, cols, k):
    found = set()
    for r in range(rows):
        for c in range(cols):
            for dr, dc in DIRECTIONS:
                cells = [(r + i * dr, c + i * dc) for i in range(k)]
                if all(0 <= a < rows and 0 <= b < cols for a, b in cells):
                    found.add(frozenset(cells))
    return found


def mirror(rows, cols, k, gravity):
    """The first map of the board (left-right, up-down, half turn; with gravity only
    left-right) that fixes at most one cell and under which every line either misses
    its image or holds a cell together with that cell's image; None if there is none."""
    maps = [lambda r, c: (r, cols - 1 - c)]
    if not gravity:
        maps += [lambda r, c: (rows - 1 - r, c), lambda r, c: (rows - 1 - r, cols - 1 - c)]
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    for f in maps:
        fixed = {p for p in cells if f(*p) == p}
        if len(fixed) > 1:
            continue
        if all(
            not (line & {f(*p) for p in line}) or any(f(*p) in line and f(*p) != p for p in line)
            for line in lines(rows, cols, k)
        ):
            return f, (fixed.pop() if fixed else None)
    return None


BOARDS = [  # rows, cols, k, free choice, gravity: small enough for the referee
    (3, 3, 3, False, False),
    (3, 3, 3, True, False),
    (2, 4, 3, True, False),
    (3, 4, 3, False, False),
    (1, 5, 3, True, False),
    (4, 2, 3, True, True),
    (3, 4, 3, False, True),
    (3, 4, 4, True, True),
    (3, 3, 2, False, False),
]


def test_the_model_finds_mirrors_where_the_lines_allow_them():
    assert mirror(5, 5, 4, False)[1] == (2, 2)  # the half turn about the centre
    assert mirror(3, 3, 3, False)[1] == (1, 1)
    assert mirror(6, 7, 4, True) is None  # an odd number of columns, with gravity
    assert mirror(7, 7, 4, False) is None  # the centre row holds a line that ends at the centre
    assert mirror(3, 3, 2, False) is None
    assert mirror(4, 6, 4, True)[1] is None


def move_id(g, cell, symbol):
    r, c = cell
    base = c if g.gravity else r * g.cols + c
    return 2 * base + symbol if g.free_choice else base


def symbol_at(g, cell):
    x, o = g.cell_marks()
    bit = 1 << (cell[0] * g.cols + cell[1])
    return 0 if x & bit else 1 if o & bit else None


def target(g, move):
    """The cell a move not yet played writes in."""
    return divmod(g.target_cell(move), g.cols)


@pytest.mark.parametrize("board", [b for b in BOARDS if mirror(b[0], b[1], b[2], b[4])])
def test_the_player_keeping_the_mirror_never_loses(board):
    rows, cols, k, free, gravity = board
    f, centre = mirror(rows, cols, k, gravity)
    start = noughts.Classic(rows, cols, k, misere=True, free_choice=free, gravity=gravity)
    memo: dict = {}
    # From the start: the second player keeps the mirror, or the first takes the centre.
    solved = noughts.solve(start, book=False)
    assert minimax(start.copy(), memo)[0] == solved.value
    assert (solved.value >= 0) if centre else (solved.value <= 0)
    rng = random.Random(sum(board) * 7 + rows)
    mirrored = 0
    for _ in range(12):
        g = start.copy()
        if centre:
            g.play(move_id(g, centre, rng.randrange(2) if free else 0))
        # Now the board is its own mirror in the other symbol, the centre taken if there
        # is one: the player to move cannot win.
        while not g.is_over():
            solved = noughts.solve(g, book=False, move_values=True)
            assert solved.value <= 0
            assert minimax(g.copy(), memo)[0] == solved.value
            mirrored += 1
            legal = [m for m in g.legal_actions() if solved.move_values[m] > -1] or g.legal_actions()
            move = rng.choice(legal)
            played = target(g, move)
            g.play(move)
            if g.is_over():
                break
            answer = move_id(g, f(*played), 1 - symbol_at(g, played))
            assert answer in g.legal_actions() and target(g, answer) == f(*played)
            responder = g.to_move
            g.play(answer)
            assert g.winner in (None, responder)  # the answer completes no line
    assert mirrored >= 12
