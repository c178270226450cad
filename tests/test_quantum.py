"""Quantum tic-tac-toe: hand-built cases for every corner of docs/rules.md section 3,
notation, errors and position strings. The engine is compared with the
independent model of quantum_model.py in test_quantum_model.py.

Cells: a1 b1 c1 / a2 b2 c2 / a3 b3 c3 are 0..8 (rows from the top).
"""

from __future__ import annotations

import pickle

import noughts
import pytest
from noughts import IllegalMoveError, InvalidMoveError, InvalidPositionError, Player, Quantum, Termination

X, O = Player.X, Player.O


def play(*moves: str, game: Quantum | None = None) -> Quantum:
    g = game if game is not None else Quantum()
    for m in moves:
        g.play(m)
    return g


def board(g: Quantum) -> dict[str, str]:
    """The classical marks by cell name, e.g. {"a1": "X1"}."""
    names = [f"{c}{r}" for r in "123" for c in "abc"]
    return {names[i]: f"{p.name}{k}" for i, m in enumerate(g.classical_marks()) if m for p, k in [m]}


# ---------------------------------------------------------------- the start


def test_start():
    g = Quantum()
    assert g.to_move == X and g.ply == 0 and g.marks_written == 0
    assert g.legal_actions() == list(range(36))
    assert g.num_actions == 54
    assert g.classical_marks() == [None] * 9 and g.spooky_marks() == [] and g.pending_collapse is None
    assert not g.is_over() and g.outcome() is None and g.termination == Termination.NONE
    assert g.to_string() == "quantum"


def test_perft_from_start():
    # Depth 3: 36*35*36 pairs, plus the 36 repeated pairs that close a 2-cycle
    # at move 2 and offer X two collapse choices.
    assert [noughts.perft(Quantum(), d) for d in range(1, 5)] == [36, 1296, 36 * 35 * 36 + 36 * 2, 1531656]


# ---------------------------------------------------------------- cycles


def test_two_cycle_the_same_pair_twice():
    g = play("a1-b2", "b2-a1")  # either order names the same pair
    assert g.spooky_marks() == [(1, X, (0, 4)), (2, O, (0, 4))]
    # O closed the cycle, so X chooses, and X writes mark 3 afterwards.
    assert g.pending_collapse == (2, (0, 4)) and g.to_move == X
    assert g.legal_actions() == [36, 40]
    assert [m.name for m in g.legal_moves()] == ["@a1", "@b2"]
    g.play("@a1")
    assert board(g) == {"a1": "O2", "b2": "X1"} and g.spooky_marks() == []
    assert g.pending_collapse is None and g.to_move == X and g.ply == 3 and g.marks_written == 2
    assert not g.is_over()
    g2 = play("a1-b2", "a1-b2", "@b2")
    assert board(g2) == {"b2": "O2", "a1": "X1"}


def test_three_cycle():
    g = play("a1-b1", "b1-c1", "a1-c1")
    assert g.pending_collapse == (3, (0, 2)) and g.to_move == O
    assert board(play("@a1", game=g.copy())) == {"a1": "X3", "b1": "X1", "c1": "O2"}
    g.play("@c1")
    assert board(g) == {"c1": "X3", "b1": "O2", "a1": "X1"}
    assert g.to_move == O and not g.is_over()  # O chose and now writes mark 4


def test_four_cycle():
    g = play("a1-b1", "b1-b2", "b2-a2", "a2-a1")
    assert g.pending_collapse == (4, (0, 3)) and g.to_move == X
    assert board(play("@a1", game=g.copy())) == {"a1": "O4", "b1": "X1", "b2": "O2", "a2": "X3"}
    g.play("@a2")
    assert board(g) == {"a2": "O4", "b2": "X3", "b1": "O2", "a1": "X1"}


def test_a_pair_joining_two_trees_is_no_cycle():
    g = play("a1-b1", "c1-c2", "b1-c1")  # joins {a1, b1} and {c1, c2}
    assert g.pending_collapse is None and g.to_move == O
    g.play("a1-c2")  # now a1 and c2 are connected: a 4-cycle
    assert g.pending_collapse == (4, (0, 5)) and g.to_move == X


# A 3-cycle b1-c1-c2 (marks 5, 1, 6) with a tree c2-c3-b3 (marks 3, 4)
# hanging off it, and o2 in a2-a3, not connected to either.
TREE = ("c1-c2", "a2-a3", "c2-c3", "c3-b3", "b1-c1", "b1-c2")


