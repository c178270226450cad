"""Fuzzing every parser and input path against its documented contract.

Each target feeds random or mutated input to one entry point and checks:
either it succeeds (and then the result is consistent: it round-trips,
parses back, is in range), or it raises an exception that is a
``noughts.Error`` *and* a ``ValueError``, never another type; it never
crashes or hangs; and a rejected input leaves the game (the engine, the
batch of games) unchanged.

The targets are ordinary hypothesis tests: the project's ``ci`` profile
(tests/conftest.py: 100 derandomized examples each) runs them in CI, and
``scripts/fuzz.py`` runs the same functions for 100,000 cases or more.
``COUNTS`` counts the examples each target ran, per game.

The ``test_regression_*`` tests at the end pin the bugs the fuzzing found
(see docs/hardening.md). While a bug is open, ``scripts/fuzz.py
--tolerate-known`` (environment ``NOUGHTS_FUZZ_TOLERATE_KNOWN=1``) counts its
signature as "known" instead of failing, so a long campaign can look for new
bugs past it; CI never tolerates them.
"""

from __future__ import annotations

import collections
import io
import math
import os
import random
import re
import shlex
import subprocess
import sys
import threading
import time
import traceback
import xml.etree.ElementTree as ET
from collections.abc import Callable
from decimal import Decimal
from fractions import Fraction
from typing import Any

import noughts
import numpy as np
import pytest
from game_choices import random_game
from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st
from noughts import Classic, Quantum, Record, Ultimate
from noughts.codingame import id_to_grid
from noughts.engine import Engine
from noughts.records import parse_records

# Examples run per target ("target" or "target/game"): scripts/fuzz.py prints them.
COUNTS: collections.Counter[str] = collections.Counter()
# Known bugs met while tolerating them: bug id -> count.
KNOWN: collections.Counter[str] = collections.Counter()
TOLERATE_KNOWN = os.environ.get("NOUGHTS_FUZZ_TOLERATE_KNOWN") == "1"

# Slow targets (engine, searches) may take a while per example; the profile's other settings stay.
slow = settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def _hit(target: str, game: Any = None) -> None:
    COUNTS[target] += 1
    if game is not None:
        COUNTS[f"{target}/{family(game)}"] += 1


# ---------------------------------------------------------------------------
# Games
# ---------------------------------------------------------------------------
CLASSIC_OPTIONS: list[dict[str, Any]] = [
    {},
    {"misere": True},
    {"free_choice": True},
    {"gravity": True},
    {"rows": 4, "cols": 4, "k": 3, "misere": True},
    {"rows": 6, "cols": 7, "k": 4, "gravity": True},
    {"rows": 5, "cols": 5, "k": 4, "misere": True, "free_choice": True, "gravity": True},
    {"rows": 1, "cols": 1},
    {"rows": 8, "cols": 8},
    {"rows": 2, "cols": 32, "k": 2},
]
FACTORIES: list[Callable[[], Any]] = [(lambda o=o: Classic(**o)) for o in CLASSIC_OPTIONS] + [Ultimate, Quantum]
CLASSES = (Classic, Ultimate, Quantum)


def family(game: Any) -> str:
    return type(game).__name__.lower()


def snapshot(game: Any) -> tuple[Any, ...]:
    return (type(game), game.to_string(), list(game.move_ids), game.start_string())


@st.composite
def games(draw: Any, factories: list[Callable[[], Any]] | None = None, max_plies: int = 90) -> Any:
    if factories is None:  # the three games equally often, then one of Classic's option sets
        factories = draw(st.sampled_from([FACTORIES[:-2], [Ultimate], [Quantum]]))
    factory = draw(st.sampled_from(factories))
    return random_game(factory, draw(st.integers(0, 2**32 - 1)), draw(st.integers(0, max_plies)))


@st.composite
def games_with_start(draw: Any) -> Any:
    """A game whose history starts from a position string (as read from a record's Start tag)."""
    game = draw(games())
    if draw(st.booleans()):
        return game
    position = game.to_string()
    return random_game(
        lambda: type(game).from_string(position), draw(st.integers(0, 2**32 - 1)), draw(st.integers(0, 10))
    )


# ---------------------------------------------------------------------------
# Text: full unicode (lone surrogates included), bytes decoded, notation-like text, mutations
# ---------------------------------------------------------------------------
WEIRD = (
    "\x00\t\x0b\x0c\x1c\x1d\x1e\x1f\x7f\x85\xa0\u1680\u2000\u2028\u2029\u3000\ufeff\ufffe\uffff"
    "\ud800\udbff\udc80\udcff\udfff"  # lone surrogates: what surrogateescape makes of bad bytes
    "\u0663\u00b2\u00b3\u00b9\u2460\u216b\uff10\uff11\uff41\u0e51"  # digits and letters of other scripts
    "\u00e9\u0301\u00df\u0130\u0131\u212a\U0001f389"
)
NOTATION = "abcdefghijklmnopqrstuvwxyzABCDEFGHIOX0123456789-@=/.:k "
STRUCTURE = ["{", "}", ";", "[", "]", '"', "\\", "\n", "1.", "12...", "1-0", "0-1", "1/2-1/2", "*", "=", "/", "-", "@"]
any_char = st.characters(exclude_categories=())  # every code point, surrogates too

texts = st.one_of(
    st.text(any_char, max_size=40),
    st.binary(max_size=40).map(lambda b: b.decode("utf-8", "surrogateescape")),
    st.binary(max_size=40).map(lambda b: b.decode("latin-1")),
    st.text(st.sampled_from(NOTATION), max_size=12),
    st.text(st.sampled_from(NOTATION + WEIRD), max_size=12),
)
numbers_text = st.one_of(
    st.integers(-(2**70), 2**70).map(str),
    st.sampled_from(["2147483647", "2147483648", "4294967296", "18446744073709551616", "-1", "0", "00", "1e3", "+5"]),
)
payloads = st.one_of(
    st.sampled_from(list(WEIRD) + list(NOTATION) + STRUCTURE),
    any_char,
    numbers_text,
    st.text(any_char, min_size=2, max_size=6),
)
MUTATIONS = ("replace", "insert", "delete", "bitflip", "duplicate", "number", "case", "truncate", "swap")
edits = st.lists(st.tuples(st.sampled_from(MUTATIONS), st.integers(0, 2**16), payloads), min_size=1, max_size=5)


