"""Gravity boards where the follow-up decides (Allis' claimeven and odd threats): positions
chosen for the parity of their columns and the completion cells above the lowest empty cells,
solved weak and strong, every move's value and the distance against the exhaustive referee.

The solver's gravity tactics prove such positions without searching them to the end; the
positions are picked here by a reading of the board written for this test, so that each case
is one where those rules can apply."""

from __future__ import annotations

import random

import noughts
import pytest
from minimax import minimax, move_values
from noughts import Classic


def grid(g: Classic) -> list[str]:
    """The board's rows, top row first: '.', 'x' or 'o' per cell."""
    return g.to_string().split()[0].split("/")


def completes(rows: list[str], k: int, r: int, c: int, mark: str) -> bool:
    """Would `mark` at (r, c) make k in a row with the marks already there?"""
    height, width = len(rows), len(rows[0])
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
        run = 1
        for sign in (1, -1):
            rr, cc = r + sign * dr, c + sign * dc
            while 0 <= rr < height and 0 <= cc < width and rows[rr][cc] == mark:
                run += 1
                rr, cc = rr + sign * dr, cc + sign * dc
        if run >= k:
            return True
    return False


def follow_up_case(g: Classic) -> str | None:
    """Which follow-up the player not to move may have, by the columns with an odd number of
    empty cells: none, and a completion cell of theirs at an odd height above the lowest empty
    cell of its column ('claimeven'); an even number of them, paired at their lowest empty
    cells ('baseinverse'); an odd number, one of them with such a completion cell ('odd
    threat'); else None."""
    rows = grid(g)
    theirs = "o" if g.to_move == noughts.Player.X else "x"
    empties = [sum(row[c] == "." for row in rows) for c in range(len(rows[0]))]
    odd = [c for c, e in enumerate(empties) if e % 2]

    def odd_distance_threat(c: int) -> bool:
        lowest = empties[c] - 1  # row index of the lowest empty cell (row 0 at the top)
        return any(completes(rows, g.k, r, c, theirs) for r in range(lowest - 1, -1, -2))

    if not odd:
        return "claimeven" if any(odd_distance_threat(c) for c in range(len(empties))) else None
    if len(odd) % 2 == 0:
        return f"baseinverse x{len(odd) // 2}"
    if any(odd_distance_threat(c) for c in odd):
        return f"odd threat, baseinverse x{len(odd) // 2}"
    return None


def kinds(cols: int) -> list[str]:
    """The kinds a board of `cols` columns has."""
    out = ["claimeven"]
    out += [f"baseinverse x{n // 2}" for n in range(2, cols + 1, 2)]
    out += [f"odd threat, baseinverse x{n // 2}" for n in range(1, cols + 1, 2)]
    return out


def going_on(g: Classic) -> list[int]:
    """The moves after which the game is not over."""
    out = []
    for m in g.legal_actions():
        g.play(m)
        if not g.is_over():
            out.append(m)
        g.undo()
    return out


def positions(rows: int, cols: int, k: int, empty: int, count: int, seed: int) -> list[Classic]:
    """Random games of the board with `empty` or `empty - 1` empty cells, not over, that are
    follow-up cases: `count` of each kind, where the board has them."""
    rng = random.Random(seed)
    found: dict[str, list[Classic]] = {kind: [] for kind in kinds(cols)}
    for attempt in range(4000):
        g = Classic(rows, cols, k, gravity=True)
        # An even number of empty cells for claimeven and baseinverse, an odd one for the others.
        left = empty - attempt % 2
        # Random moves that do not end the game while others do not, so that boards with
        # many empty cells still reach the late positions the referee can search.
        while not g.is_over() and rows * cols - g.ply > left:
            g.play(rng.choice(going_on(g) or g.legal_actions()))
        case = None if g.is_over() else follow_up_case(g)
        if case in found and len(found[case]) < count:
            found[case].append(g)
        if all(len(v) == count for v in found.values()):
            break
    return [g for cases in found.values() for g in cases]


# (rows, cols, k, empty cells): Connect Four's board and smaller ones; 8x8 keeps its
# tactics in the cells, the others in the columns.
BOARDS = [(6, 7, 4, 13), (5, 6, 4, 13), (4, 5, 3, 12), (5, 4, 3, 12), (8, 8, 4, 12)]


@pytest.mark.parametrize("board", BOARDS, ids=lambda b: f"{b[1]}x{b[0]}k{b[2]}")
@pytest.mark.parametrize("seed", range(3))
def test_follow_up_positions_against_the_referee(board, seed):
    rows, cols, k, empty = board
    cases = positions(rows, cols, k, empty, 6, seed)
    assert cases, "no follow-up position found: the sampler is broken"
    for g in cases:
        memo: dict = {}
        value, distance = minimax(g.copy(), memo)
        weak = noughts.solve(g, weak=True)
        strong = noughts.solve(g, move_values=True)
        assert weak.value == strong.value == value, g.to_string()
        assert strong.move_values == move_values(g.copy(), memo), g.to_string()
        assert strong.distance == (None if value == 0 else distance), g.to_string()


def test_the_sampler_finds_every_kind():
    """Every kind has positions among the cases (else the test above would miss a rule)."""
    found = {follow_up_case(g) for g in positions(6, 7, 4, 13, 3, 0)}
    assert found == set(kinds(7))
