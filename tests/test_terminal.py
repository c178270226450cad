"""noughts play, driven through its input and output streams."""

import io

import noughts
import pytest
from noughts import Player
from noughts.terminal import RESET, STYLE, Console, _board_text, play

BOTH = {Player.X, Player.O}


def session(game, lines, humans=BOTH, colour=False, **kwargs):
    out = io.StringIO()
    console = Console(io.StringIO("".join(line + "\n" for line in lines)), out, colour=colour)
    status = play(game, humans, seconds=0.02, console=console, **kwargs)
    return status, out.getvalue()


def test_instructions_first_and_whose_turn_said_once_a_move():
    status, text = session(noughts.Classic(), ["b2", "quit"])
    assert status == 0
    first = text.splitlines()[0]
    assert first.startswith("noughts: Classic") and "two players" in first
    assert "Type a move in notation (such as a1 b1 c1)" in text and "undo, hint, moves, help, quit" in text
    # One position, one mention of the mover: in the prompt.
    after_b2 = text.split("X played b2", 1)[1]
    assert after_b2.count("to move") == 1 and "O to move >" in after_b2


def test_messages_name_moves_not_ids():
    _, text = session(noughts.Classic(), ["b2", "b2", "quit"])
    assert "illegal move b2" in text and "(id" not in text and "occupied" in text


def test_the_winning_line_is_named_and_the_game_over_prompt_offers_what_next(tmp_path):
    record = tmp_path / "game.txt"
    moves = ["a1", "a2", "b1", "b2", "c1"]
    status, text = session(noughts.Classic(), [*moves, f"save {record}", "quit"])
    assert status == 0
    assert "Game over (1-0): X wins" in text and "(a1 b1 c1)" in text
    assert "What next? rematch" in text and f"the record is saved in {record}" in text
    (saved,) = noughts.read_records(record)
    assert saved.headers["X"] == "human" and saved.headers["O"] == "human"
    assert [m.name for m in saved.game.history] == moves and saved.game.winner == Player.X


def test_save_to_a_bad_path_is_a_message_not_a_crash(tmp_path):
    moves = ["a1", "a2", "b1", "b2", "c1"]
    _, text = session(noughts.Classic(), [*moves, f"save {tmp_path / 'missing' / 'g.txt'}", "quit"])
    assert "cannot save to" in text


def test_rematch_swaps_sides_and_new_keeps_them():
    moves = ["a1", "a2", "b1", "b2", "c1"]
    _, text = session(noughts.Classic(), [*moves, "rematch", "quit"], humans={Player.X})
    assert "A new game: you play O." in text
    assert text.count("X (engine) played") >= 1  # the engine opened the rematch
    _, text = session(noughts.Classic(), [*moves, "new", "quit"], humans={Player.X, Player.O})
    assert "A new game: you play X and O." in text


def test_engine_values_are_said_for_a_named_player():
    _, text = session(noughts.Classic(), ["b2", "hint", "quit"], humans={Player.X})
    assert "O (engine) played" in text
    assert "the engine's view:" in text and ("for O" in text or "with best play" in text)
    hint = [line for line in text.splitlines() if "hint:" in line][0]
    assert "for X" in hint or "X wins" in hint or "X loses" in hint or "a draw" in hint


def test_quantum_collapse_says_which_mark_landed_where():
    _, text = session(noughts.Quantum(), ["a1-b2", "a1-b2", "@a1", "quit"])
    cycle = noughts.Quantum()
    cycle.play("a1-b2")
    cycle.play("a1-b2")
    assert f"{cycle.status} > " in text  # the prompt is the game's own status: the choice and its cells
    assert "closed a cycle" in cycle.status and "@a1" in cycle.status and "@b2" in cycle.status
    assert "collapse: x1 in b2, o2 in a1 (now classical)" in text
    assert "Quantum" in text.splitlines()[0] and "spooky pair" in text


def test_last_move_and_winning_cells_are_painted_in_colour():
    _, text = session(noughts.Classic(), ["b2", "quit"], colour=True)
    assert STYLE["last"] + "X" + RESET in text
    _, text = session(noughts.Classic(), ["a1", "a2", "b1", "b2", "c1", "quit"], colour=True)
    board = text.split("X played c1", 1)[1]
    assert STYLE["last"] + "X" + RESET in board and board.count(STYLE["win"] + "X" + RESET) == 2
    _, plain = session(noughts.Classic(), ["b2", "quit"], colour=False)
    assert "\x1b[" not in plain


def _ultimate_with_a_won_board():
    """A game (random, fixed seed) played until X has won a small board and O one too, or a board is drawn."""
    import random

    rng = random.Random(7)
    while True:
        game = noughts.Ultimate()
        while not game.is_over():
            game.play(rng.choice(game.legal_actions()))
            states = {s.name for s in game.board_states()}
            if {"X", "O"} <= states and not game.is_over():
                return game


def test_ultimate_boards_decided_are_shown_beside_the_board():
    game = _ultimate_with_a_won_board()
    states = game.board_states()
    lines = _board_text(game, Console(io.StringIO(), io.StringIO(), colour=False), set())
    symbol = {"OPEN": ".", "X": "X", "O": "O", "DRAWN": "="}
    for r in range(3):
        beside = lines[1 + r].split("     ")[1].split()[:3]
        expected = ["*" if b == game.forced_board else symbol[states[b].name] for b in range(3 * r, 3 * r + 3)]
        assert beside == expected


def test_a_won_small_board_is_painted_in_its_winners_colour():
    game = _ultimate_with_a_won_board()
    lines = _board_text(game, Console(io.StringIO(), io.StringIO(), colour=True), set())
    rows = [line for line in lines if line[:1].isdigit()]
    won = game.board_states()
    for b, state in enumerate(won):
        if state.name in ("X", "O"):
            row = rows[(b // 3) * 3]
            # Every cell of the small board carries the winner's colour, empty ones too.
            cells = row.split(" | ")[b % 3] if b % 3 else row.split(" | ")[0][2:]
            assert cells.count(STYLE[state.name]) == 3, (b, cells)


def test_undo_goes_back_to_the_human_and_end_of_input_exits_0():
    status, text = session(noughts.Classic(), ["b2", "undo"], humans={Player.X})
    assert status == 0 and text.rstrip().endswith("end of input")
    assert text.count("X to move (you) >") == 3  # start, after the engine's reply, after undo


@pytest.mark.parametrize(
    "game", [noughts.Classic(), noughts.Ultimate(), noughts.Quantum()], ids=["classic", "ultimate", "quantum"]
)
def test_the_engine_plays_a_whole_game_alone(game):
    status, text = session(game, [], humans=set())
    assert status == 0 and "Traceback" not in text
    assert game.is_over() and f"Game over ({game.outcome().result}): {game.explanation}" in text  # the game's words