def mutate(base: str, changes: list[tuple[str, int, str]]) -> str:
    """Applies edits to a string; positions wrap around its length."""
    s = base
    for op, pos, payload in changes:
        n = len(s)
        i = pos % (n + 1)
        j = (pos // 7) % (n + 1)
        if op == "replace" and n:
            i %= n
            s = s[:i] + payload + s[i + 1 :]
        elif op == "insert":
            s = s[:i] + payload + s[i:]
        elif op == "delete" and n:
            s = s[:i] + s[i + 1 + pos % 3 :]
        elif op == "bitflip" and n:
            i %= n
            s = s[:i] + chr(ord(s[i]) ^ (1 << (pos % 8))) + s[i + 1 :]
        elif op == "duplicate" and n:
            s = s[:i] + s[j : j + 1 + pos % 9] + s[i:]
        elif op == "number":
            m = re.compile(r"\d+").search(s, i) or re.compile(r"\d+").search(s)
            s = s[: m.start()] + payload + s[m.end() :] if m else s + payload
        elif op == "case" and n:
            i %= n
            s = s[:i] + s[i].swapcase() + s[i + 1 :]
        elif op == "truncate":
            s = s[:i]
        elif op == "swap" and n:
            a, b = sorted((i % n, j % n))
            s = s[:a] + s[b] + s[a + 1 : b] + s[a] + s[b + 1 :] if a != b else s
    return s


# ---------------------------------------------------------------------------
# The contract, and the signatures of the known bugs
# ---------------------------------------------------------------------------
def _has_surrogate(text: str) -> bool:
    return any(0xD800 <= ord(ch) <= 0xDFFF for ch in text)


def _xml_illegal(text: str) -> bool:
    return any(
        (ord(ch) < 0x20 and ch not in "\t\n\r") or 0xD800 <= ord(ch) <= 0xDFFF or ch in "\ufffe\uffff" for ch in text
    )


def _flat(inputs: tuple[Any, ...]) -> str:
    return " ".join(x if isinstance(x, str) else repr(x) for x in inputs)


def known_bug(error: BaseException, inputs: tuple[Any, ...]) -> str | None:
    """Which known bug (docs/hardening.md) explains an exception of the wrong type, if any."""
    text = _flat(inputs)
    message = str(error)
    if isinstance(error, (TypeError, RuntimeError, UnicodeError)) and _has_surrogate(text):
        return "B1-surrogates"
    if isinstance(error, TypeError) and "incompatible" in message and re.search(r"\d{10}", text):
        return "B2-B4-big-int"
    if type(error) is ValueError and "invalid literal for int()" in message:
        return "B3-unicode-digits"
    return None


def wrong_type(error: BaseException, what: str) -> AssertionError:
    """An AssertionError saying which call broke the contract, with the traceback as text."""
    text = "".join(traceback.format_exception(error)).rstrip()
    return AssertionError(f"{what} raised {type(error).__name__}, not a noughts.Error and ValueError:\n{text}")


def count_known_bug(error: BaseException, inputs: tuple[Any, ...], what: str) -> None:
    """Counts a tolerated known bug in KNOWN; any other wrong exception fails the test."""
    bug = known_bug(error, inputs)
    if not (TOLERATE_KNOWN and bug):
        raise wrong_type(error, what) from None
    KNOWN[bug] += 1


def expect_contract(call: Callable[[], Any], *games: Any, inputs: tuple[Any, ...] = ()) -> tuple[bool, Any]:
    """(True, result) on success; (False, error) when `call` raised a noughts.Error that is a ValueError.

    Any other exception fails the test, unless it is a tolerated known bug:
    then the example is dropped (hypothesis.reject) and counted in KNOWN.
    A rejected call must leave every game in `games` as it was.
    """
    before = [snapshot(g) for g in games]
    try:
        return True, call()
    except noughts.Error as e:
        assert isinstance(e, ValueError), f"{type(e).__name__} is a noughts.Error but not a ValueError: {e}"
        assert str(e), "an error without a message"
        error: BaseException = e
    except Exception as e:
        count_known_bug(e, inputs, f"the call with {inputs!r}")
        assert [snapshot(g) for g in games] == before, "a rejected input changed the game"
        reject()  # a known bug: this example says nothing more
    assert [snapshot(g) for g in games] == before, "a rejected input changed the game"
    return False, error


# ---------------------------------------------------------------------------
# Move notation: game.play(text), game.parse_move(text), is_legal, move_name
# ---------------------------------------------------------------------------
@st.composite
def move_texts(draw: Any, game: Any) -> str:
    kind = draw(st.integers(0, 3))
    if kind == 0:
        return draw(texts)
    names = [m.name for m in game.legal_moves()] or ["a1"]
    if kind == 1:
        return draw(st.sampled_from(names))
    if kind == 2:
        name = game.move_name(draw(st.integers(0, game.num_actions - 1)))
    else:
        name = draw(st.sampled_from(names))
    return mutate(name, draw(edits))


def check_move_text(game: Any, text: str) -> None:
    legal = game.legal_actions()
    parsed, move = expect_contract(lambda: game.parse_move(text), game, inputs=(text,))
    if parsed:
        assert isinstance(move, int) and 0 <= move < game.num_actions, (text, move)
        assert game.parse_move(game.move_name(move)) == move
    ok, is_legal = expect_contract(lambda: game.is_legal(text), game, inputs=(text,))
    if ok:  # is_legal answers, never raises
        assert is_legal == (parsed and move in legal), (text, is_legal)
    played, error = expect_contract(lambda: game.play(text), game, inputs=(text,))
    if played:
        assert parsed and move in legal and game.move_ids[-1] == move, text
        game.undo()
    elif isinstance(error, noughts.Error):
        assert not (parsed and move in legal), f"a legal move {text!r} was refused: {error}"
        if parsed:
            assert isinstance(error, noughts.IllegalMoveError), (text, error)


@given(st.data())
def test_move_text(data: Any) -> None:
    game = data.draw(games())
    _hit("move_text", game)
    for _ in range(data.draw(st.integers(1, 4))):
        check_move_text(game, data.draw(move_texts(game)))


# ---------------------------------------------------------------------------
# Move ids: any int (huge, negative), numpy integers, Move objects, other types
# ---------------------------------------------------------------------------
INT_DTYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64, np.intc, np.longlong]


@st.composite
def move_ids(draw: Any, num_actions: int) -> Any:
    kind = draw(st.integers(0, 9))
    if kind <= 3:  # mostly near the id space, so that sequences go somewhere
        return draw(st.integers(-3, num_actions + 3))
    if kind == 4:
        return draw(st.integers())
    if kind == 5:
        return draw(st.integers(-(2**80), 2**80))
    if kind == 6:
        dtype = draw(st.sampled_from(INT_DTYPES))
        info = np.iinfo(dtype)
        return dtype(draw(st.integers(int(info.min), int(info.max))))
    if kind == 7:
        dtype = draw(st.sampled_from(INT_DTYPES))
        return dtype(draw(st.integers(0, min(num_actions + 3, int(np.iinfo(dtype).max)))))
    if kind == 8:
        return noughts.Move(draw(st.integers(-2, num_actions + 2)), draw(texts))
    return draw(
        st.sampled_from(
            [True, False, np.True_, 1.0, float("nan"), None, b"a1", [0], 1 + 0j, Decimal(1), Fraction(1), np.float64(2)]
        )
    )


def _id_value(move: Any, game: Any) -> int | None:
    """The id a move object stands for, or None if it is not an integer id at all (or a Move whose
    name is not its id's in this game: refused, docs/guide.md)."""
    if isinstance(move, (bool, np.bool_)) or not hasattr(move, "__index__"):
        return None
    value = int(move.__index__())
    if isinstance(move, noughts.Move) and 0 <= value < game.num_actions and move.name != game.move_name(value):
        return None
    return value


