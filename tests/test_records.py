"""Game records (noughts.records): the format, round trips, and the errors of bad files."""

from __future__ import annotations

import datetime
import io
import random

import noughts
import pytest
from hypothesis import given
from hypothesis import strategies as st
from noughts import Classic, Quantum, Record, Ultimate, read_records, write_records
from noughts.errors import IllegalMoveError, InvalidMoveError, InvalidOptionError, InvalidPositionError
from noughts.records import parse_records

CLASSIC_OPTIONS = [
    {},
    {"rows": 4, "cols": 4},
    {"rows": 6, "cols": 7, "k": 4, "gravity": True},
    {"free_choice": True},
    {"misere": True},
    {"rows": 5, "cols": 5, "k": 3, "misere": True, "free_choice": True},
    {"rows": 1, "cols": 40, "k": 3},
    {"rows": 4, "cols": 3, "k": 3, "gravity": True, "free_choice": True},
]


def play_randomly(game, rng: random.Random, plies: int | None = None):
    while not game.is_over() and (plies is None or plies > 0):
        game.play(rng.choice(game.legal_actions()))
        plies = None if plies is None else plies - 1
    return game


def random_games(seed: int) -> list:
    """Finished and unfinished games of every kind and every Classic variant."""
    rng = random.Random(seed)
    games = []
    for options in CLASSIC_OPTIONS:
        games.append(play_randomly(Classic(**options), rng))
        games.append(play_randomly(Classic(**options), rng, rng.randrange(0, 6)))
    for cls in (Ultimate, Quantum):
        for _ in range(6):
            games.append(play_randomly(cls(), rng))
        games.append(play_randomly(cls(), rng, rng.randrange(0, 8)))
    return games


def assert_same_game(record: Record, game) -> None:
    assert type(record.game) is type(game)
    assert [m.name for m in record.moves] == [m.name for m in game.history]
    assert record.game.move_ids == game.move_ids
    assert record.game == game
    assert record.game.start_string() == game.start_string()
    outcome = game.outcome()
    assert record.result == (outcome.result if outcome else "*")


# ---------------------------------------------------------------------------
# Round trips
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("seed", range(4))
def test_round_trip_many_games_in_one_file(seed: int, tmp_path) -> None:
    games = random_games(seed)
    path = tmp_path / "games.txt"
    write_records(games, path)
    records = read_records(path)
    assert len(records) == len(games)
    for record, game in zip(records, games):
        assert_same_game(record, game)
        assert record.headers["Game"] == type(game).__name__.lower()
    # Reading what was read and writing it again gives the same text.
    again = io.StringIO()
    write_records(records, again)
    assert again.getvalue() == path.read_text()


def test_round_trip_through_a_file_object_and_a_single_game() -> None:
    game = play_randomly(Quantum(), random.Random(3))
    buf = io.StringIO()
    write_records(game, buf)  # one game, not a list
    buf.seek(0)
    (record,) = read_records(buf)
    assert_same_game(record, game)


def test_replayed_game_keeps_its_history() -> None:
    game = Ultimate()
    for move in ["e5", "d4", "a1"]:
        game.play(move)
    record = Record.from_text(Record.from_game(game).to_text())
    assert record.game.undo() == game.move_ids[-1]
    assert record.game.ply == 2


def test_quantum_player_moving_twice() -> None:
    game = Quantum()
    for move in ["a1-b2", "a1-b2", "@a1", "c1-c2"]:  # X closes nothing, O closes, X chooses then writes
        game.play(move)
    text = Record.from_game(game).to_text()
    assert text.endswith("\n\na1-b2 a1-b2 @a1 c1-c2 *\n")
    assert_same_game(Record.from_text(text), game)


# ---------------------------------------------------------------------------
# The text itself
# ---------------------------------------------------------------------------
def test_format_of_a_classic_record() -> None:
    game = Classic()
    for move in ["b2", "a1", "c3", "a3", "a2", "c2", "b1", "b3", "c1"]:
        game.play(move)
    record = Record.from_game(game, X="Alice", O="Bob", Date=datetime.date(2024, 5, 17), Event="Club night")
    assert record.to_text() == (
        '[Game "classic"]\n'
        '[Rows "3"]\n'
        '[Cols "3"]\n'
        '[K "3"]\n'
        '[Misere "no"]\n'
        '[FreeChoice "no"]\n'
        '[Gravity "no"]\n'
        '[Event "Club night"]\n'
        '[Date "2024.05.17"]\n'
        '[X "Alice"]\n'
        '[O "Bob"]\n'
        '[Result "1/2-1/2"]\n'
        "\n"
        "b2 a1 c3 a3 a2 c2 b1 b3 c1 1/2-1/2\n"
    )
    assert str(record) == record.to_text()


