"""The single-file CodinGame bot: it compiles alone and plays whole games over the protocol."""

import shutil
import subprocess

import noughts
import pytest
from noughts.arena import Limits, ProgramEngine, SearchEngine, play_game
from noughts.export import CODINGAME_FLAGS, codingame_source


def test_the_source_fits_codingame_and_carries_the_network():
    source = codingame_source()
    assert len(source) < 100_000  # CodinGame's limit on a bot's source, in characters
    assert "kPacked" in source and "evaluate_moves" in source


def test_the_packed_weights_are_the_headers_to_12_bits():
    """The bot's weights, unpacked as its C++ does, against the header's decimal text."""
    import re
    from pathlib import Path

    from noughts import _amalgamate

    header = Path(__file__).resolve().parents[1] / "cpp/include/noughts/ultimate_eval_weights.hpp"
    if not header.exists():
        pytest.skip("needs the source tree")
    text = header.read_text()
    packed = _amalgamate.packed_weights(text)
    networks = _amalgamate.network_arrays(text)
    assert len(networks) == 2
    for r, arrays in enumerate(networks):
        chars = re.search(rf'kPacked{r}\[\] = u"([^"]*)"', packed).group(1)
        # One UTF-16 unit a character, never a quote or backslash: CodinGame counts them as one each.
        assert all(0x4E00 <= ord(c) < 0x4E00 + (1 << 14) for c in chars)
        # The bit stream read independently: 14 bits a character, 12 a number, offset by 2048.
        stream = "".join(format(ord(c) - 0x4E00, "014b") for c in chars)
        count = sum(len(a) for a in arrays)
        assert len(stream) - 12 * count < 14  # no more characters than the numbers need
        values = [int(stream[12 * i : 12 * i + 12], 2) - 2048 for i in range(count)]
        assert all(-2047 <= v <= 2047 for v in values)
        block = packed[packed.index(f"if (*kPacked{r})") :]
        scales = [float(v) for v in re.search(r"scales\[\] = \{([^}]*)\}", block).group(1).replace("f", "").split(",")]
        at = 0
        for original, scale in zip(arrays, scales, strict=True):
            unpacked = [v * scale for v in values[at : at + len(original)]]
            at += len(original)
            assert max(abs(a - b) for a, b in zip(original, unpacked, strict=True)) <= scale / 2 + 1e-12
        assert at == len(values)
    # The header's decimal text is read independently of the packer: the first input weight.
    first = float(re.search(r"kInput[^=]*=\s*\{\s*\{\s*\{(-?[\d.e+-]+)f", text).group(1))
    assert networks[0][0][0] == first


def test_packing_round_trips_every_number():
    from noughts import _amalgamate

    steps = list(range(-2047, 2048)) + [0, -2047, 2047]
    for n in (1, 2, 6, 7, 8, len(steps)):
        assert _amalgamate.unpacked_numbers(_amalgamate.packed_numbers(steps[:n]), n) == steps[:n]
    with pytest.raises(ValueError, match="2047"):
        _amalgamate.packed_numbers([2048])


@pytest.mark.parametrize("tiebreak", [True, False])
def test_the_bot_carries_only_the_network_of_its_rules(tiebreak):
    import re

    source = codingame_source(tiebreak=tiebreak)
    played, unused = (1, 0) if tiebreak else (0, 1)
    assert re.search(rf'kPacked{unused}\[\] = u"";', source)
    assert len(re.search(rf'kPacked{played}\[\] = u"([^"]*)";', source).group(1)) > 1000


def test_bad_settings_are_refused():
    with pytest.raises(noughts.InvalidOptionError, match="ms must be"):
        codingame_source(ms=0)
    with pytest.raises(noughts.InvalidOptionError, match="tiebreak"):
        codingame_source(tiebreak="yes")


#: The documented command, and CodinGame's own (no optimisation flag: the file asks for it).
BUILDS = {"documented": ["g++", "-std=c++20", "-O2"], "codingame": ["g++", *CODINGAME_FLAGS]}


@pytest.fixture(scope="module", params=sorted(BUILDS))
def bot_binary(request, tmp_path_factory):
    """The exported bot, built with one command."""
    if shutil.which("g++") is None:
        pytest.skip("needs g++")
    folder = tmp_path_factory.mktemp("bot")
    source = folder / "bot.cpp"
    source.write_text(codingame_source(ms=20, first_ms=60, margin_ms=5))
    assert '#include "noughts/' not in source.read_text()  # one file: nothing left to find
    binary = folder / "bot"
    command = [*BUILDS[request.param], "-o", str(binary), str(source), "-lm", "-lpthread", "-ldl"]
    subprocess.run(command, check=True, timeout=600)
    return binary


def test_the_bot_builds_with_one_command_and_plays_legal_games(bot_binary):
    bot = ProgramEngine([str(bot_binary)], name="bot")
    mcts = SearchEngine("noughts", iterations=300)
    generous = Limits(turn_ms=5000, first_turn_ms=5000)
    for x, o in ((bot, mcts), (mcts, bot)):
        result = play_game(x, o, noughts.Ultimate(tiebreak=True), generous)
        assert result.forfeit is None, result.forfeit
        assert result.termination in ("line", "more_boards", "full_board")
        replay = noughts.Ultimate(tiebreak=True)
        for move in result.moves:
            replay.play(move)  # every move the bot sent was legal
        assert replay.is_over()
    # The bot played O in the last game and said how many iterations each search ran (0 once
    # the kept tree has proven the position).
    assert len(result.iterations[1]) == len(result.think_ms[1]) and result.iterations[1][0] > 0


def test_the_bot_refuses_an_illegal_opponent_move(bot_binary):
    out = subprocess.run(
        [str(bot_binary)], input="4 4\n1\n0 0\n4 4\n1\n3 3\n", capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 2 and "not legal" in out.stderr