@given(st.data())
def test_move_ids(data: Any) -> None:
    game = data.draw(games(max_plies=40))
    _hit("move_ids", game)
    for _ in range(data.draw(st.integers(1, 30))):
        move = data.draw(move_ids(game.num_actions))
        value = _id_value(move, game)
        legal = game.legal_actions()
        ok, is_legal = expect_contract(lambda: game.is_legal(move), game, inputs=(move,))
        assert ok and is_legal == (value in legal), (move, is_legal)
        named, name = expect_contract(lambda: game.move_name(move), game, inputs=(move,))
        if named:
            assert value is not None and 0 <= value < game.num_actions and game.parse_move(name) == value
        played, _ = expect_contract(lambda: game.play(move), game, inputs=(move,))
        assert played == (value in legal), (move, legal)
        if played:
            assert game.move_ids[-1] == value


# ---------------------------------------------------------------------------
# VectorGame.step: random action arrays of every dtype and shape
# ---------------------------------------------------------------------------
@st.composite
def action_arrays(draw: Any, env: noughts.VectorGame) -> Any:
    n, kind = env.n, draw(st.integers(0, 7))
    if kind <= 2:  # legal actions, maybe with one entry changed
        a = env.random_actions()
        if kind > 0:
            a[draw(st.integers(0, n - 1))] = draw(st.integers(-(2**63), 2**63 - 1))
        dtype = draw(st.sampled_from(INT_DTYPES))
        return a.astype(dtype) if kind == 0 and np.all(a <= np.iinfo(dtype).max) else a
    if kind == 3:  # any integers of any integer dtype
        dtype = draw(st.sampled_from(INT_DTYPES))
        info = np.iinfo(dtype)
        return np.array(draw(st.lists(st.integers(int(info.min), int(info.max)), min_size=n, max_size=n)), dtype=dtype)
    if kind == 4:  # Python ints, maybe huge (an object array), or a plain list
        values = draw(st.lists(st.integers(-(2**70), 2**70) | st.integers(-2, env.num_actions), min_size=n, max_size=n))
        return values if draw(st.booleans()) else np.array(values, dtype=object)
    if kind == 5:  # a wrong shape
        shape = draw(st.sampled_from([(), (0,), (n + 1,), (n, 1), (1, n), (2, n)]))
        return np.zeros(shape, dtype=np.int64)
    if kind == 6:  # not integers
        return draw(
            st.sampled_from(
                [
                    np.zeros(n, dtype=np.float64),
                    np.zeros(n, dtype=bool),
                    np.array(["a1"] * n),
                    np.full(n, np.nan),
                    np.zeros(n, dtype=np.complex64),
                    "a1",
                    None,
                ]
            )
        )
    return env.random_actions()[::-1].copy()  # legal moves of other games: often illegal


def env_snapshot(env: noughts.VectorGame) -> list[str]:
    return [env.game(i).to_string() for i in range(env.n)]


@slow
@given(st.data())
def test_vector_step(data: Any) -> None:
    factory = data.draw(st.sampled_from(FACTORIES[:1] + FACTORIES[3:4] + FACTORIES[5:6] + FACTORIES[-2:]))
    env = noughts.VectorGame(factory(), data.draw(st.integers(1, 4)), seed=data.draw(st.integers(0, 2**64 - 1)))
    _hit("vector_step", factory())
    env.reset()
    for _ in range(data.draw(st.integers(1, 12))):
        actions = data.draw(action_arrays(env))
        before = env_snapshot(env)
        legal = [set(env.game(i).legal_actions()) for i in range(env.n)]
        a = np.asarray(actions)
        valid = (
            a.dtype.kind in "iu"
            and a.shape == (env.n,)
            and all(int(v) in legal[i] for i, v in enumerate(a.astype(np.int64)))  # as step() reads them
        )
        ok, result = expect_contract(lambda: env.step(actions), inputs=(actions,))
        if not ok:
            assert env_snapshot(env) == before, "a rejected step changed a game"
        assert ok == valid, (actions, result)
        if ok:
            assert result.observations.shape == (env.n, *env.observation_shape)
            assert set(np.unique(result.rewards)) <= {-1.0, 0.0, 1.0}
            assert result.action_masks.shape == (env.n, env.num_actions)
            for i in range(env.n):
                assert result.action_masks[i].any(), "a game after auto-reset has no legal move"


# ---------------------------------------------------------------------------
# Position strings: Classic/Ultimate/Quantum.from_string
# ---------------------------------------------------------------------------
def check_position_string(cls: type, text: str) -> None:
    ok, game = expect_contract(lambda: cls.from_string(text), inputs=(text,))
    if ok:
        assert type(game) is cls
        again = cls.from_string(game.to_string())
        assert again == game and again.to_string() == game.to_string()
        assert game.start_string() == game.to_string() and game.move_ids == []
        game.legal_actions()  # a position that reads can be played on
        if not game.is_over():
            assert game.legal_actions(), f"{text!r}: not over, yet no legal move"


@given(st.sampled_from(CLASSES), texts)
def test_position_string_random(cls: type, text: str) -> None:
    _hit("position_random", cls())
    check_position_string(cls, text)


@given(st.data())
def test_position_string_mutated(data: Any) -> None:
    game = data.draw(games())
    cls = type(game) if data.draw(st.integers(0, 4)) else data.draw(st.sampled_from(CLASSES))
    _hit("position_mutated", cls())
    check_position_string(cls, mutate(game.to_string(), data.draw(edits)))


# ---------------------------------------------------------------------------
# Records: read_records / parse_records on random text and mutated valid records
# ---------------------------------------------------------------------------
TAG_KEYS = ["Event", "Site", "Date", "Round", "X", "O", "Annotator", "My_Tag2", "Result", "Game", "Rows", "K", "Start"]
tag_values = st.one_of(st.text(any_char, max_size=12), st.sampled_from(['a "quoted" \\ value', "", "yes", "*", "1-0"]))


@st.composite
def record_texts(draw: Any) -> str:
    """The text of 1-3 valid records of random games, with random tags."""
    items = []
    for _ in range(draw(st.integers(1, 3))):
        game = draw(games_with_start())
        tags = {
            k: v
            for k, v in draw(st.dictionaries(st.sampled_from(TAG_KEYS[:8]), tag_values, max_size=4)).items()
            if "\n" not in v and "\r" not in v
        }
        items.append(Record.from_game(game, **tags))
    out = io.StringIO()
    noughts.write_records(items, out)
    return out.getvalue()


LINE_PREFIX = re.compile(r"line (\d+): ")


def check_records(text: str) -> None:
    ok, records = expect_contract(lambda: noughts.read_records(io.StringIO(text)), inputs=(text,))
    if not ok:
        if isinstance(records, noughts.Error):
            m = LINE_PREFIX.match(str(records))
            assert m, f"a read error without its line number: {records}"
            assert 1 <= int(m.group(1)) <= text.count("\n") + 1, str(records)
            assert isinstance(
                records, (noughts.InvalidMoveError, noughts.IllegalMoveError, noughts.InvalidPositionError)
            ), type(records)
        return
    assert all(isinstance(r, Record) for r in records)
    for r in records:
        assert r.result in ("1-0", "0-1", "1/2-1/2", "*")
        outcome = r.game.outcome()
        if outcome is not None:
            assert r.result == outcome.result
        again = Record.from_text(r.to_text())  # what reads, writes and reads back the same
        assert again.to_text() == r.to_text()
        assert again.game == r.game and again.game.move_ids == r.game.move_ids


