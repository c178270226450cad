"""noughts.levels (the computer's playing levels) and the ``noughts serve`` command line."""

from __future__ import annotations

import noughts
import pytest
from noughts.levels import LEVELS, MAX_SECONDS, choose_move


def test_the_levels_weakest_first():
    assert LEVELS == ("easy", "medium", "hard") and MAX_SECONDS > 0


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("game", [noughts.Classic(4, 4, gravity=True), noughts.Ultimate(), noughts.Quantum()])
def test_every_level_plays_a_legal_move_in_every_game(game, level):
    game = game.copy()
    game.play(game.legal_moves()[0])
    move = choose_move(game, level, seed=3)
    assert isinstance(move, noughts.Move) and move in game.legal_moves()


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_the_stronger_levels_take_a_win_in_one(level):
    game = noughts.Classic()
    for move in ["a1", "a2", "b1", "b2"]:
        game.play(move)
    assert choose_move(game, level, seed=1).name == "c1"


def test_a_quantum_collapse_choice_is_a_move_like_any_other():
    game = noughts.Quantum()
    game.play("a1-b2")
    game.play("a1-b2")
    assert choose_move(game, "easy", seed=5).name in ("@a1", "@b2")


def test_a_seed_repeats_the_choice_and_no_seed_varies_it():
    game = noughts.Ultimate()
    assert len({choose_move(game, "easy", seed=11).name for _ in range(3)}) == 1
    assert len({choose_move(game, "easy").name for _ in range(30)}) > 1


@pytest.mark.parametrize("level", ["expert", "Easy", "", None, 1])
def test_an_unknown_level_is_refused_with_the_levels(level):
    with pytest.raises(noughts.InvalidOptionError, match="the levels are easy, medium, hard"):
        choose_move(noughts.Classic(), level)


def test_bad_seed_and_finished_game():
    with pytest.raises(noughts.InvalidOptionError, match="seed"):
        choose_move(noughts.Classic(), "easy", seed="1")
    game = noughts.Classic()
    for move in ["a1", "a2", "b1", "b2", "c1"]:
        game.play(move)
    with pytest.raises(noughts.IllegalMoveError, match="over"):
        choose_move(game, "hard")


def test_the_serve_command_takes_host_port_and_db(monkeypatch, tmp_path):
    pytest.importorskip("starlette", reason="the serve extra (Starlette) is not installed")
    import noughts.serve
    from noughts import cli

    calls = []

    def run(host, port, db, tables_per_client):
        calls.append((host, port, db, tables_per_client))

    monkeypatch.setattr(noughts.serve, "run", run)
    db = str(tmp_path / "x.sqlite3")
    assert cli.main(["serve", "--host", "0.0.0.0", "--port", "8123", "--db", db, "--max-tables", "5"]) == 0
    assert calls == [("0.0.0.0", 8123, db, 5)]
    assert cli.main(["serve"]) == 0
    assert calls[-1] == ("127.0.0.1", 8000, None, 30)


def test_the_default_database_is_in_the_users_data_dir(monkeypatch, tmp_path):
    from noughts.serve import default_db_path

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_db_path() == tmp_path / "noughts" / "serve.sqlite3"
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert default_db_path() == tmp_path / ".local" / "share" / "noughts" / "serve.sqlite3"