def test_a_tree_hanging_off_the_cycle_collapses_too():
    g = play(*TREE)
    assert g.pending_collapse == (6, (1, 5)) and g.to_move == X
    g.play("@c2")
    assert board(g) == {"c2": "O6", "c1": "X1", "c3": "X3", "b1": "X5", "b3": "O4"}
    # Not connected to the cycle, so it stays spooky.
    assert g.spooky_marks() == [(2, O, (3, 6))]
    assert not g.is_over() and g.to_move == X and g.marks_written == 6


def test_the_other_choice_of_the_same_collapse_wins_and_leaves_a_mark_spooky():
    g = play(*TREE, "@b1")
    assert board(g) == {"b1": "O6", "c1": "X5", "c2": "X1", "c3": "X3", "b3": "O4"}
    assert g.winner == X and g.termination == Termination.LINE  # column c
    assert g.spooky_marks() == [(2, O, (3, 6))]  # the game ended with o2 still spooky
    assert g.legal_actions() == []


# ---------------------------------------------------------------- lines for both


def test_collapse_gives_both_lines_x_earlier():
    # A 6-cycle through rows 1 and 2; O closes it, X chooses.
    g = play("a1-a2", "a2-b1", "b1-b2", "b2-c1", "c1-c2", "c2-a1")
    assert g.pending_collapse == (6, (0, 5)) and g.to_move == X
    for choice, x_row in (("@c2", "1"), ("@a1", "2")):
        h = play(choice, game=g.copy())
        assert h.is_over()
        # X's line (marks 1, 3, 5) was complete at mark 5, O's (2, 4, 6) at 6.
        assert h.line_times() == (5, 6)
        assert h.winner == X and h.termination == Termination.EARLIER_LINE
        assert h.outcome() == noughts.Outcome(X, Termination.EARLIER_LINE)
        assert {board(h)[c + x_row] for c in "abc"} == {"X1", "X3", "X5"}


def test_collapse_gives_both_lines_o_earlier():
    # A 7-cycle; X closes it, O chooses, and the choice decides who is earlier.
    g = play("a3-a2", "a2-a1", "a1-b2", "b2-b1", "b1-c2", "c2-c1", "c1-a3")
    assert g.pending_collapse == (7, (2, 6)) and g.to_move == O
    h = play("@c1", game=g.copy())
    assert board(h) == {"c1": "X7", "c2": "O6", "b1": "X5", "b2": "O4", "a1": "X3", "a2": "O2", "a3": "X1"}
    assert h.line_times() == (7, 6)  # X's row 1 needs mark 7; O's row 2 was done at 6
    assert h.winner == O and h.termination == Termination.EARLIER_LINE
    h = play("@a3", game=g.copy())
    assert h.line_times() == (5, 6)  # now X's row 2 (1, 3, 5) beats O's row 1 (2, 4, 6)
    assert h.winner == X and h.termination == Termination.EARLIER_LINE


# ---------------------------------------------------------------- the end of the board

# Marks 1..7 collapse as one 7-cycle (O chooses @b3) into
#   X1 O2 X3
#   X5 O4 O6
#   .  X7 .
# with no line; then a3 and c3 are the only free cells.
SEVEN = ("a1-b1", "b1-c1", "c1-b2", "b2-a2", "a2-c2", "c2-b3", "b3-a1", "@b3")


def test_move_nine_is_a_pair_that_must_close_a_cycle():
    g = play(*SEVEN)
    assert board(g) == {"a1": "X1", "b1": "O2", "c1": "X3", "b2": "O4", "a2": "X5", "c2": "O6", "b3": "X7"}
    assert g.to_move == O and g.legal_moves()[0].name == "a3-c3" and len(g.legal_actions()) == 1
    g.play("a3-c3")
    # Two free cells and the spooky o8 between them: X's ninth mark can only
    # be a pair of the same two cells, which closes a cycle.
    assert g.to_move == X and [m.name for m in g.legal_moves()] == ["a3-c3"]
    g.play("a3-c3")
    assert g.pending_collapse == (9, (6, 8)) and g.to_move == O  # O, who did not close it, chooses
    draw = play("@c3", game=g.copy())
    assert board(draw)["c3"] == "X9" and board(draw)["a3"] == "O8"
    assert draw.is_over() and draw.winner is None and draw.termination == Termination.FULL_BOARD
    assert draw.outcome().result == "1/2-1/2" and draw.legal_actions() == []
    win = play("@a3", game=g.copy())  # X9 in a3 completes column a
    assert win.winner == X and win.termination == Termination.LINE
    assert win.to_move == O  # the would-be next writer; the game is over