@slow
@given(texts)
def test_records_random(text: str) -> None:
    _hit("records_random")
    check_records(text)


@slow
@given(st.data())
def test_records_mutated(data: Any) -> None:
    _hit("records_mutated")
    text = data.draw(record_texts())
    if data.draw(st.integers(0, 9)) == 0:
        check_records(text)  # unmutated: must read
        assert parse_records(text)
    else:
        check_records(mutate(text, data.draw(edits)))


@slow
@given(st.data())
def test_record_tags(data: Any) -> None:
    """Record.from_game with arbitrary tag names and values: a record that reads back, or InvalidOptionError."""
    _hit("record_tags")
    game = data.draw(games(max_plies=12))
    keys = st.one_of(st.sampled_from(TAG_KEYS), st.text(any_char, min_size=1, max_size=8))
    values = st.one_of(st.text(any_char, max_size=10), st.integers(), st.booleans(), st.sampled_from(["1-0", "*"]))
    tags = data.draw(st.dictionaries(keys, values, max_size=4))
    ok, record = expect_contract(
        lambda: Record.from_game(game, **tags), game, inputs=tuple(tags) + tuple(map(str, tags.values()))
    )
    if ok:
        assert all(re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", k) for k in record.headers)
        check_records(record.to_text())
        again = Record.from_text(record.to_text())
        assert again.headers == record.headers, (again.headers, record.headers)


# ---------------------------------------------------------------------------
# Game options: Classic(...) and the registry
# ---------------------------------------------------------------------------
option_values = st.one_of(
    st.integers(-3, 70),
    st.integers(-(2**70), 2**70),
    st.sampled_from([2**31 - 1, 2**31, 2**32, 2**63, 2**64, -(2**31) - 1]),
    st.sampled_from([None, True, False, 3.0, "3", float("nan"), np.int64(4), np.uint8(3)]),
)


@given(option_values, option_values, option_values, st.sampled_from([True, False, 1, None, "yes"]))
def test_classic_options(rows: Any, cols: Any, k: Any, flag: Any) -> None:
    _hit("classic_options")
    ok, game = expect_contract(lambda: Classic(rows, cols, k, misere=flag, gravity=flag), inputs=(rows, cols, k))
    if ok:
        assert game.rows == rows and game.cols == cols and 1 <= game.k <= max(rows, cols)
        assert Classic.from_string(game.to_string()) == game


# ---------------------------------------------------------------------------
# Search arguments: perft, random_playouts, MCTS, solve
# ---------------------------------------------------------------------------
NUMPY_INTS = (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64)


def numpy_ints(lo: int, hi: int) -> Any:
    """numpy integers (each type that can hold the value) in lo..hi: accepted wherever an int is."""
    return (
        st.tuples(st.integers(lo, hi), st.sampled_from(NUMPY_INTS))
        .filter(lambda p: np.iinfo(p[1]).min <= p[0] <= np.iinfo(p[1]).max)
        .map(lambda p: p[1](p[0]))
    )


bad_counts = st.one_of(
    st.integers(max_value=-1),
    st.integers(min_value=2**64, max_value=2**80),
    st.sampled_from([True, 1.0, float("nan"), "3", None, Decimal(2)]),
)
numbers = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.integers(-(2**70), 2**70),
    st.sampled_from([0, 0.0, -0.0, True, None, "1", 1e-300, 5e-324]),
)


@slow
@given(st.data())
def test_search_arguments(data: Any) -> None:
    """Bad budgets and options are refused with InvalidOptionError; good ones run (small positions only)."""
    game = data.draw(games(FACTORIES[:4], max_plies=6))  # 3x3 games: every search here is fast
    _hit("search_arguments", game)
    which = data.draw(st.integers(0, 4))
    if which == 0:
        depth = data.draw(st.one_of(bad_counts, st.integers(0, 10), st.integers(0, 2**70), numpy_ints(0, 10)))
        ok, n = expect_contract(lambda: noughts.perft(game, depth), game, inputs=(depth,))
        whole = isinstance(depth, (int, np.integer)) and not isinstance(depth, bool)
        # Deeper than 81 (longer than any game lasts) is refused.
        assert ok == (whole and 0 <= depth <= 81), (depth, n)
    elif which == 1:
        n = data.draw(st.one_of(bad_counts, st.integers(0, 50), numpy_ints(0, 50)))
        seed = data.draw(st.one_of(st.integers(0, 2**70), bad_counts, numpy_ints(0, 2**62)))
        ok, counts = expect_contract(lambda: noughts.random_playouts(game, n, seed=seed), game, inputs=(n, seed))
        if ok:
            assert sum(counts) == n
    elif which == 2:
        kwargs = {
            "seed": data.draw(st.one_of(st.integers(-(2**70), 2**70), numpy_ints(-(2**62), 2**62))),
            "c": data.draw(st.one_of(st.floats(0, 10), numbers)),
            "threads": data.draw(st.one_of(st.integers(1, 2), st.integers(-5, 0), st.integers(257, 2**70))),
            "max_nodes": data.draw(st.one_of(st.integers(0, 2**70), st.just(1 << 16))),
        }
        ok, mcts = expect_contract(lambda: noughts.MCTS(**kwargs), inputs=tuple(kwargs.values()))
        if ok and not game.is_over():  # the C++ searcher is made (and checks its options) at the first search
            ok, result = expect_contract(lambda: mcts.search(game, iterations=50), game, inputs=tuple(kwargs.values()))
            assert not ok or result.best_move.id in game.legal_actions()
    elif which == 3:
        iterations = data.draw(st.one_of(st.integers(1, 200), bad_counts, st.just(None)))
        seconds = data.draw(st.one_of(st.floats(1e-4, 0.005), st.floats(1e6, 1e9), numbers, st.just(None)))
        bounded = isinstance(iterations, int) and not isinstance(iterations, bool) and 1 <= iterations <= 200
        if (
            isinstance(seconds, (int, float))
            and not isinstance(seconds, bool)
            and math.isfinite(seconds)
            and seconds > 0
        ):
            # Long budgets only next to an iteration bound; beyond 1e9 s see test_regression_mcts_huge_seconds.
            seconds = min(seconds, 1e9 if bounded else 0.005)
        mcts = noughts.MCTS(seed=1)
        ok, result = expect_contract(lambda: mcts.search(game, iterations, seconds), game, inputs=(iterations, seconds))
        if ok:
            assert not game.is_over() and result.best_move.id in game.legal_actions()
            assert result.iterations >= 1  # even a budget shorter than one iteration (B10)
            if isinstance(iterations, int):
                assert result.iterations <= iterations
    else:
        max_seconds = data.draw(st.one_of(st.just(None), numbers))
        tt_mb = data.draw(st.one_of(st.floats(0.001, 1e6), st.floats(max_value=1e6), st.just(math.nan), st.just(64)))

        def solve() -> Any:
            try:
                return noughts.solve(game, max_seconds=max_seconds, tt_mb=tt_mb)
            except noughts.SearchTimeout:  # the documented answer to a tiny time limit, not a rejection
                return None

        ok, s = expect_contract(solve, game, inputs=(max_seconds, tt_mb))
        if ok and s is not None:
            assert s.principal_variation and s.principal_variation[0].id in game.legal_actions()


