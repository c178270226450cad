"""Property tests of the Quantum engine (hypothesis): undo, rejected moves,
notation, position strings and symmetries on random reachable positions."""

from __future__ import annotations

import game_choices
from hypothesis import given, settings
from hypothesis import strategies as st
from noughts import IllegalMoveError, InvalidMoveError, InvalidPositionError, Quantum
from quantum_model import PAIRS

choices = game_choices.choices(16)


def reach(picks: list[int]) -> Quantum:
    return game_choices.play_choices(Quantum(), picks)


def snapshot(g: Quantum):
    return (
        g.to_string(),
        g.position_hash(),
        g.ply,
        g.move_ids,
        g.to_move,
        g.legal_actions(),
        g.pending_collapse,
        g.is_over(),
        g.winner,
        g.termination,
    )


@settings(max_examples=300, deadline=None)
@given(choices)
def test_play_then_undo_restores_the_position_and_hash(picks):
    g = reach(picks)
    before = snapshot(g)
    for move in g.legal_actions():
        g.play(move)
        g.undo()
        assert snapshot(g) == before


@settings(max_examples=300, deadline=None)
@given(choices, st.one_of(st.integers(min_value=-3, max_value=60), st.text(max_size=6)))
def test_rejected_moves_change_nothing(picks, move):
    g = reach(picks)
    before = snapshot(g)
    try:
        g.play(move)
    except (IllegalMoveError, InvalidMoveError):
        assert snapshot(g) == before
    else:
        assert g.move_ids[-1] in before[5]


@settings(max_examples=200, deadline=None)
@given(choices)
def test_notation_round_trips(picks):
    g = reach(picks)
    for move in g.legal_actions():
        name = g.move_name(move)
        assert g.parse_move(name) == move and g.parse_move(name.upper()) == move
        if "-" in name:
            a, b = name.split("-")
            assert g.parse_move(f"{b}-{a}") == move


@settings(max_examples=300, deadline=None)
@given(choices, choices)
def test_position_string_round_trips_and_plays_on_alike(picks, more):
    g = reach(picks)
    h = Quantum.from_string(g.to_string())
    assert h == g and h.to_string() == g.to_string() and h.position_hash() == g.position_hash()
    assert snapshot(h)[4:] == snapshot(g)[4:]
    for pick in more:
        legal = g.legal_actions()
        if not legal:
            break
        g.play(legal[pick % len(legal)])
        h.play(legal[pick % len(legal)])
        assert h.to_string() == g.to_string() and snapshot(h)[4:] == snapshot(g)[4:]


def cell_map(s: int) -> list[int]:
    return game_choices.SQUARE_SYMMETRIES[s]


def map_move(move: int, cells: list[int]) -> int:
    if move < 36:
        return PAIRS.index(tuple(sorted(cells[c] for c in PAIRS[move])))
    base = 36 if move < 45 else 45
    return base + cells[move - base]


@settings(max_examples=200, deadline=None)
@given(choices, st.integers(min_value=0, max_value=7), choices)
def test_symmetries_map_every_cell_reference(picks, s, more):
    g = reach(picks)
    cells = cell_map(s)
    t = g.symmetric(s)
    assert t.pending_collapse == (
        None
        if g.pending_collapse is None
        else (g.pending_collapse[0], tuple(sorted(cells[c] for c in g.pending_collapse[1])))
    )
    assert sorted(t.legal_actions()) == sorted(map_move(m, cells) for m in g.legal_actions())
    assert [t.classical_marks()[cells[c]] for c in range(9)] == g.classical_marks()
    assert t.to_move == g.to_move and t.outcome() == g.outcome()
    assert Quantum.from_string(t.to_string()) == t
    # Playing on mirrored stays mirrored, up to the end.
    for pick in more:
        legal = g.legal_actions()
        if not legal:
            break
        move = legal[pick % len(legal)]
        g.play(move)
        t.play(map_move(move, cells))
        assert g.symmetric(s) == t and g.outcome() == t.outcome()


tokens = st.sampled_from(
    [
        "quantum",
        "QUANTUM",
        "x1:a1-b2",
        "o2:a1-b2",
        "X1:a1",
        "O2:b2",
        "x3:a1-c3",
        "X3:c3",
        "o4:b1-c1",
        "O4:b1",
        "x5:a2-b3",
        "X5:a3",
        "o2:b2",
        "x1",
        ":",
        "-",
        "@a1",
        "x9:c3-a3",
        "O8:c2",
        "x01:a1-b2",
    ]
)


@settings(max_examples=500, deadline=None)
@given(st.one_of(st.text(max_size=40), st.lists(tokens, max_size=8).map(" ".join)))
def test_from_string_accepts_or_raises_invalid_position(text):
    try:
        g = Quantum.from_string(text)
    except InvalidPositionError:
        return
    assert Quantum.from_string(g.to_string()) == g