def test_move_nine_collapse_gives_one_player_two_lines():
    # Marks 1..7 collapse into  . X1 X3 / X5 . O2 / X7 O4 O6  (no line), then
    # o8 and x9 in a1-b2; O's choice @a1 gives X both row 1 and column a.
    g = play("b1-c2", "c2-c1", "c1-b3", "b3-a2", "a2-c3", "c3-a3", "a3-b1", "@a3")
    assert board(g) == {"b1": "X1", "c2": "O2", "c1": "X3", "b3": "O4", "a2": "X5", "c3": "O6", "a3": "X7"}
    g = play("a1-b2", "a1-b2", "@a1", game=g)
    assert board(g)["a1"] == "X9" and board(g)["b2"] == "O8"
    assert g.winner == X and g.termination == Termination.LINE  # two lines, one win
    assert g.line_times() == (9, None)


def test_last_cell_without_a_line_is_a_draw():
    # An 8-cycle that O closes; X chooses @a3 and leaves only c3 free.
    g = play("a1-b1", "b1-c1", "c1-b2", "b2-a2", "a2-c2", "c2-b3", "b3-a3", "a3-a1")
    assert g.pending_collapse == (8, (0, 6)) and g.to_move == X
    g.play("@a3")
    assert len(board(g)) == 8 and g.free_cells() == [8]
    assert g.to_move == X and g.legal_actions() == [45 + 8]
    assert g.legal_moves()[0].name == "c3"
    g.play("c3")
    assert board(g)["c3"] == "X9" and g.marks_written == 9
    assert g.winner is None and g.termination == Termination.FULL_BOARD


def test_last_cell_with_two_lines():
    g = play("b1-b2", "b2-c1", "c1-c2", "c2-a2", "a2-b3", "b3-a3", "a3-c3", "c3-b1", "@c3")
    assert g.free_cells() == [0] and g.legal_actions() == [45]
    g.play("a1")  # row 1 and column a
    assert g.winner == X and g.termination == Termination.LINE


def test_finished_games_take_no_moves():
    g = play(*TREE, "@b1")
    for move in (0, 36, 45, "a1-b2"):
        with pytest.raises(IllegalMoveError, match="the game is over"):
            g.play(move)


# ---------------------------------------------------------------- notation


def test_move_names_and_ids():
    g = Quantum()
    assert g.move_name(0) == "a1-b1" and g.move_name(7) == "a1-c3" and g.move_name(8) == "b1-c1"
    assert g.move_name(35) == "b3-c3" and g.move_name(36) == "@a1" and g.move_name(53) == "c3"
    for move in range(54):
        assert g.parse_move(g.move_name(move)) == move
    assert g.parse_move("c3-a1") == g.parse_move("a1-c3") == 7
    assert g.parse_move("  B2 - A1 ") == g.parse_move("a1-b2")
    assert g.parse_move("@ c1") == 38
    with pytest.raises(IllegalMoveError):
        g.move_name(54)


@pytest.mark.parametrize("text", ["", "a1-", "-b2", "@", "a1-b2-c3", "1a", "a0", "a1 b2", "x", "@@a1", "a1=X"])
def test_unreadable_moves(text):
    with pytest.raises(InvalidMoveError):
        Quantum().parse_move(text)


@pytest.mark.parametrize("text", ["a1-a1", "d1-a1", "a4", "@c4"])
def test_readable_moves_that_cannot_exist(text):
    with pytest.raises(IllegalMoveError):
        Quantum().parse_move(text)


# ---------------------------------------------------------------- illegal moves


def assert_rejected(g: Quantum, move, *fragments: str) -> None:
    before = (g.to_string(), g.ply, g.move_ids, g.position_hash())
    with pytest.raises(IllegalMoveError) as info:
        g.play(move)
    for fragment in fragments:
        assert fragment in str(info.value)
    assert (g.to_string(), g.ply, g.move_ids, g.position_hash()) == before


