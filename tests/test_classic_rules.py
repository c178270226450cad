"""Hand-built Classic positions for each rule and each pair of options."""

import noughts
import pytest
from noughts import Classic, Player, Termination


def play_all(game, moves):
    for m in moves:
        game.play(m)
    return game


def test_defaults_follow_rules_md():
    assert [Classic(n, n).k for n in (2, 3, 4, 5, 6, 8)] == [2, 3, 4, 4, 5, 5]
    assert Classic(1, 2).k == 2  # never more than the longer side
    assert Classic(3, 8).k == 3  # the shorter side decides
    assert Classic(4, 16).k == 4


def test_normal_line_wins_for_its_maker():
    g = play_all(Classic(), ["a1", "a2", "b1", "b2", "c1"])
    assert g.winner == Player.X and g.termination == Termination.LINE
    assert g.legal_actions() == []


def test_full_board_without_line_is_a_draw():
    g = play_all(Classic(), ["b2", "a1", "c1", "a3", "a2", "c2", "b1", "b3", "c3"])
    assert g.is_over() and g.winner is None
    assert g.outcome().termination == Termination.FULL_BOARD
    assert g.outcome().result == "1/2-1/2"


def test_misere_line_loses():
    g = play_all(Classic(misere=True), ["a1", "a2", "b1", "b2", "c1"])
    assert g.winner == Player.O and g.termination == Termination.MISERE_LINE


def test_free_choice_line_of_o_written_by_x_counts_for_x():
    # X writes O three times on the top row; O writes X elsewhere.
    g = play_all(Classic(free_choice=True), ["a1=O", "a3=X", "b1=O", "c3=X", "c1=O"])
    assert g.ply == 5 and g.winner == Player.X and g.termination == Termination.LINE


def test_free_choice_o_completes_a_line_of_x():
    g = play_all(Classic(free_choice=True), ["a1=X", "b1=X", "a3=O", "c1=X"])
    assert g.winner == Player.O


def test_misere_with_free_choice_the_completer_loses_whatever_the_symbol():
    g = play_all(Classic(misere=True, free_choice=True), ["a1=O", "b1=O", "a3=X", "c1=O"])
    assert g.winner == Player.X and g.termination == Termination.MISERE_LINE


def test_gravity_mark_lands_on_lowest_empty_cell():
    g = Classic(gravity=True)
    g.play("b")
    assert g.board()[2] == [".", "X", "."]
    g.play("b")
    assert [row[1] for row in g.board()] == [".", "O", "X"]
    assert g.target_cell(1) == 1  # the top cell is next


def test_gravity_full_column_is_illegal_and_leaves_no_move():
    g = play_all(Classic(gravity=True), ["a", "a", "a"])
    assert 0 not in g.legal_actions()
    before = g.to_string()
    with pytest.raises(noughts.IllegalMoveError, match="column a is full"):
        g.play("a")
    assert g.to_string() == before


def test_gravity_vertical_and_diagonal_lines():
    g = play_all(Classic(4, 4, 3, gravity=True), ["a", "b", "a", "b", "a"])
    assert g.winner == Player.X
    # X builds the rising diagonal a4-b3-c2 on top of other marks.
    g = play_all(Classic(4, 4, 3, gravity=True), ["a", "b", "b", "d", "c", "c"])
    assert not g.is_over()
    g.play("c")
    assert g.winner == Player.X and g.winning_line() == (1 << 12) | (1 << 9) | (1 << 6)


def test_gravity_with_misere():
    g = play_all(Classic(4, 4, 3, misere=True, gravity=True), ["a", "b", "a", "b", "a"])
    assert g.winner == Player.O and g.termination == Termination.MISERE_LINE


def test_gravity_with_free_choice_ids_and_names():
    g = Classic(gravity=True, free_choice=True)
    assert g.legal_actions() == [0, 1, 2, 3, 4, 5]
    assert g.move_name(5) == "c=O"
    g.play("c=O")
    assert g.board()[2] == [".", ".", "O"] and g.to_move == Player.O


def test_all_three_options_together():
    g = play_all(Classic(misere=True, free_choice=True, gravity=True), ["a=X", "b=O", "a=X", "c=O", "a=X"])
    # X completed the a-column of X in misere: X loses.
    assert g.winner == Player.O and g.termination == Termination.MISERE_LINE


def test_k1_first_move_completes_a_line():
    g = play_all(Classic(2, 2, 1), ["a1"])
    assert g.winner == Player.X
    assert play_all(Classic(2, 2, 1, misere=True), ["a1"]).winner == Player.O


def test_rectangular_board_lines():
    g = play_all(Classic(2, 5, 4), ["a1", "a2", "b1", "b2", "c1", "c2", "d1"])
    assert g.winner == Player.X
    g = play_all(Classic(5, 2, 4), ["a1", "b1", "a2", "b2", "a3", "b3", "a4"])
    assert g.winner == Player.X


def test_largest_boards():
    g = Classic(8, 8)
    assert g.k == 5 and len(g.legal_actions()) == 64 and g.num_actions == 64
    g = Classic(1, 64, 64, free_choice=True)
    assert g.num_actions == 128
    for i in range(63):
        g.play(2 * i)
    assert not g.is_over()
    g.play(126)
    assert g.winner == Player.O  # O wrote the 64th X


def test_symmetric_positions_have_equal_counts():
    a = play_all(Classic(4, 4, 3), ["a1", "b2"])
    b = play_all(Classic(4, 4, 3), ["d4", "c3"])
    assert a != b
    assert noughts.perft(a, 3) == noughts.perft(b, 3)
