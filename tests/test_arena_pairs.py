"""Two matches against one opponent compared game by game (noughts.arena_pairs, docs/arena.md)."""

import math
import random
import statistics
import subprocess
import sys
from pathlib import Path

import pytest
from noughts import InvalidOptionError, Ultimate
from noughts.arena import GameResult, Limits, SearchEngine, run_match
from noughts.arena_pairs import compare_matches, read_games

ARENA = Path(__file__).resolve().parents[1] / "benchmarks" / "arena.py"


def play(tested_iterations, seed, games=6):
    """A real match of a tested engine against a fixed opponent; its games as run_match gives them."""
    records = []
    run_match(
        SearchEngine(f"tested{tested_iterations}", iterations=tested_iterations),
        SearchEngine("opponent", iterations=60),
        Ultimate,
        games,
        seed=seed,
        limits=Limits(forfeit_late=False),
        on_game=lambda i, result, summary: records.append(result),
    )
    return records


def made_up(tested, results, openings):
    """Games as run_match schedules them (the tested engine is X in even games) with given results."""
    games = []
    for i, (result, opening) in enumerate(zip(results, openings)):
        x_is_tested = i % 2 == 0
        winner = None if result == 0.5 else ("X" if (result == 1) == x_is_tested else "O")
        x, o = (tested, "bot") if x_is_tested else ("bot", tested)
        games.append(GameResult.from_dict({"x": x, "o": o, "opening": opening, "winner": winner}))
    return games


def test_the_difference_is_the_mean_of_the_pairs_differences():
    rng = random.Random(3)
    n = 40
    openings = [[rng.randrange(81)] for _ in range(n // 2) for _ in (0, 1)]
    first = [rng.choice([0, 0.5, 1]) for _ in range(n)]
    second = [rng.choice([0, 0.5, 1]) for _ in range(n)]
    c = compare_matches(made_up("old", first, openings), made_up("new", second, openings))
    assert (c.first, c.second, c.opponent, c.pairs) == ("old", "new", "bot", n)
    assert c.first_scores == tuple(first) and c.second_scores == tuple(second)
    diffs = [b - a for a, b in zip(first, second)]
    mean, low, high = c.difference
    half = 1.96 * statistics.stdev(diffs) / math.sqrt(n)
    assert mean == pytest.approx(statistics.mean(diffs))
    assert (low, high) == pytest.approx((mean - half, mean + half))


def test_real_matches_on_the_same_openings_pair_up():
    weak, strong = play(20, seed=5), play(400, seed=5)
    c = compare_matches(weak, strong)
    assert c.pairs == len(weak) == 6
    assert (c.first, c.second, c.opponent) == ("tested20", "tested400", "opponent")
    itself = compare_matches(weak, weak)
    assert itself.difference[0] == 0 and itself.difference[1:] == (0, 0)
    assert "difference, second - first: +0.0 points" in itself.report()


def test_matches_on_other_openings_are_refused():
    with pytest.raises(InvalidOptionError, match="game 0 started from another opening"):
        compare_matches(play(20, seed=5, games=2), play(20, seed=6, games=2))


def test_the_comparison_stops_where_the_shorter_match_stopped():
    openings = [[i // 2] for i in range(10)]
    c = compare_matches(made_up("a", [1] * 10, openings), made_up("b", [0] * 4, openings[:4]))
    assert c.pairs == 4 and c.difference[0] == -1


def test_a_match_between_two_engines_of_one_name_is_refused():
    games = [GameResult.from_dict({"x": "bot", "o": "bot", "opening": [], "winner": None})]
    with pytest.raises(InvalidOptionError, match="name them"):
        compare_matches(games, games)
    with pytest.raises(InvalidOptionError, match="needs games"):
        compare_matches([], games)


def test_a_match_whose_tested_engine_changes_is_refused():
    games = [
        GameResult.from_dict({"x": "a", "o": "bot", "opening": [], "winner": None}),
        GameResult.from_dict({"x": "c", "o": "bot", "opening": [], "winner": None}),
    ]
    with pytest.raises(InvalidOptionError, match="without 'a'"):
        compare_matches(games, games)


def test_a_game_reads_back_as_it_was_written():
    (game,) = play(20, seed=7, games=1)
    again = GameResult.from_json(game.to_json())
    assert again.to_json() == game.to_json()
    assert again.score_for(True) == game.score_for(True)


@pytest.mark.parametrize(
    "line, message",
    [
        ("{not json", "not a JSON game"),
        ("[1, 2]", "not an arena game"),
        ('{"x": "a", "o": "bot", "opening": []}', "needs o, opening, winner, x"),
        ('{"x": "a", "o": "bot", "opening": [], "winner": "Z"}', "winner must be"),
        ('{"x": "a", "o": "bot", "opening": "e5", "winner": null}', "wrong shape"),
        ('{"x": "a", "o": "bot", "opening": [], "winner": "X", "forfeit": ["Q", "late"]}', "wrong shape"),
    ],
)
def test_what_is_not_a_game_gets_a_clear_error(line, message):
    with pytest.raises(InvalidOptionError, match=message):
        GameResult.from_json(line)


def test_the_command_line_compares_two_files(tmp_path):
    first, second, broken = tmp_path / "a.jsonl", tmp_path / "b.jsonl", tmp_path / "c.jsonl"
    openings = [[i // 2] for i in range(8)]
    first.write_text("".join(g.to_json() + "\n" for g in made_up("old", [0.5] * 8, openings)))
    second.write_text("".join(g.to_json() + "\n" for g in made_up("new", [1] * 8, openings)))
    broken.write_text("{not json\n")
    assert len(read_games(first)) == 8
    out = subprocess.run([sys.executable, ARENA, "--compare", first, second], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert "second new: 100.0 %" in out.stdout and "+50.0 points" in out.stdout
    bad = subprocess.run([sys.executable, ARENA, "--compare", first, broken], capture_output=True, text=True)
    assert bad.returncode == 2 and "line 1: not a JSON game" in bad.stderr and "Traceback" not in bad.stderr