# ---------------------------------------------------------------------------
# SVG: last_move in any form, any title
# ---------------------------------------------------------------------------
@slow
@given(st.data())
def test_svg_inputs(data: Any) -> None:
    game = data.draw(games(max_plies=30))
    _hit("svg", game)
    last = data.draw(st.one_of(st.just(None), move_texts(game), move_ids(game.num_actions)))
    title = data.draw(st.one_of(st.just(None), texts))
    ok, picture = expect_contract(lambda: noughts.svg(game, last_move=last, title=title), game, inputs=(last, title))
    if ok:
        try:
            ET.fromstring(picture.encode("utf-8"))
        except (UnicodeError, ET.ParseError):
            if TOLERATE_KNOWN and title is not None and _xml_illegal(title):
                KNOWN["B8-svg-title"] += 1
                reject()
            raise


# ---------------------------------------------------------------------------
# The engine protocol: Engine(write).handle(line) never raises, only answers "error ..."
# ---------------------------------------------------------------------------
ANSWERS = (
    "id ",
    "noughtsok",
    "readyok",
    "legal",
    "board ",
    "position ",
    "tomove ",
    "result ",
    "info ",
    "bestmove ",
    "error ",
    "help ",
)
STATE_COMMANDS = ("game", "position", "play", "undo", "setoption")


def engine_state(engine: Any) -> tuple[Any, ...]:
    return (engine.game_name, dict(engine.options), snapshot(engine.game), engine.seed, engine.c, engine.threads)


def _tame(line: str) -> str:
    """Bounds the cost of a search line: searches here must stay short (stop ends MCTS, not the solver)."""
    try:
        words = shlex.split(line)
    except ValueError:
        return line
    if not words:
        return line
    command = words[0].lower()
    if command == "go":
        for i in range(1, len(words) - 1):
            if words[i] in ("movetime", "iterations"):
                try:
                    value = int(words[i + 1])
                except ValueError:
                    continue
                cap = 30 if words[i] == "movetime" else 300
                if value > cap and (words[i] == "movetime" or value < 2**64):
                    words[i + 1] = str(cap)
        if "movetime" not in words:
            words += ["movetime", "30"]
        return shlex.join(words)
    if command == "setoption" and len(words) == 5 and words[2].lower() == "threads":
        try:
            if int(words[4]) > 4:
                words[4] = "4"
        except ValueError:
            pass
        return shlex.join(words)
    return line


def run_engine_line(engine: Any, out: list[str], line: str) -> None:
    line = line.replace("\n", " ").replace("\r", " ")  # stdin gives one line at a time
    line = _tame(line)
    before = engine_state(engine)
    start = len(out)
    try:
        engine.handle(line)
        if engine.searching():
            engine.handle("stop")
    except Exception as e:
        count_known_bug(e, (line,), f"Engine.handle({line!r})")
        if engine.searching():
            engine.handle("stop")
        reject()
    answers = out[start:]
    for answer in answers:
        assert isinstance(answer, str)
        if "\n" in answer or "\r" in answer:
            if TOLERATE_KNOWN and "incompatible function arguments" in answer:
                KNOWN["B2-B4-big-int"] += 1
                reject()
            raise AssertionError(f"an answer that breaks the line framing: {answer!r} (to {line!r})")
        assert answer.startswith(ANSWERS), f"an answer without a keyword: {answer!r} (to {line!r})"
    words = line.split()
    command = words[0].lower() if words else ""
    if command in STATE_COMMANDS and any(a.startswith("error ") for a in answers):
        assert engine_state(engine) == before, f"{line!r} was refused but changed the engine's state"


ENGINE_TEMPLATES = [
    "noughts", "uci", "isready", "help", "legal", "show", "undo", "stop", "play", "play", "play", "play",
    "game classic", "game classic rows=4 cols=4 k=3 misere", "game classic rows=6 cols=7 k=4 gravity",
    "game classic free", "game classic rows=5 cols=5 k=4 misere free gravity", "game ultimate", "game quantum",
    "position start", "position start moves", "position string", "position string moves",
    "setoption name seed value 3", "setoption name c value 0.5", "setoption name threads value 2",
    "go iterations 50", "go movetime 20", "go solve movetime 20", "go", "quit",
]  # fmt: skip


def resolve(template: str, engine: Any, rng: random.Random) -> str:
    """A valid command for the engine's current state."""
    game = engine.game
    legal = [m.name for m in game.legal_moves()]
    if template == "play":
        return f"play {rng.choice(legal)}" if legal else "play a1"
    if template.startswith("position"):
        g = game.copy()
        moves = []
        for _ in range(rng.randint(0, 6) if template.endswith("moves") else 0):
            options = g.legal_moves()
            if not options:
                break
            m = rng.choice(options)
            g.play(m.id)
            moves.append(m.name)
        head = f"position string {game.to_string()}" if "string" in template else "position start"
        return head + (" moves " + " ".join(moves) if template.endswith("moves") else "")
    return template


@slow
@given(st.lists(texts, min_size=1, max_size=8))
def test_engine_random_lines(lines: list[str]) -> None:
    _hit("engine_random")
    out: list[str] = []
    engine = Engine(out.append)
    for line in lines:
        run_engine_line(engine, out, line)
    run_engine_line(engine, out, "quit")


@slow
@given(
    st.lists(
        st.tuples(st.sampled_from(ENGINE_TEMPLATES), st.integers(0, 2**32), st.one_of(st.none(), edits)),
        min_size=1,
        max_size=12,
    )
)
def test_engine_commands(commands: list[tuple[str, int, Any]]) -> None:
    """Sequences of valid commands, some mutated."""
    _hit("engine_commands")
    out: list[str] = []
    engine = Engine(out.append)
    for template, seed, changes in commands:
        line = resolve(template, engine, random.Random(seed))
        run_engine_line(engine, out, mutate(line, changes) if changes else line)
    run_engine_line(engine, out, "quit")


# ---------------------------------------------------------------------------
# CodinGame mode: whatever the referee sends, the bot answers in the grid or stops with ValueError
# ---------------------------------------------------------------------------
@st.composite
def codingame_inputs(draw: Any) -> str:
    rng = random.Random(draw(st.integers(0, 2**32)))
    game = Ultimate()
    lines = []
    if draw(st.booleans()):  # the bot moves first
        lines += ["-1 -1", str(len(game.legal_actions()))] + [
            "{} {}".format(*id_to_grid(m)) for m in game.legal_actions()
        ]
    else:  # the opponent opened (later turns depend on the bot's replies, so one turn only)
        move = rng.choice(game.legal_actions())
        game.play(move)
        lines.append("{} {}".format(*id_to_grid(move)))
        lines.append(str(len(game.legal_actions())))
        lines.extend("{} {}".format(*id_to_grid(m)) for m in game.legal_actions())
    text = "\n".join(lines) + "\n"
    return mutate(text, draw(edits)) if draw(st.booleans()) else text


