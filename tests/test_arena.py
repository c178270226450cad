"""The arena (noughts.arena): external programs over CodinGame's protocol against in-process searches."""

import sys

import noughts
import pytest
from noughts.arena import Limits, ProgramEngine, SearchEngine, play_game, random_opening

GENEROUS = Limits(turn_ms=5000, first_turn_ms=10000)


def engine_program(*extra):
    return ProgramEngine(
        [sys.executable, "-m", "noughts", "engine", "--codingame", "--ms", "30", "--first-ms", "2000", *extra],
        name="program",
    )


@pytest.mark.parametrize("program_plays", ["X", "O"])
def test_a_program_set_up_from_an_opening_plays_a_whole_legal_game(program_plays):
    """The program gets the opening on its command line and then only the moves made after it,
    whichever side moves first once the opening is on the board."""
    import random

    for plies in (1, 2):
        game = noughts.Ultimate(tiebreak=True)
        for move in random_opening(lambda: noughts.Ultimate(tiebreak=True), plies, random.Random(plies)):
            game.play(move)
        program = engine_program("--start", "{opening}")
        search = SearchEngine("search", iterations=200)
        x, o = (program, search) if program_plays == "X" else (search, program)
        result = play_game(x, o, game.copy(), GENEROUS)
        assert result.forfeit is None, result.forfeit
        replay = game.copy()
        for move in result.moves:
            replay.play(move)
        assert replay.is_over() and result.winner == replay.winner


def test_a_program_that_takes_no_opening_is_refused_one():
    game = noughts.Ultimate()
    game.play(40)
    with pytest.raises(noughts.InvalidOptionError, match="opening"):
        play_game(engine_program(), SearchEngine("search", iterations=100), game, GENEROUS)
