"""Misère with free choice: when no one can ever be forced to make a line, the game is a draw.

A player loses only by making a line, and makes one only when every mark they
could make would: each empty cell must then close a line of X's and another of
O's. The solver ends its search at positions where no empty cell lies on two
lines still open, one to X and one to O, as no one can be forced from there.
This test finds such positions with its own model of the lines, and checks
them, and random positions around them, against the exhaustive referee.
"""

from __future__ import annotations

import random

import noughts
import pytest
from minimax import minimax

DIRECTIONS = [(0, 1), (1, 0), (1, 1), (1, -1)]


def lines(rows: int, cols: int, k: int) -> list[list[int]]:
    out = []
    for r in range(rows):
        for c in range(cols):
            for dr, dc in DIRECTIONS:
                cells = [(r + i * dr, c + i * dc) for i in range(k)]
                if all(0 <= a < rows and 0 <= b < cols for a, b in cells):
                    out.append([a * cols + b for a, b in cells])
    return out


def marks(g: noughts.Classic) -> list[str]:
    """The board's cells in row-major order: 'x', 'o' or '.'."""
    return [ch for ch in g.to_string().split()[0] if ch != "/"]


def no_one_can_be_forced(g: noughts.Classic, all_lines: list[list[int]]) -> bool:
    board = marks(g)
    for cell in range(len(board)):
        if board[cell] != ".":
            continue
        through = [line for line in all_lines if cell in line]
        open_to_x = [line for line in through if all(board[c] != "o" for c in line)]
        open_to_o = [line for line in through if all(board[c] != "x" for c in line)]
        if any(a is not b for a in open_to_x for b in open_to_o):
            return False
    return True


BOARDS = [  # rows, cols, k, gravity: small enough for the referee from 9 empty cells
    (4, 4, 4, False),
    (4, 5, 4, False),
    (3, 4, 3, False),
    (4, 5, 4, True),
    (5, 4, 4, True),
]


def sample(rows: int, cols: int, k: int, gravity: bool, rng: random.Random, all_lines: list[list[int]]):
    """Positions of random games with at most 9 empty cells, not over: up to 12 where no one
    can be forced and 12 where someone still can."""
    found: dict[bool, list[noughts.Classic]] = {True: [], False: []}
    for _ in range(400):
        g = noughts.Classic(rows, cols, k, misere=True, free_choice=True, gravity=gravity)
        while not g.is_over():
            if rows * cols - g.ply <= 9:
                kind = found[no_one_can_be_forced(g, all_lines)]
                if len(kind) < 12:
                    kind.append(g.copy())
            g.play(rng.choice(g.legal_actions()))
        if all(len(v) == 12 for v in found.values()):
            break
    return found


@pytest.mark.parametrize("rows,cols,k,gravity", BOARDS)
def test_positions_where_no_one_can_be_forced_are_draws(rows, cols, k, gravity):
    all_lines = lines(rows, cols, k)
    found = sample(rows, cols, k, gravity, random.Random(rows * 100 + cols * 10 + k + gravity), all_lines)
    assert found[True] and len(found[False]) == 12  # the sampler reaches both kinds
    memo: dict = {}
    for forced_out, positions in found.items():
        for g in positions:
            value = minimax(g.copy(), memo)[0]
            solved = noughts.solve(g, book=False, move_values=True)
            assert solved.value == value, g.to_string()
            assert solved.move_values == {m: -minimax_after(g, m, memo) for m in g.legal_actions()}, g.to_string()
            if forced_out:
                assert value == 0, g.to_string()


def minimax_after(g: noughts.Classic, move: int, memo: dict) -> int:
    """The referee's value of the position after `move`, for the player to move there."""
    child = g.copy()
    child.play(move)
    if child.is_over():
        return 0 if child.winner is None else (1 if child.winner == child.to_move else -1)
    return minimax(child, memo)[0]