@slow
@given(st.one_of(codingame_inputs(), texts))
def test_codingame_input(text: str) -> None:
    from noughts import codingame

    _hit("codingame")
    out = io.StringIO()
    try:
        assert codingame.run(io.StringIO(text), out, ms=1, first_ms=1) == 0
    except ValueError:
        pass  # bad referee input: a ValueError (int() or a noughts error), nothing else
    for answer in out.getvalue().splitlines():
        r, c = map(int, answer.split())
        assert 0 <= r < 9 and 0 <= c < 9, answer


# ---------------------------------------------------------------------------
# Regression tests for the bugs found here (docs/hardening.md "Bugs found")
# ---------------------------------------------------------------------------
LONE_SURROGATE = "\udcff"  # what surrogateescape makes of the byte 0xff (stdin under the C locale)


@pytest.mark.parametrize("cls", CLASSES)
def test_regression_lone_surrogate_move(cls: type) -> None:
    """B1: a str that is not valid UTF-8 (lone surrogate) raised RuntimeError/TypeError instead of InvalidMoveError."""
    game = cls()
    with pytest.raises(noughts.InvalidMoveError):
        game.play("a1" + LONE_SURROGATE)
    with pytest.raises(noughts.InvalidMoveError):
        game.parse_move(LONE_SURROGATE)
    assert game.is_legal(LONE_SURROGATE) is False
    with pytest.raises(noughts.InvalidPositionError):
        cls.from_string(LONE_SURROGATE)
    assert game.move_ids == []


def test_regression_lone_surrogate_engine_and_records() -> None:
    """B1 through the engine (the exception escaped handle()) and the record reader."""
    out: list[str] = []
    engine = Engine(out.append)
    for line in ("play " + LONE_SURROGATE, "position string " + LONE_SURROGATE):
        engine.handle(line)
    assert len(out) == 2 and all(line.startswith("error ") for line in out)
    with pytest.raises(noughts.InvalidMoveError, match=r"^line 3: "):
        parse_records('[Game "classic"]\n\nb2 ' + LONE_SURROGATE + " *\n")
    with pytest.raises(noughts.InvalidPositionError, match=r"^line 1: "):
        parse_records('[Start "' + LONE_SURROGATE + '"]\n\n*\n')


@pytest.mark.parametrize("value", [2**31, 99999999999, 2**64, 2**70])
def test_regression_huge_classic_options(value: int) -> None:
    """B2: rows/cols/k beyond a C int raised TypeError from pybind11 instead of InvalidOptionError."""
    for kwargs in ({"rows": value}, {"cols": value}, {"k": value}):
        with pytest.raises(noughts.InvalidOptionError):
            Classic(**kwargs)
    with pytest.raises(noughts.InvalidPositionError, match=r"^line 1: "):
        parse_records(f'[Rows "{value}"]\n\n*\n')
    out: list[str] = []
    Engine(out.append).handle(f"game classic rows={value}")
    assert len(out) == 1 and out[0].startswith("error ")


@pytest.mark.parametrize("rows, cols", [(2**31 - 1, 3), (65536, 65536), (3, 2**31 - 1)])
def test_regression_classic_size_overflow(rows: int, cols: int) -> None:
    """B11: resolve() computed rows * cols in int before checking rows, cols <= 64: signed overflow (UB).

    Passes in a normal build; under scripts/sanitize.sh address,undefined UBSan stops the process here.
    """
    with pytest.raises(noughts.InvalidOptionError):
        Classic(rows, cols)


def test_regression_record_unicode_digits() -> None:
    """B3: Rows "²" passed str.isdigit() and int() then raised a bare ValueError without the line number."""
    with pytest.raises(noughts.InvalidPositionError, match=r"^line 2: "):
        parse_records('[Game "classic"]\n[Rows "\u00b2"]\n\n*\n')


@pytest.mark.parametrize(
    "call",
    [
        lambda: noughts.perft(Classic(), 2**31),
        lambda: noughts.random_playouts(Classic(), 2**64),
        lambda: noughts.MCTS(max_nodes=2**64).search(Classic(), iterations=10),
        lambda: noughts.MCTS().search(Classic(), iterations=2**64),
    ],
    ids=["perft-depth", "playouts-n", "mcts-max-nodes", "mcts-iterations"],
)
def test_regression_huge_search_arguments(call: Callable[[], Any]) -> None:
    """B4: counts beyond the C++ types raised TypeError instead of InvalidOptionError."""
    with pytest.raises(noughts.InvalidOptionError):
        call()


def run_python(code: str, timeout: float) -> subprocess.CompletedProcess[str]:
    """Runs code in a fresh interpreter that imports this noughts (for crashes and hangs)."""
    path = (os.path.dirname(noughts.__path__[0]), os.environ.get("PYTHONPATH"))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in path if p))
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=timeout)


@pytest.mark.skipif(sys.platform != "linux", reason="address-space limits (RLIMIT_AS) as Linux applies them")
def test_solve_goes_on_when_a_larger_table_cannot_be_had() -> None:
    """A table that cannot grow (its memory refused) keeps its size: the solve answers, no MemoryError.

    5x5 misere free choice is rich in transpositions, so its table grows fourfold at each
    fill: with 200 MB more address space than the interpreter has, it reaches 128 MB and the
    step to 512 MB is refused."""
    game = noughts.Classic.from_string("x.x.x/..o../...o./...xo/x..xx k=4 misere free")
    code = (
        "import resource, noughts\n"
        "vm = int(open('/proc/self/statm').read().split()[0]) * resource.getpagesize()\n"
        "limit = vm + (200 << 20)\n"
        "resource.setrlimit(resource.RLIMIT_AS, (limit, limit))\n"
        f"game = noughts.Classic.from_string({game.to_string()!r})\n"
        "print(noughts.solve(game, tt_mb=1024, weak=True).value)\n"
    )
    proc = run_python(code, timeout=300)
    assert proc.returncode == 0, proc.stderr[-500:]
    assert proc.stdout.split() == [str(noughts.solve(game, weak=True).value)], proc.stdout


def test_regression_solve_huge_tt_mb() -> None:
    """B5: solve(tt_mb=1e13) never returned (size_t overflow loops forever in TranspositionTable's constructor)."""
    code = "import noughts; noughts.solve(noughts.Classic(), tt_mb=1e13)"
    try:
        proc = run_python(code, timeout=8)
    except subprocess.TimeoutExpired:
        pytest.fail("solve(tt_mb=1e13) hangs")
    # Either a solve with a (clamped) table or InvalidOptionError: both are fine, a hang is not.
    assert proc.returncode == 0 or "InvalidOptionError" in proc.stderr, proc.stderr


def test_regression_mcts_huge_seconds() -> None:
    """B6: seconds >= 2**63 ns (~9.2e9 s) overflowed the deadline: the search stopped at once, 0 iterations."""
    result = noughts.MCTS(seed=1).search(Ultimate(), iterations=500, seconds=1e10)
    assert result.iterations == 500


