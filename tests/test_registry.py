"""The one registry of games: every place that builds or names games reads the same descriptors."""

import argparse

import noughts
import pytest
from noughts import _core
from noughts.cli import _add_game_arguments, _make_game
from noughts.engine import Engine
from noughts.records import Record
from noughts.registry import GAME_INFO, game_info, info_of, make_game


def test_each_descriptor_names_its_classes_and_options():
    assert list(GAME_INFO) == ["classic", "ultimate", "quantum"]
    for name, info in GAME_INFO.items():
        game = info.cls()
        assert info.name == name and info_of(game) is info and info_of(info.cls) is info
        assert isinstance(game, info.core) and getattr(_core, info.core.__name__) is info.core
        assert set(game.options()) <= {o.name for o in info.options}
        assert make_game(name.upper()) == game
        assert type(noughts.MCTS(seed=1).search(game, iterations=50).best_move) is noughts.Move
        assert noughts.VectorGame(name, 2).game(0) == game
    assert info_of(object()) is None and info_of(int) is None


def test_unknown_games_and_options_are_refused():
    with pytest.raises(noughts.InvalidOptionError, match="the games are classic, ultimate, quantum"):
        game_info("chess")
    with pytest.raises(noughts.InvalidOptionError, match="takes no options"):
        make_game("quantum", rows=4)
    with pytest.raises(noughts.InvalidOptionError, match="MCTS searches noughts games"):
        noughts.MCTS(seed=1).search(object(), iterations=10)


def test_records_write_and_read_every_option_as_its_tag():
    options = {"rows": 4, "cols": 5, "k": 3, "misere": True, "free_choice": True, "gravity": True}
    game = make_game("classic", **options)
    record = Record.from_game(game)
    for option in GAME_INFO["classic"].options:
        assert option.tag in record.headers
    assert Record.from_text(record.to_text()).game.options() == options


def test_the_engine_speaks_every_option_by_its_word():
    out: list[str] = []
    engine = Engine(out.append)
    engine.handle("noughts")
    assert "id games classic ultimate quantum" in out
    words = " ".join(o.word if o.is_flag else f"{o.word}=4" for o in GAME_INFO["classic"].options)
    engine.handle(f"game classic {words}")
    assert engine.game.options() == {"rows": 4, "cols": 4, "k": 4, "misere": True, "free_choice": True, "gravity": True}
    engine.handle("game ultimate misere")
    assert out[-1].startswith("error")


def test_the_command_line_offers_every_option():
    parser = argparse.ArgumentParser()
    _add_game_arguments(parser)
    args = parser.parse_args(["classic", "--rows", "4", "--cols", "5", "-k", "3", "--misere", "--free", "--gravity"])
    assert (
        _make_game(args).options()
        == GAME_INFO["classic"].cls(4, 5, 3, misere=True, free_choice=True, gravity=True).options()
    )
    # An InvalidOptionError: the command line prints it and exits with status 2 (docs/cli.md).
    with pytest.raises(noughts.InvalidOptionError, match="ultimate takes no --gravity"):
        _make_game(parser.parse_args(["ultimate", "--gravity"]))


def test_ultimate_tiebreak_goes_through_records_the_engine_and_openspiel_parameters():
    game = make_game("ultimate", tiebreak=True)
    record = Record.from_game(game)
    assert record.headers["Tiebreak"] == "yes" and "Start" not in record.headers
    assert Record.from_text(record.to_text()).game.options() == {"tiebreak": True}
    assert Record.from_game(make_game("ultimate")).headers["Tiebreak"] == "no"
    out: list[str] = []
    engine = Engine(out.append)
    engine.handle("game ultimate tiebreak")
    assert engine.game.options() == {"tiebreak": True}
    from noughts.openspiel import _from_params, _parameters

    info = GAME_INFO["ultimate"]
    assert _parameters(info) == {"tiebreak": False}
    assert _from_params(info, {"tiebreak": True}).tiebreak
