"""noughts.Prover: proof-number search with one table kept between positions. Its answers are the
exhaustive referee's (small boards) and the fresh solver's, whatever it proved before, and a
limit leaves the table usable."""

import math

import noughts
import pytest
from game_choices import choices, play_choices, random_game
from hypothesis import given, settings
from hypothesis import strategies as st
from minimax import minimax, move_values
from noughts import Classic, Quantum, Ultimate

OPTION_SETS = [
    dict(misere=m, free_choice=f, gravity=g) for m in (False, True) for f in (False, True) for g in (False, True)
]


def assert_proves(prover, game, memo):
    """The prover's answer is the referee's value and a move that keeps it."""
    s = prover.prove(game)
    value, _ = minimax(game.copy(), memo)
    assert s is not None and s.weak and s.value == value and s.to_move == game.to_move
    assert len(s.best_moves) == 1 and move_values(game.copy(), memo)[s.best_moves[0].id] == value
    assert s.distance is None and s.principal_variation == [] and s.move_values == {}


@given(st.sampled_from(OPTION_SETS), st.lists(choices(12), min_size=1, max_size=4))
@settings(max_examples=30, deadline=None)
def test_one_prover_answers_many_positions_of_many_boards_as_the_referee(options, games):
    """Positions of several boards and option sets, in any order, through one prover: each set of
    options has its own table, so nothing proved under one set leaks into another."""
    prover, memos = noughts.Prover(tt_mb=1), {}
    for i, picks in enumerate(games):
        board = [(3, 3, 3), (3, 4, 3), (4, 3, 3)][i % 3]
        game = play_choices(Classic(*board, **options), picks)
        history = [game.copy()]
        while history[-1].ply > 0:  # the game's positions from the end back, as label walks them
            previous = history[-1].copy()
            previous.undo()
            history.append(previous)
        for position in history:
            # The referee takes the 12-cell boards from their fourth move on.
            if not position.is_over() and (board == (3, 3, 3) or position.ply >= 4):
                assert_proves(prover, position, memos.setdefault(board, {}))


def test_a_game_from_its_end_back_proves_the_same_values_as_fresh_solves():
    game = random_game(lambda: Ultimate(tiebreak=True), 7, 60)
    prover = noughts.Prover()
    while game.ply > 40:
        game.undo()
        if game.is_over():
            continue
        s = prover.prove(game, max_seconds=20)
        fresh = noughts.solve(game, weak=True, method="pns", max_seconds=20)
        assert s is not None and s.value == fresh.value
        after = game.copy()
        after.play(s.best_moves[0].id)
        keeps = after.winner == game.to_move if after.is_over() else None
        if keeps is None:  # the move keeps the value: the position after it is worth -value to the opponent
            assert noughts.solve(after, weak=True, method="pns").value_for(game.to_move) == s.value
        else:
            assert s.value == 1 and keeps


def test_the_rules_of_the_board_count_have_their_own_table():
    """A full big board without a line of boards: a draw under the seeds' rules, a win for the player with
    more small boards under CodinGame's. The same marks, proved in both orders, keep their own values."""
    for seed in range(200):
        game = random_game(lambda: Ultimate(tiebreak=True), seed, 81)
        if game.is_over() and game.winner is not None and "boards" in game.explanation and game.ply > 50:
            break
    else:
        pytest.fail("no random game ended on the board count")
    moves = [m.id for m in game.history]
    cut = len(moves) - 6
    tb, seed_rules = Ultimate(tiebreak=True), Ultimate()
    for m in moves[:cut]:
        tb.play(m)
        seed_rules.play(m)
    prover = noughts.Prover()
    first, second = (tb, seed_rules) if cut % 2 else (seed_rules, tb)
    answers = {id(g): prover.prove(g).value for g in (first, second)}
    assert answers[id(tb)] == noughts.solve(tb, weak=True).value
    assert answers[id(seed_rules)] == noughts.solve(seed_rules, weak=True).value


def test_each_set_of_options_has_its_own_table():
    """The same marks under other rules (misère, free choice) have other values: proved through one
    prover in either order, each keeps the value of its own rules."""
    found = 0
    for seed in range(300):
        plain = random_game(lambda: Classic(4, 4, 3), seed, 2)  # early: the search needs its table
        if plain.is_over():
            continue
        for options in ({"misere": True}, {"free_choice": True}, {"misere": True, "free_choice": True}):
            other = Classic.from_string(
                plain.to_string().split(" ")[0]
                + " k=3 "
                + " ".join({"misere": "misere", "free_choice": "free"}[k] for k in options)
            )
            expected = {"plain": noughts.solve(plain, weak=True).value, "other": noughts.solve(other, weak=True).value}
            if expected["plain"] == expected["other"]:
                continue
            found += 1
            for order in (("plain", "other"), ("other", "plain")):
                prover = noughts.Prover()
                games = {"plain": plain, "other": other}
                for name in order:
                    assert prover.prove(games[name]).value == expected[name]
        if found >= 3:
            return
    pytest.fail("no position found whose value the options change")


def test_a_stopped_proof_returns_none_and_the_table_still_answers():
    game = random_game(lambda: Ultimate(), 3, 38)
    assert not game.is_over()
    prover = noughts.Prover()
    assert prover.prove(game, max_nodes=50) is None
    assert prover.prove(game, max_seconds=1e-6) is None
    s = prover.prove(game, max_seconds=60)
    assert s is not None and s.value == noughts.solve(game, weak=True, method="pns").value
    again = prover.prove(game, max_nodes=1)  # proved: the table holds it
    assert again is not None and again.value == s.value and again.nodes <= s.nodes
    prover.clear()
    assert prover.prove(game, max_nodes=50) is None


def test_quantum_and_every_game_kind():
    prover = noughts.Prover()
    q = Quantum()
    for m in ("a1-b2", "a1-b2", "@a1"):
        q.play(m)
    assert prover.prove(q).value == noughts.solve(q, weak=True).value
    assert prover.prove(Classic()).value == 0


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"max_seconds": 0}, "max_seconds must be a positive number"),
        ({"max_seconds": -1}, "max_seconds must be a positive number"),
        ({"max_seconds": math.nan}, "max_seconds must be a positive number"),
        ({"max_seconds": "1"}, "max_seconds must be a positive number"),
        ({"max_nodes": 0}, "max_nodes"),
        ({"max_nodes": 1.5}, "max_nodes must be a whole number"),
        ({"max_nodes": True}, "max_nodes must be a whole number"),
    ],
)
def test_bad_limits_are_refused(kwargs, message):
    with pytest.raises(noughts.InvalidOptionError, match=message):
        noughts.Prover().prove(Classic(), **kwargs)


def test_bad_games_and_options_are_refused():
    with pytest.raises(noughts.InvalidOptionError, match="tt_mb must be a positive number"):
        noughts.Prover(tt_mb=0)
    with pytest.raises(noughts.InvalidOptionError, match="prove takes a noughts game"):
        noughts.Prover().prove("x..")
    done = Classic()
    for m in (0, 3, 1, 4, 2):
        done.play(m)
    with pytest.raises(noughts.IllegalMoveError, match="over"):
        noughts.Prover().prove(done)