def test_regression_engine_stop_ends_solve() -> None:
    """B7: 'stop' during 'go solve' waited for the whole movetime (the solver never saw the stop)."""
    out: list[str] = []
    engine = Engine(out.append)
    engine.handle("game ultimate")
    engine.handle("go solve movetime 4000")
    time.sleep(0.2)
    stopper = threading.Thread(target=engine.handle, args=("stop",), daemon=True)
    start = time.perf_counter()
    stopper.start()
    stopper.join(2.0)
    waited = time.perf_counter() - start
    stopper.join()  # let the search end either way before the next test
    assert waited < 2.0, f"stop took {waited:.1f} s to end 'go solve movetime 4000'"
    assert out and out[-1].startswith("bestmove ")


@pytest.mark.parametrize("title", ["\x00", "bell \x07", "\ufffe", "tab\tok?\x1b[0m"])
def test_regression_svg_title_is_safe(title: str) -> None:
    """B8: svg() promises 'any text is safe' for the title, but XML 1.0 forbids these characters even escaped."""
    ET.fromstring(noughts.svg(Classic(), title=title).encode("utf-8"))


def test_regression_half_built_game_does_not_crash() -> None:
    """B9: a Classic whose __init__ raised stays referenced by the traceback's frame; its repr segfaulted.

    pytest, IPython's verbose tracebacks and traceback.TracebackException(capture_locals=True) all repr frame
    locals, so a failing ``Classic(k=0)`` took the whole process down. Run in a subprocess: it crashes.
    """
    code = (
        "import noughts, traceback\n"
        "try:\n    noughts.Classic(k=0)\n"
        "except noughts.Error as e:\n"
        "    print(''.join(traceback.TracebackException.from_exception(e, capture_locals=True).format()))\n"
    )
    proc = run_python(code, timeout=60)
    assert proc.returncode == 0, f"exit status {proc.returncode}: {proc.stderr[-500:]}"


@pytest.mark.parametrize("line", ["position moves", "position moves b2", "position moves start"])
def test_regression_engine_position_without_start(line: str) -> None:
    """B13: 'position moves ...' (no 'start' or 'string' before 'moves') raised IndexError out of handle()."""
    out: list[str] = []
    engine = Engine(out.append)
    engine.handle(line)
    assert len(out) == 1 and out[0].startswith("error "), out
    assert engine.game.to_string() == Classic().to_string()


@pytest.mark.parametrize("cls", CLASSES)
def test_an_object_made_by_new_alone_is_a_usable_game(cls):
    # cls.__new__(cls) without __init__ (copy and pickle helpers do this) once
    # left the C++ part unbuilt, and any method crashed the interpreter.
    game = cls.__new__(cls)
    assert game.to_string() == cls().to_string()
    game.play(game.legal_actions()[0])
    assert game.ply == 1 and game.copy() == game


# ---------------------------------------------------------------------------
# Engine lines at their limits: length, numbers of any size, values of options
# ---------------------------------------------------------------------------
from noughts.engine import MAX_ITERATIONS, MAX_LINE, MAX_MOVETIME, run  # noqa: E402

LIMIT_TEMPLATES = [
    "go iterations {n}", "go movetime {n}", "go solve movetime {n}", "go iterations {n} movetime {m}",
    "setoption name seed value {n}", "setoption name threads value {n}", "setoption name c value {f}",
    "game classic rows={n} cols={m}", "position start moves {moves}", "isready{pad}", "{word}",
]  # fmt: skip
limit_numbers = st.one_of(
    st.integers(0, 10),
    st.sampled_from([MAX_ITERATIONS, MAX_ITERATIONS + 1, MAX_MOVETIME, MAX_MOVETIME + 1, 2**64, 2**64 + 1]),
    st.integers(0, 10**30),
    st.integers(1, 4500).map(lambda d: "9" * d),
    st.integers(1, 60).map(lambda d: "0" * d + "7"),
)
limit_floats = st.one_of(
    st.sampled_from(["nan", "inf", "-inf", "-1", "-0.0", "0", "1e308", "1e309", "0x10", "1_0", "٣"]),
    st.floats().map(repr),
)