def test_pair_with_a_classical_cell():
    g = play("a1-b2", "a1-b2", "@a1")
    assert_rejected(g, "a1-c3", "cell a1 holds the classical mark O2", "legal moves: b1-c1")


def test_same_cell_twice():
    with pytest.raises(IllegalMoveError, match="twice"):
        Quantum().play("b2-b2")


def test_pair_while_a_collapse_is_pending():
    g = play("a1-b2", "a1-b2")
    assert_rejected(g, "a1-c3", "closed a cycle", "@a1 or @b2")
    assert_rejected(g, "a1", "closed a cycle")


def test_collapse_in_a_cell_not_of_the_newest_mark():
    g = play("a1-b2", "c3-b2", "a1-c3")  # x3 closes a1-b2-c3; the choice is @a1 or @c3
    assert_rejected(g, "@b2", "can only land in one of its own cells: @a1 or @c3")


def test_collapse_without_a_cycle_and_last_cell_too_early():
    g = play("a1-b2")
    assert_rejected(g, "@a1", "no collapse is pending")
    assert_rejected(g, "c3", "only written when exactly one cell has no classical mark")


def test_pair_when_only_one_cell_is_left():
    g = play("a1-b1", "b1-c1", "c1-b2", "b2-a2", "a2-c2", "c2-b3", "b3-a3", "a3-a1", "@a3")
    assert_rejected(g, "a1-c3", "only c3 has no classical mark", "legal moves: c3")
    assert_rejected(g, "b3", "only c3 has no classical mark")


def test_out_of_range_ids():
    g = Quantum()
    assert_rejected(g, 54, "out of range")
    assert_rejected(g, -1, "out of range")
    assert not g.is_legal(54) and not g.is_legal("zz") and g.is_legal("a1-b1")


# ---------------------------------------------------------------- position strings


def test_position_string_lists_every_mark():
    g = play(*TREE, "@c2")
    assert g.to_string() == "quantum X1:c1 o2:a2-a3 X3:c3 O4:b3 X5:b1 O6:c2"
    assert repr(g) == "noughts.Quantum.from_string('quantum X1:c1 o2:a2-a3 X3:c3 O4:b3 X5:b1 O6:c2')"
    h = Quantum.from_string(g.to_string())
    assert h == g and hash(h) == hash(g) and h.to_string() == g.to_string()
    assert h.legal_actions() == g.legal_actions() and h.to_move == g.to_move


def test_position_string_pending_collapse_is_implied():
    g = Quantum.from_string("quantum x1:a1-b2 o2:b2-a1")
    assert g.pending_collapse == (2, (0, 4)) and g.to_move == X and g.ply == 2


def test_position_string_order_and_case_of_the_keyword():
    g = Quantum.from_string("  QUANTUM o2:c3-c2   x1:a1-b1 ")
    assert g.to_string() == "quantum x1:a1-b1 o2:c2-c3"


def test_position_string_finished_game():
    g = play(*SEVEN, "a3-c3", "a3-c3", "@c3")
    h = Quantum.from_string(g.to_string())
    assert h.is_over() and h.termination == Termination.FULL_BOARD and h == g


def test_ply_from_a_position_string_counts_the_fewest_moves():
    # Two 2-cycles and one 4-cycle reach the same marks; the position forgets how.
    a = play("a1-b1", "a1-b1", "@b1", "a2-b2", "a2-b2", "@b2")
    b = play("a1-b1", "b1-a2", "a2-b2", "b2-a1", "@b2")
    assert a.to_string() == b.to_string() == "quantum X1:a1 O2:b1 X3:a2 O4:b2"
    assert a == b and hash(a) == hash(b) and a.ply == 6 and b.ply == 5
    assert Quantum.from_string(a.to_string()).ply == 5


