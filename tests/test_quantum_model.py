"""The C++ Quantum engine against the independent Python model (quantum_model.py)."""

from __future__ import annotations

import random
from collections import Counter

import noughts
import pytest
from model_perft import model_perft as perft
from noughts import InvalidPositionError, Quantum, Termination
from quantum_model import LAST_CELL, PAIRS, QuantumModel

REASONS = {Termination.LINE: "line", Termination.EARLIER_LINE: "earlier_line", Termination.FULL_BOARD: "full_board"}
NAMES = [f"{c}{r}" for r in "123" for c in "abc"]


def assert_same(g: Quantum, m: QuantumModel) -> None:
    assert g.legal_actions() == m.legal()
    assert [None if c is None else (c[0].name, c[1]) for c in g.classical_marks()] == m.board()
    assert [(k, p.name, cells) for k, p, cells in g.spooky_marks()] == m.spooky()
    assert g.pending_collapse == m.pending()
    assert g.to_move.name == m.to_move()
    assert g.is_over() == m.over
    if m.over:
        assert (g.winner.name if g.winner is not None else None) == m.winner
        assert REASONS[g.termination] == m.reason
    else:
        assert g.winner is None and g.termination == Termination.NONE


@pytest.mark.parametrize("depth", [1, 2, 3, 4])
def test_perft_engine_equals_model(depth):
    assert noughts.perft(Quantum(), depth) == perft(QuantumModel(), depth)


def test_perft_from_a_midgame_position_equals_model():
    g, m = Quantum(), QuantumModel()
    for move in ("a1-b1", "b1-c1", "b2-c3", "a1-c1"):  # x3 closes a 3-cycle; o4 joins b2-c3
        g.play(move)
        m.play(g.move_ids[-1])
    for depth in (1, 2, 3):
        assert noughts.perft(g, depth) == perft(m, depth)


def test_thousands_of_random_games_agree_at_every_ply():
    rng = random.Random(20240604)
    seen: Counter[str] = Counter()
    for _ in range(3000):
        g, m = Quantum(), QuantumModel()
        assert_same(g, m)
        while not m.over:
            move = rng.choice(m.legal())
            seen["collapse" if 36 <= move < 45 else "last cell" if move >= LAST_CELL else "pair"] += 1
            if move < 36 and len(m.marks) == 8:
                seen["move 9 pair"] += 1
            g.play(move)
            m.play(move)
            assert_same(g, m)
        seen[m.reason] += 1
        seen["spooky left at the end"] += bool(m.spooky())
    # The random games reach every corner the rules have.
    for corner in (
        "collapse",
        "last cell",
        "move 9 pair",
        "line",
        "earlier_line",
        "full_board",
        "spooky left at the end",
    ):
        assert seen[corner] > 10, (corner, seen)


def test_random_games_with_few_free_cells_agree():
    # Games that close cycles as often as they can, to reach the end of the
    # board with many collapses.
    rng = random.Random(7)
    for _ in range(500):
        g, m = Quantum(), QuantumModel()
        while not m.over:
            legal = m.legal()
            closing = [mv for mv in legal if mv < 36 and m.connected(*PAIRS[mv])]
            move = rng.choice(closing if closing and rng.random() < 0.8 else legal)
            g.play(move)
            m.play(move)
            assert_same(g, m)


# ---------------------------------------------------------------- position strings


def canonical_history(text: str) -> list[str]:
    """The history docs/quantum.md gives for any accepted position string:
    the classical marks K as one cycle (in number order, each pair joining a
    mark's own cell to the next one's, the newest joining back to the first),
    collapsed right after its newest mark; the spooky marks as written."""
    where = {}
    for token in text.split()[1:]:
        head, place = token.split(":")
        where[int(head[1:])] = place
    classical = sorted(k for k, p in where.items() if "-" not in p)
    moves = []
    for k in sorted(where):
        if k in classical:
            nxt = classical[(classical.index(k) + 1) % len(classical)]
            moves.append(f"{where[k]}-{where[nxt]}")
            if k == classical[-1]:
                moves.append("@" + where[k])
        else:
            moves.append(where[k])
    return moves


def random_position_string(rng: random.Random) -> str:
    n = rng.randint(1, 9)
    classical_cells = rng.sample(range(9), rng.randint(0, n))
    classical_marks = rng.sample(range(1, n + 1), len(classical_cells))
    free = [c for c in range(9) if c not in classical_cells] or [0, 1]
    tokens = []
    for k in range(1, n + 1):
        letter = "x" if k % 2 else "o"
        if k in classical_marks:
            tokens.append(f"{letter.upper()}{k}:{NAMES[classical_cells[classical_marks.index(k)]]}")
        else:
            a, b = rng.sample(free, 2) if len(free) >= 2 else (0, 1)
            tokens.append(f"{letter}{k}:{NAMES[a]}-{NAMES[b]}")
    return "quantum " + " ".join(tokens)


def test_every_accepted_position_string_is_reached_by_its_canonical_history():
    rng = random.Random(99)
    accepted = 0
    for _ in range(20000):
        text = random_position_string(rng)
        try:
            g = Quantum.from_string(text)
        except InvalidPositionError:
            continue
        accepted += 1
        m, replay = QuantumModel(), Quantum()
        for move in canonical_history(text):
            replay.play(move)  # raises if the history is not legal
            m.play(replay.move_ids[-1])
        assert replay == g and replay.to_string() == g.to_string()
        assert replay.ply == g.ply  # the canonical history is a shortest one
        assert_same(g, m)
    assert accepted > 2000


def test_position_strings_with_up_to_three_marks_are_accepted_exactly_when_reachable():
    # Every position reachable with at most three marks, by breadth-first search.
    reachable = set()
    frontier = [Quantum()]
    while frontier:
        nxt = []
        for g in frontier:
            s = g.to_string()
            if s in reachable:
                continue
            reachable.add(s)
            if g.marks_written == 3 and g.pending_collapse is None:
                continue
            for move in g.legal_actions():
                child = g.copy()
                child.play(move)
                nxt.append(child)
        frontier = nxt
    # Every string of that shape: each mark classical in a cell or spooky in a pair.
    places = NAMES + [f"{NAMES[a]}-{NAMES[b]}" for a, b in PAIRS]
    accepted = set()
    strings = [""]
    for k in (1, 2, 3):
        letter = "x" if k % 2 else "o"
        strings = [f"{s} {letter.upper() if '-' not in p else letter}{k}:{p}" for s in strings for p in places]
        for s in strings:
            try:
                accepted.add(Quantum.from_string("quantum" + s).to_string())
            except InvalidPositionError:
                pass
    assert accepted | {"quantum"} == reachable