def test_long_games_wrap_lines() -> None:
    game = play_randomly(Ultimate(), random.Random(1))
    text = Record.from_game(game).to_text()
    assert max(len(line) for line in text.splitlines()) <= 79
    assert_same_game(Record.from_text(text), game)


def test_custom_headers_are_kept_in_order() -> None:
    game = play_randomly(Classic(4, 4), random.Random(2), 5)
    record = Record.from_game(game, Opening="corner", X='Ann "the \\ wall"', Annotator="me", Result="0-1")
    (back,) = parse_records(record.to_text())
    assert back.headers == record.headers
    assert list(back.headers) == [
        "Game",
        "Rows",
        "Cols",
        "K",
        "Misere",
        "FreeChoice",
        "Gravity",
        "X",
        "Result",
        "Opening",
        "Annotator",
    ]
    assert back.headers["X"] == 'Ann "the \\ wall"'
    assert back.result == "0-1"  # an unfinished game may carry a result (a resignation)


@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\r\n"), max_size=30))
def test_any_one_line_tag_value_round_trips(value: str) -> None:
    record = Record.from_game(Classic(), Comment=value)
    assert Record.from_text(record.to_text()).headers["Comment"] == value


def test_reading_skips_numbers_comments_and_blank_lines() -> None:
    text = """
; a file of two games
[Game "Classic"] [Rows "4"] [Cols "4"]   ; tags may share a line
[X "Ann ; not a comment {nor this}"]
1. a1 {X starts in the corner} b1 2.c1 d1
3... a2 1-0 {a resignation}
[Game "quantum"]
a1-b2 a1-b2 @a1 *
"""
    first, second = parse_records(text)
    assert first.headers["Game"] == "classic" and first.headers["X"] == "Ann ; not a comment {nor this}"
    assert [m.name for m in first.moves] == ["a1", "b1", "c1", "d1", "a2"]
    assert first.result == "1-0" and not first.game.is_over()
    assert first.game.k == 4
    assert [m.name for m in second.moves] == ["a1-b2", "a1-b2", "@a1"]
    assert second.result == "*"


def test_missing_tags_take_defaults() -> None:
    (record,) = parse_records("b2 a1 c3\n")
    assert record.headers == {"Game": "classic", "Result": "*"}
    assert record.game == Classic.from_string("o../.x./..x k=3")


# ---------------------------------------------------------------------------
# Non-standard starts
# ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    "cls, start, moves",
    [
        (Classic, "x.o/.x./... k=3", ["c3"]),
        (Classic, "..../..../..../.xo. k=4 gravity", ["b", "c", "b"]),
        (
            Ultimate,
            "........./........./........./...o...../....x..../........./........./........./......... 0",
            ["b2", "e4"],
        ),
        (Quantum, "quantum x1:a1-b2 o2:a1-b2", ["@b2", "c1-c3"]),
    ],
    ids=["classic", "gravity", "ultimate", "quantum"],
)
def test_record_from_a_start_position(cls: type, start: str, moves: list[str]) -> None:
    game = cls.from_string(start)
    for move in moves:
        game.play(move)
    record = Record.from_game(game)
    assert record.headers["Start"] == start
    (back,) = parse_records(record.to_text())
    assert_same_game(back, game)


def test_standard_start_has_no_start_tag() -> None:
    game = Classic(5, 5, misere=True)
    assert "Start" not in Record.from_game(game).headers
    assert "Start" not in Record.from_game(Quantum()).headers


# ---------------------------------------------------------------------------
# Record.from_game checks
# ---------------------------------------------------------------------------
def test_from_game_copies_the_game() -> None:
    game = Classic()
    game.play("b2")
    record = Record.from_game(game)
    game.play("a1")
    assert [m.name for m in record.moves] == ["b2"]


def test_from_game_rejects_contradicting_tags() -> None:
    game = Classic()
    for move in ["a1", "b1", "a2", "b2", "a3"]:
        game.play(move)
    with pytest.raises(InvalidOptionError, match="ended 1-0"):
        Record.from_game(game, Result="0-1")
    with pytest.raises(InvalidOptionError, match="Game"):
        Record.from_game(game, Game="ultimate")
    with pytest.raises(InvalidOptionError):
        Record.from_game(Classic(), Result="2-0")
    with pytest.raises(InvalidOptionError):
        Record.from_game(Classic(), Event="two\nlines")
    with pytest.raises(InvalidOptionError):
        Record.from_game(Classic(), **{"bad key": "x"})
    with pytest.raises(InvalidOptionError, match="option of classic"):
        Record.from_game(Ultimate(), Rows="9")
    with pytest.raises(InvalidOptionError, match="Start"):
        Record.from_game(Classic(), Start="x.o/.x./... k=3")
    with pytest.raises(InvalidOptionError, match="K"):
        Record.from_game(Classic(4, 4), K=3)
    with pytest.raises(TypeError):
        Record.from_game("b2 a1")  # type: ignore[arg-type]
    assert Record.from_game(game, Game="classic", Result="1-0", Misere=False, K=3).result == "1-0"
    # A Start equal to the game's own start is harmless, and reads back.
    with_start = Record.from_game(game, Start=".../.../... k=3")
    assert parse_records(with_start.to_text())[0].game == game