@pytest.mark.parametrize(
    "text, why",
    [
        ("", "must start with 'quantum'"),
        ("classic x1:a1-b2", "must start with 'quantum'"),
        ("quantum x1", "is not like"),
        ("quantum x1:a1-a1", "two different cells"),
        ("quantum x1:a1-d1", "spooky mark in two different cells"),
        ("quantum x1:a1", "only upper-case marks are classical"),
        ("quantum X1:a1-b1", "only lower-case marks are spooky"),
        ("quantum o1:a1-b2", "X writes the odd marks"),
        ("quantum o2:a1-b2", "is missing"),
        ("quantum x1:a1-b2 x1:a1-c3", "appears twice"),
        ("quantum x0:a1-b2", "run from 1 to 9"),
        ("quantum z1:a1-b2", "must start with X, O"),
        ("quantum X1:a1 O2:a1", "holds two classical marks"),
        ("quantum X1:a1 O2:b2 x3:a1-c3", "which holds the classical mark X1"),
        ("quantum X1:a1 o2:b2-c3", "single classical mark cannot arise"),
        ("quantum x1:a1-b2 o2:a1-b2 x3:c1-c3", "closes a cycle, which must have collapsed"),
        ("quantum x1:a1-b1 o2:b1-c1 x3:c1-a1 o4:a3-b3", "closes a cycle, which must have collapsed"),
        ("quantum X1:a1 O2:a2 X3:b1 O4:b2 X5:c1 O6:c3 x7:a3-b3", "no later mark can exist"),
        (
            "quantum x1:a1-b1 o2:b1-c1 x3:c1-b2 o4:b2-a2 x5:a2-c2 o6:c2-b3 x7:b3-a3 o8:a3-c3 x9:c3-a1 o10:a1-b1",
            "at most 9 marks",
        ),
    ],
)
def test_invalid_position_strings(text, why):
    with pytest.raises(InvalidPositionError, match=why):
        Quantum.from_string(text)


def test_a_game_over_with_spooky_marks_older_than_the_line_is_valid():
    g = Quantum.from_string("quantum X1:c2 o2:a2-a3 X3:c3 O4:b3 X5:c1 O6:b1")
    assert g.winner == X and g.spooky_marks() == [(2, O, (3, 6))]


# ---------------------------------------------------------------- the Python surface


def test_render_shows_spooky_and_classical_marks_and_the_pending_collapse():
    g = play("a1-c3", "b2-c3", "a1-b2")  # x3 closes the cycle a1-c3-b2
    text = str(g)
    assert "x1 x3" in text and "o2" in text
    assert "O to move: mark x3 (a1-b2) closed a cycle; choose where it lands: @a1 or @b2" in text
    g.play("@b2")
    assert "[X3]" in str(g) and "[O2]" in str(g) and "[X1]" in str(g)
    assert str(g).splitlines()[0].split() == ["a", "b", "c"]
    assert str(g).splitlines()[-1] == "O to move: mark 4, a spooky pair such as b1-b3"


def test_render_of_finished_games():
    g = play("a1-a2", "a2-b1", "b1-b2", "b2-c1", "c1-c2", "c2-a1", "@c2")
    assert str(g).splitlines()[-1] == "X wins: both players have lines; X's was complete at mark 5, O's only at mark 6"
    assert str(play(*SEVEN, "a3-c3", "a3-c3", "@c3")).splitlines()[-1].startswith("Draw")


def test_undo_restores_collapses():
    g = play(*TREE)
    before = g.to_string()
    g.play("@c2")
    assert g.undo() == 36 + 5
    assert g.to_string() == before and g.pending_collapse == (6, (1, 5)) and g.ply == 6
    while g.move_ids:
        g.undo()
    assert g == Quantum() and g.ply == 0


def test_copy_pickle_history_and_symmetry():
    g = play(*TREE, "@c2")
    assert g.move_ids == [g.parse_move(t) for t in TREE] + [41]
    assert [m.name for m in g.history][2:4] == ["c2-c3", "b3-c3"]  # canonical: smaller cell first
    c = g.copy()
    c.play("a1-b2")
    assert g.marks_written == 6 and c.marks_written == 7
    p = pickle.loads(pickle.dumps(g))
    assert p == g and p.ply == g.ply and p.move_ids == g.move_ids
    # Symmetry 4 mirrors left and right: a <-> c.
    m = g.symmetric(4)
    assert m.to_string() == "quantum X1:a1 o2:c2-c3 X3:a3 O4:b3 X5:b1 O6:a2"
    assert g.symmetric(0) == g


def test_random_playouts():
    counts = noughts.random_playouts(Quantum(), 2000, seed=3)
    assert sum(counts) == 2000 and counts.x_wins > counts.o_wins > 0 and counts.draws > 0
    assert noughts.random_playouts(Quantum(), 500, seed=9) == noughts.random_playouts(Quantum(), 500, seed=9)