@slow
@given(
    st.lists(
        st.tuples(
            st.sampled_from(LIMIT_TEMPLATES),
            limit_numbers,
            limit_numbers,
            limit_floats,
            st.integers(MAX_LINE - 40, MAX_LINE + 40),
        ),
        min_size=1,
        max_size=6,
    )
)
def test_engine_lines_at_limits(commands: list[tuple[str, Any, Any, str, int]]) -> None:
    """Numbers of any size, option values out of range, lines around MAX_LINE characters: every line gets
    its answers (an error never quotes more than a few dozen characters of the line), a refused go sends no
    bestmove, and the engine is idle after each command (after a stop)."""
    _hit("engine_limits")
    out: list[str] = []
    engine = Engine(out.append)
    for template, n, m, f, length in commands:
        line = template.format(n=n, m=m, f=f, moves=" ".join(["a1", "b1"] * (length // 6)), pad=" " * length,
                               word="x" * length)  # fmt: skip
        if template.startswith("go"):
            line = _tame(line)
        start = len(out)
        run_engine_line(engine, out, line)
        answers = out[start:]
        assert all(len(a) < 1000 for a in answers), [a[:80] for a in answers]
        if len(line) > MAX_LINE:
            assert answers == [f"error the line is longer than {MAX_LINE} characters, the limit: it was ignored"]
        if template.startswith("go") and answers and answers[0].startswith("error "):
            assert not any(a.startswith("bestmove") for a in answers)
        assert not engine.searching()
    run_engine_line(engine, out, "quit")


# ---------------------------------------------------------------------------
# Regressions of the second campaign (docs/hardening.md, B14 to B23)
# ---------------------------------------------------------------------------
def test_regression_perft_and_playouts_copy_the_game() -> None:
    """B14: perft and random_playouts read the live game without the GIL; a thread playing on it
    meanwhile crashed them. The thread tests (tests/test_threads.py) cover every call and game; here the
    campaign's case, Classic 4x4 k=3 with gravity and free choice, in a fresh interpreter."""
    code = (
        "import threading, noughts\n"
        "g = noughts.Classic(4, 4, 3, gravity=True, free_choice=True)\n"
        "done = threading.Event()\n"
        "def player():\n"
        "    while not done.is_set():\n"
        "        g.play(g.legal_actions()[0]); g.undo()\n"
        "t = threading.Thread(target=player); t.start()\n"
        "counts = {noughts.random_playouts(g, 20000, seed=1) for _ in range(10)}\n"
        "perfts = {noughts.perft(g, 4) for _ in range(10)}\n"
        "done.set(); t.join()\n"
        "assert len(counts) <= 2 and len(perfts) <= 2, (counts, perfts)\n"
    )
    proc = run_python(code, timeout=120)
    assert proc.returncode == 0, f"exit status {proc.returncode}: {proc.stderr[-500:]}"


def test_regression_solve_stop_that_raises() -> None:
    """B17: an exception from stop.is_set() left the solver's worker thread joinable: the process aborted
    ("terminate called without an active exception")."""
    code = (
        "import noughts\n"
        "class Stop:\n"
        "    def is_set(self): raise ValueError('boom')\n"
        "try:\n"
        "    noughts.solve(noughts.Classic(8, 8, 5), stop=Stop())\n"
        "except ValueError as e:\n"
        "    print('propagated', e)\n"
    )
    proc = run_python(code, timeout=60)
    assert proc.returncode == 0 and "propagated boom" in proc.stdout, proc.stderr[-500:]


def test_regression_perft_depth_is_bounded() -> None:
    """B18: perft accepted any depth up to 999 (and could not be stopped): now at most 81, the longest game."""
    assert noughts.perft(Classic(), 81) == 0
    assert noughts.perft(Classic(1, 3, 3, gravity=True), 3) == 6  # gravity: 3 moves from 3 move ids
    with pytest.raises(noughts.InvalidOptionError, match="between 0 and 81"):
        noughts.perft(Classic(), 82)
    with pytest.raises(noughts.InvalidOptionError):
        noughts.perft(Ultimate(), 999)


@pytest.mark.parametrize(
    "lines",
    [
        ["go solve movetime " + "4" * 400],
        ["go iterations 18446744073709551616"],
        ["go movetime 1000000000000"],
        ["setoption name c value nan", "go iterations 10"],
        ["setoption name c value inf", "go iterations 10"],
        ["setoption name c value -1", "go iterations 10"],
    ],
)
def test_regression_engine_go_values_checked(lines: list[str]) -> None:
    """B19, B21: a go budget out of range raised in the worker (no bestmove, the engine busy forever) or
    answered 'bestmove none' on a live game; setoption c accepted NaN, infinities and negatives, and every
    later go failed. Each is refused where it is given, and the engine works on."""
    out: list[str] = []
    engine = Engine(out.append)
    for line in lines:
        engine.handle(line)
        engine.handle("stop")
    assert out[0].startswith("error ") and len(out[0]) < 200, out
    assert "bestmove none" not in out
    assert not engine.searching()
    out.clear()
    engine.handle("go iterations 100")
    engine.handle("stop")
    assert out[-1].startswith("bestmove ") and out[-1] != "bestmove none", out


def test_regression_engine_worker_failure_answers() -> None:
    """B19: every failure in the search thread ends in an error line and leaves the engine idle."""
    out: list[str] = []
    engine = Engine(out.append)
    engine.handle("go iterations 10")
    engine.handle("stop")

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise OverflowError("cannot convert")

    assert engine._mcts is not None
    engine._mcts.search = broken  # type: ignore[method-assign]
    out.clear()
    engine.handle("go iterations 10")
    engine.handle("stop")
    assert out == ["error search failed: OverflowError: cannot convert"]
    assert not engine.searching()
    engine.handle("play b2")  # idle again: commands that need an idle engine work
    assert engine.game.ply == 1


def test_regression_engine_huge_line() -> None:
    """B19: a 1 MiB line took minutes to split (and blocked isready), and the error quoted it whole."""
    stdin = io.StringIO("x" * (1 << 20) + "\nisready\n" + "go " * 500_000 + "\nisready\nquit\n")
    stdout = io.StringIO()
    assert run(stdin, stdout) == 0
    answers = stdout.getvalue().splitlines()
    too_long = f"error the line is longer than {MAX_LINE} characters, the limit: it was ignored"
    assert answers == [too_long, "readyok", too_long, "readyok"]


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("../xx/oo k=3 gravity", "in turn"),
        ("o/x/x k=3 gravity", "in turn"),
        ("x..o...../" + "........./" * 7 + "......... 0", "sending rule"),
    ],
)
def test_regression_unreachable_positions(text: str, fragment: str) -> None:
    """B20: gravity positions whose turn order contradicts the stacking order, and Ultimate positions
    against the sending rule, were accepted (tests/test_positions_reachable.py compares exhaustively)."""
    cls = Ultimate if " " in text and "k=" not in text else Classic
    with pytest.raises(noughts.InvalidPositionError, match=fragment):
        cls.from_string(text)


def test_regression_record_tag_with_huge_number() -> None:
    """B22: a Rows tag of 4,301 digits raised Python's bare int() ValueError, without the line number."""
    text = '[Game "classic"]\n[Rows "' + "7" * 4301 + '"]\n\n*\n'
    with pytest.raises(noughts.InvalidPositionError, match=r"^line 2: .*too large") as info:
        parse_records(text)
    assert len(str(info.value)) < 300


@pytest.mark.parametrize(
    "call",
    [
        lambda: noughts.VectorGame("classic", n=2**31),
        lambda: Classic().symmetric(2**31),
        lambda: Classic().symmetric(1.5),
        lambda: noughts.VectorGame("classic", 2).game(2**31),
        lambda: noughts.VectorGame("classic", 2).game("0"),
        lambda: noughts.VectorGame("classic", 2, seed=2**64),
    ],
)
def test_regression_errors_inside_the_hierarchy(call: Callable[[], Any]) -> None:
    """B22: these raised pybind11's TypeError."""
    with pytest.raises(noughts.InvalidOptionError):
        call()


def test_regression_numpy_integers_accepted() -> None:
    """B22: numpy integers (common in RL code) raised OverflowError or TypeError where an int is accepted."""
    i64, u8 = np.int64, np.uint8
    assert noughts.random_playouts(Classic(), i64(100), seed=i64(1)) == noughts.random_playouts(Classic(), 100, seed=1)
    assert noughts.perft(Classic(), u8(3)) == noughts.perft(Classic(), 3)
    mcts = noughts.MCTS(seed=i64(1), threads=i64(1), max_nodes=i64(1 << 16))
    assert mcts.search(Classic(), iterations=i64(50), seconds=i64(5)).iterations == 50
    env = noughts.VectorGame("ultimate", i64(4), seed=i64(-1))
    env.reset()
    assert env.game(i64(3)) == Ultimate()
    assert Classic(i64(4), np.int32(4), u8(3)).k == 3
    assert Classic().symmetric(i64(2)) == Classic().symmetric(2)
    assert Ultimate().cell(i64(4), u8(4)) == "."
    g = Classic()
    g.play(i64(4))
    assert noughts.svg(g, last_move=i64(4))


@pytest.mark.skipif(
    "san" in os.environ.get("LD_PRELOAD", ""), reason="a sanitizer's runtime needs more address space than the limit"
)
def test_regression_mcts_memory_error_drops_the_trees() -> None:
    """B23: after a MemoryError the same searcher failed again until clear(): now it drops its trees."""
    code = (
        "import resource, noughts\n"
        "resource.setrlimit(resource.RLIMIT_AS, (400 << 20, 400 << 20))\n"
        "mcts = noughts.MCTS(seed=1, max_nodes=2**40)\n"
        "game = noughts.Classic(8, 8)\n"
        "try:\n"
        "    mcts.search(game, iterations=10**9)\n"
        "except MemoryError:\n"
        "    print('memory error')\n"
        "print(mcts.search(game, iterations=1000).iterations)\n"
    )
    proc = run_python(code, timeout=300)
    assert proc.returncode == 0, proc.stderr[-500:]
    assert proc.stdout.split() == ["memory", "error", "1000"], proc.stdout


class MyClassic(Classic):
    pass


def test_regression_repr_of_a_subclass_evaluates_back() -> None:
    """B23: repr of a subclass named noughts.MyClassic, which does not exist."""
    game = MyClassic(4, 4)
    game.play("b2")
    again = eval(repr(game), {"MyClassic": MyClassic})
    assert type(again) is MyClassic and again == game
    assert repr(Classic()) == "noughts.Classic.from_string('.../.../... k=3')"
