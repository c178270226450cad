"""Moves behave like the values they stand for: ids and notation compare equal, undo gives a Move back,
and a Move whose id and name disagree is refused."""

import noughts
import numpy as np
import pytest
from noughts import Move

GAMES = [
    noughts.Classic,
    lambda: noughts.Classic(4, 4, 3, free_choice=True),
    lambda: noughts.Classic(5, 4, 4, gravity=True),
    noughts.Ultimate,
    noughts.Quantum,
]


@pytest.mark.parametrize("make", GAMES)
def test_ids_and_notation_are_in_the_legal_moves(make):
    g = make()
    moves = g.legal_moves()
    for m in moves:
        assert m.id in moves and m.name in moves and m in moves
        assert np.int64(m.id) in moves
    assert -1 not in moves and g.num_actions not in moves and "zz9" not in moves


def test_equality_and_hash():
    m = Move(4, "b2")
    assert m == 4 and 4 == m and m == "b2" and "b2" == m and m == Move(4, "b2") and m == np.int64(4)
    assert m != 5 and m != "a1" and m != Move(4, "e5") and m != True  # noqa: E712
    assert m != 4.5 and m != None  # noqa: E711
    assert hash(m) == hash(4)
    assert {4: "centre"}[m] == "centre" and 4 in {m} and m in {4}
    assert len({Move(4, "b2"), Move(4, "b2")}) == 1


@pytest.mark.parametrize("make", GAMES)
def test_undo_returns_the_move_history_held(make):
    g = make()
    for _ in range(3):
        g.play(g.legal_moves()[len(g.legal_actions()) // 2])
    while g.move_ids:
        last = g.history[-1]
        undone = g.undo()
        assert isinstance(undone, Move) and undone == last and undone.name == last.name
    with pytest.raises(IndexError):
        g.undo()


@pytest.mark.parametrize("make", GAMES)
def test_a_move_whose_id_and_name_disagree_is_refused(make):
    g = make()
    first, other = g.legal_moves()[0], g.legal_moves()[-1]
    before = g.to_string()
    bad = Move(first.id, other.name)
    with pytest.raises(noughts.InvalidMoveError, match="id and name disagree"):
        g.play(bad)
    assert g.to_string() == before and g.move_ids == []
    assert not g.is_legal(bad)
    g.play(Move(first.id, first.name))  # a Move that holds together plays
    assert g.history == [first]


def test_a_move_of_another_game_is_refused():
    u = noughts.Ultimate()
    move = u.legal_moves()[9]  # board 1, cell 0: d1 on the big grid; id 9 is b3 on a 4x4 board
    c = noughts.Classic(4, 4)
    assert c.move_name(move.id) == "b3" and move.name == "d1"
    with pytest.raises(noughts.InvalidMoveError, match="id 9 is b3 in this game, not 'd1'"):
        c.play(move)


@pytest.mark.parametrize("make", GAMES)
def test_move_objects_name_their_ids_under_every_set_of_options(make):
    """Move objects are made once per set of options and shared: each still names its own id
    under its own game's rules (the same id is another square on another board)."""
    g = make()
    for i in range(g.num_actions):
        (m,) = g._moves([i])
        assert (m.id, m.name) == (i, g.move_name(i))
    assert [m.name for m in g.legal_moves()] == [g.move_name(i) for i in g.legal_actions()]
    for bad in (-1, g.num_actions):
        with pytest.raises(ValueError, match="id|range"):
            g._moves([bad])


def test_the_same_id_on_boards_of_other_sizes_has_their_names():
    names = {}
    for rows, cols in ((3, 3), (4, 4), (3, 5), (5, 3)):
        for gravity in (False, True):
            g = noughts.Classic(rows, cols, 3, gravity=gravity)
            names[rows, cols, gravity] = g.legal_moves()[-1].name
            assert names[rows, cols, gravity] == g.move_name(g.legal_actions()[-1])
    assert len(set(names.values())) > 4
