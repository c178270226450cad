"""Ultimate(tiebreak=True): CodinGame's board-count rule for a big board that fills without a line."""

import random

import noughts
import pytest
from game_choices import random_game
from minimax import minimax, move_values
from noughts import BoardState, Termination, Ultimate
from noughts.registry import make_game

X, O = noughts.Player.X, noughts.Player.O


def counted_outcome(game):
    """The tie-break result of a finished default-rule game, counted here from the board states."""
    states = game.board_states()
    x, o = states.count(BoardState.X), states.count(BoardState.O)
    return None if x == o else (X if x > o else O)


@pytest.mark.parametrize("seed", range(300))
def test_random_games_agree_with_the_default_rule_but_for_full_boards(seed):
    """The same moves are legal under both rules; only a full big board without a line ends differently."""
    rng = random.Random(seed)
    plain, tie = Ultimate(), Ultimate(tiebreak=True)
    while not plain.is_over():
        assert plain.legal_actions() == tie.legal_actions()
        assert not tie.is_over()
        move = rng.choice(plain.legal_actions())
        plain.play(move)
        tie.play(move)
    assert tie.is_over()
    if plain.termination == Termination.LINE:
        assert (tie.winner, tie.termination) == (plain.winner, Termination.LINE)
    else:
        assert plain.winner is None and plain.termination == Termination.FULL_BOARD
        expected = counted_outcome(plain)
        assert tie.winner == expected
        assert tie.termination == (Termination.FULL_BOARD if expected is None else Termination.MORE_BOARDS)


def test_the_rule_rides_in_position_strings_copies_and_symmetries():
    g = random_game(lambda: Ultimate(tiebreak=True), 3, 30)
    text = g.to_string()
    assert text.endswith(" tiebreak")
    back = Ultimate.from_string(text)
    assert back.tiebreak and back == g
    assert g.copy().tiebreak and all(g.symmetric(s).tiebreak for s in range(8))
    assert not Ultimate.from_string(text.removesuffix(" tiebreak")).tiebreak
    assert Ultimate.from_string(text.removesuffix(" tiebreak")) != g  # different rules, different games
    assert eval(repr(g), {"noughts": noughts}).tiebreak  # noqa: S307 - the repr is meant to evaluate back
    assert Ultimate(tiebreak=True).options() == {"tiebreak": True} and Ultimate().options() == {"tiebreak": False}
    assert make_game("ultimate", tiebreak=True).tiebreak


@pytest.mark.parametrize("bad", [1, "yes", None])
def test_tiebreak_must_be_a_bool(bad):
    with pytest.raises(noughts.InvalidOptionError, match="tiebreak must be True or False"):
        Ultimate(tiebreak=bad)


def test_unknown_position_flag_is_refused():
    text = Ultimate().to_string() + " tiebreaks"
    with pytest.raises(noughts.InvalidPositionError, match="tiebreak"):
        Ultimate.from_string(text)


def random_endgame(seed, plies):
    """A position after `plies` random moves under the tie-break rule, or None when the game ended."""
    g = random_game(lambda: Ultimate(tiebreak=True), seed, plies)
    return None if g.is_over() else g


def test_solver_matches_exhaustive_minimax_under_the_tiebreak():
    """Endgames where the rule changes the value: the solver agrees with the plain referee.

    The positions are chosen as those whose value differs between the rules, so the
    test fails if the solver (or its "who can still win" pruning) ignores the rule.
    """
    changed = 0
    for seed in range(60):
        g = random_endgame(seed, 60)
        if g is None:
            continue
        memo = {}
        value, distance = minimax(g.copy(), memo)
        plain_value, _ = minimax(Ultimate.from_string(g.to_string().removesuffix(" tiebreak")), {})
        if value == plain_value:
            continue
        changed += 1
        solution = noughts.solve(g, move_values=True)
        assert solution.value == value
        assert solution.move_values == move_values(g.copy(), memo)
        if value != 0:
            assert solution.distance == distance
        if changed == 4:
            break
    assert changed >= 3, "too few positions where the rule matters to test it"


def test_mcts_proves_a_win_on_board_count():
    """MCTS-solver backs up MORE_BOARDS results like any other end of the game."""
    for seed in range(200):
        g = random_endgame(seed, 62)
        if g is None:
            continue
        solved = noughts.solve(g)
        plain = noughts.solve(Ultimate.from_string(g.to_string().removesuffix(" tiebreak")))
        if solved.value == 1 and plain.value != 1:
            result = noughts.MCTS(seed=1).search(g, iterations=200_000)
            assert result.proven_value == 1
            assert result.best_move in solved.best_moves
            return
    pytest.fail("no endgame found that only the board count wins")


def test_vector_game_plays_the_start_position_rule():
    env = noughts.VectorGame(Ultimate(tiebreak=True), 4, seed=0)
    assert all(env.game(i).tiebreak for i in range(4))


def test_the_rule_is_an_option_everywhere_games_are_named():
    """Records, the registry and the OpenSpiel adapter carry the option like Classic's."""
    from noughts.records import Record

    g = random_game(lambda: Ultimate(tiebreak=True), 5, 20)
    text = Record.from_game(g).to_text()
    assert "Tiebreak" in text
    back = Record.from_text(text).game
    assert back.tiebreak and back == g
    pyspiel = pytest.importorskip("pyspiel")
    import noughts.openspiel as nos

    nos.register()
    game = pyspiel.load_game("noughts_ultimate", {"tiebreak": True})
    assert game.get_parameters() == {"tiebreak": True}
    assert pyspiel.load_game("noughts_ultimate").get_parameters() == {"tiebreak": False}