# ---------------------------------------------------------------------------
# Malformed files: the documented error, with the line number
# ---------------------------------------------------------------------------
MALFORMED = [
    ("[Game classic]\n\nb2 *\n", InvalidPositionError, 1, "malformed tag"),
    ('[Game "chess"]\n\ne4 *\n', InvalidPositionError, 1, "unknown game"),
    ('[Game "classic"]\n[Rows "three"]\n\nb2 *\n', InvalidPositionError, 2, "whole number"),
    ('[Game "classic"]\n[Rows "100"]\n\nb2 *\n', InvalidPositionError, 2, "options"),
    ('[Game "classic"]\n[Gravity "maybe"]\n\nb2 *\n', InvalidPositionError, 2, "yes"),
    ('[Game "ultimate"]\n[Rows "3"]\n\ne5 *\n', InvalidPositionError, 2, "but tag Rows is given"),
    ('[Game "classic"]\n[Start "xxx/.../... k=3"]\n\nb2 *\n', InvalidPositionError, 2, "Start"),
    ('[Game "classic"]\n[K "4"]\n[Start "x.o/.x./... k=3"]\n\nb2 *\n', InvalidPositionError, 2, "Start position has"),
    ('[Game "classic"]\n[X "a"]\n[X "b"]\n\nb2 *\n', InvalidPositionError, 3, "twice"),
    ('[Game "classic"]\n[Result "2-0"]\n\nb2 *\n', InvalidPositionError, 2, "Result"),
    ('[Game "classic"]\n[Result "1-0"]\n\nb2 a1\n0-1\n', InvalidPositionError, 5, "Result tag"),
    ('[Game "classic"]\n\nb2 a1 a2 b1\nb2 *\n', IllegalMoveError, 4, "occupied"),
    ('[Game "classic"]\n\nb2\n{ fine }\nzz *\n', InvalidMoveError, 5, "zz"),
    ('[Game "ultimate"]\n\ne5 a1 *\n', IllegalMoveError, 3, "a1"),
    ('[Game "quantum"]\n\na1-b2 a1-b2 c1-c2 *\n', IllegalMoveError, 3, "c1-c2"),
    ('[Game "classic"]\n\na1 b1 a2 b2 a3 b3 *\n', IllegalMoveError, 3, "b3"),  # the game was over
    ('[Game "classic"]\n\na1 b1 a2 b2 a3\n0-1\n', InvalidPositionError, 4, "1-0"),
    ('[Game "classic"]\n[Result "*"]\n\na1 b1 a2 b2 a3\n', InvalidPositionError, 2, "1-0"),
    ('[Game "classic"]\n\nb2 {never closed\n*\n', InvalidPositionError, 3, "never closed"),
    ('[Game "classic"]\n\nb2 ] *\n', InvalidPositionError, 3, "unexpected"),
    ('1-0 *\n\nb2 a1 "c3" *\n', InvalidPositionError, 3, "unexpected"),
]


@pytest.mark.parametrize("text, error, line, words", MALFORMED)
def test_malformed_records(text: str, error: type[Exception], line: int, words: str) -> None:
    with pytest.raises(error, match=f"^line {line}: .*{words}") as info:
        parse_records(text)
    assert isinstance(info.value, noughts.Error) and isinstance(info.value, ValueError)


def test_a_bad_game_after_good_ones_names_its_own_line(tmp_path) -> None:
    good = Record.from_game(play_randomly(Classic(), random.Random(4))).to_text()
    path = tmp_path / "bad.txt"
    path.write_text(good + "\n" + good.replace('[Rows "3"]', '[Rows "x"]'))
    with pytest.raises(InvalidPositionError, match=f"^line {good.count(chr(10)) + 3}:"):
        read_records(path)


def test_record_from_text_wants_exactly_one() -> None:
    with pytest.raises(InvalidPositionError):
        Record.from_text("")
    with pytest.raises(InvalidPositionError):
        Record.from_text("b2 *\na1 *\n")
