"""Game records: many games in one text file, in the spirit of chess's PGN.

A record is a block of ``[Key "value"]`` tag lines, a blank line, then the
moves in the game's notation separated by blanks and ended by the result
(``1-0``, ``0-1``, ``1/2-1/2`` or ``*``)::

    [Game "classic"]
    [Rows "3"]
    [Cols "3"]
    [K "3"]
    [Misere "no"]
    [FreeChoice "no"]
    [Gravity "no"]
    [X "Alice"]
    [O "Bob"]
    [Result "1-0"]

    b2 a1 c3 a3 a2 c2 b1 b3 c1 1-0

The moves are written without numbers: in Quantum the same player moves
twice around a collapse, so numbering pairs of plies would mislead. Reading
skips PGN-style numbers (``1.``, ``12...``, also glued: ``1.b2``), comments
``{...}`` and ``;`` to the end of a line. docs/records.md has the details.

Reading replays every move, so a record that reads is a legal game. Errors
carry the line number in their message:

- a move that is not notation: ``InvalidMoveError``; a move that is not
  legal there: ``IllegalMoveError`` (the engine's own errors);
- anything else wrong (a malformed tag, an unknown game, bad options, a bad
  ``Start`` position, a result the moves contradict, an unclosed comment):
  ``InvalidPositionError``.
"""

from __future__ import annotations

import datetime
import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import IO, Any, NoReturn, Union

from noughts._game import Move
from noughts.classic import Classic
from noughts.errors import IllegalMoveError, InvalidMoveError, InvalidOptionError, InvalidPositionError
from noughts.quantum import Quantum
from noughts.registry import GAME_INFO, GameOption, info_of
from noughts.ultimate import Ultimate

__all__ = ["Record", "parse_records", "read_records", "write_records"]

Game = Union[Classic, Ultimate, Quantum]
PathOrFile = Union[str, "os.PathLike[str]", IO[str]]

RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
# The games' options as tags (the registry's descriptors name them): tag -> option. Flags are "yes"/"no".
OPTION_TAGS: dict[str, GameOption] = {o.tag: o for info in GAME_INFO.values() for o in info.options}
_FLAGS = {"yes": True, "no": False, "true": True, "false": False, "1": True, "0": False}

# The tags a writer puts first, in this order (PGN's habit); others follow as given.
_LEADING = ("Event", "Site", "Date", "Round", "X", "O", "Result")

_KEY = re.compile(r"[A-Za-z][A-Za-z0-9_]*\Z")
_TAG = re.compile(r'\[[ \t]*([A-Za-z][A-Za-z0-9_]*)[ \t]+"((?:[^"\\\n]|\\["\\])*)"[ \t]*\]')
_WORD = re.compile(r'[^\s{};\[\]"]+')
_MOVE_NUMBER = re.compile(r"\d+\.+")
_LINE_WIDTH = 79


# ---------------------------------------------------------------------------
# The record
# ---------------------------------------------------------------------------
@dataclass
class Record:
    """One game and its tags.

    ``headers`` are the tags in the order they are written (``Game``, the
    options, ``Start``, the players, ``Result``, then any others); ``game``
    is the game object, its history holding the moves. ``to_text()`` writes
    the tags from ``headers`` and the moves from ``game.history``.
    """

    headers: dict[str, str]
    game: Game

    @property
    def moves(self) -> list[Move]:
        """The moves of the game, first to last."""
        return self.game.history

    @property
    def result(self) -> str:
        """ "1-0" (X won), "0-1" (O won), "1/2-1/2" (draw) or "*" (unfinished or unknown)."""
        return self.headers.get("Result", "*")

    @classmethod
    def from_game(cls, game: Game, **headers: object) -> Record:
        """A record of `game` (copied, history included) with extra tags, e.g. ``X="Alice", Date=date.today()``.

        ``Game``, the options and ``Start`` come from the game; ``Result``
        too once the game is over. An unfinished game may be given a result
        (a resignation, a time loss); by default it is ``"*"``. A tag that
        contradicts the game raises ``InvalidOptionError``.
        """
        if not isinstance(game, (Classic, Ultimate, Quantum)):
            raise TypeError(f"a record holds a Classic, Ultimate or Quantum game, not {type(game).__name__}")
        given = {key: _tag_value(key, value) for key, value in headers.items()}
        tags = _game_tags(game)
        _check_given_game_tags(game, tags, given)
        result = _result_of(game, given.pop("Result", None))
        return cls(_reorder({**tags, **given, "Result": result}), game.copy())

    @classmethod
    def from_text(cls, text: str) -> Record:
        """The one record in `text` (InvalidPositionError when there are none or several)."""
        records = parse_records(text)
        if len(records) != 1:
            raise InvalidPositionError(f"expected one record, found {len(records)}")
        return records[0]

    def to_text(self) -> str:
        """The record as text: tag lines, a blank line, the moves and the result, ending with a newline."""
        lines = [f'[{key} "{_escape(value)}"]' for key, value in self.headers.items()]
        lines.append("")
        lines.extend(_wrap([move.name for move in self.moves] + [self.result]))
        return "\n".join(lines) + "\n"

    def __str__(self) -> str:
        return self.to_text()


def _reorder(tags: dict[str, str]) -> dict[str, str]:
    """Game, options and Start first, then PGN's usual tags (players, Result), then the rest as given."""
    game_keys = [k for k in tags if k == "Game" or k in OPTION_TAGS or k == "Start"]
    leading = [k for k in _LEADING if k in tags]
    rest = [k for k in tags if k not in game_keys and k not in leading]
    return {k: tags[k] for k in game_keys + leading + rest}


def _tag_value(key: str, value: object) -> str:
    if not _KEY.match(key):
        raise InvalidOptionError(f"a tag name is a letter then letters, digits or _, not {key!r}")
    if isinstance(value, datetime.date):
        return value.strftime("%Y.%m.%d")  # PGN's date form
    if isinstance(value, bool):
        return "yes" if value else "no"
    text = str(value)
    if "\n" in text or "\r" in text:
        raise InvalidOptionError(f"tag {key} must fit on one line: {text!r}")
    return text


def _game_tags(game: Game) -> dict[str, str]:
    """Game, the game's options and, when the history does not begin at the usual start, Start."""
    info = info_of(game)
    assert info is not None  # from_game checked
    tags = {"Game": info.name}
    options = game.options()
    for option in info.options:
        if option.name in options:
            tags[option.tag] = _tag_value(option.tag, options[option.name])
    fresh = info.cls(**options)
    start = game.start_string()
    if start != fresh.to_string():
        tags["Start"] = start
    return tags


def _check_given_game_tags(game: Game, tags: dict[str, str], given: dict[str, str]) -> None:
    """Tags that describe the game (Game, options, Start) may be given only as the game would write them."""
    info = info_of(game)
    assert info is not None  # from_game checked
    # The game's options it leaves unsaid (at their defaults) may be given as such.
    unsaid = {o.tag: _tag_value(o.tag, o.default) for o in info.options if o.default is not None}
    own = {**unsaid, **tags, "Start": game.start_string()}
    for key in ("Game", "Start", *OPTION_TAGS):
        if key not in given:
            continue
        if key not in own:
            owner = next(i.name for i in GAME_INFO.values() if any(o.tag == key for o in i.options))
            raise InvalidOptionError(f"tag {key} is an option of {owner}, not of {own['Game']}")
        if given[key] != own[key]:
            raise InvalidOptionError(f"tag {key} is {own[key]!r} for this game, not {given[key]!r}")


def _result_of(game: Game, claimed: str | None) -> str:
    outcome = game.outcome()
    if claimed is not None and claimed not in RESULTS:
        raise InvalidOptionError(f"Result must be one of {', '.join(RESULTS)}, not {claimed!r}")
    if outcome is None:
        return claimed or "*"
    if claimed is not None and claimed != outcome.result:
        raise InvalidOptionError(f"the game ended {outcome.result}, not {claimed}")
    return outcome.result


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _wrap(words: list[str]) -> list[str]:
    lines: list[str] = []
    line = ""
    for word in words:
        if line and len(line) + 1 + len(word) > _LINE_WIDTH:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    lines.append(line)
    return lines


# ---------------------------------------------------------------------------
# Writing and reading files
# ---------------------------------------------------------------------------
def write_records(games_or_records: Iterable[Game | Record] | Game | Record, file_or_path: PathOrFile) -> None:
    """Write games (as ``Record.from_game(game)``) and records to a file, a blank line between them."""
    items: Iterable[Game | Record]
    if isinstance(games_or_records, (Record, Classic, Ultimate, Quantum)):
        items = [games_or_records]
    else:
        items = games_or_records
    text = "\n".join((item if isinstance(item, Record) else Record.from_game(item)).to_text() for item in items)
    if isinstance(file_or_path, (str, os.PathLike)):
        with open(file_or_path, "w", encoding="utf-8") as fh:
            fh.write(text)
    else:
        file_or_path.write(text)


def read_records(file_or_path: PathOrFile) -> list[Record]:
    """Every record of a file (a path or an open text file), each game replayed and checked.

    Raises InvalidMoveError, IllegalMoveError or InvalidPositionError with
    the line number in the message (see the module docstring).
    """
    if isinstance(file_or_path, (str, os.PathLike)):
        with open(file_or_path, encoding="utf-8") as fh:
            return parse_records(fh.read())
    return parse_records(file_or_path.read())


def parse_records(text: str) -> list[Record]:
    """Every record in a string (what read_records reads from a file)."""
    return [_build(raw) for raw in _group(_tokens(text))]


# ---------------------------------------------------------------------------
# Parsing: characters -> tokens -> one group of tokens per game -> records
# ---------------------------------------------------------------------------
@dataclass
class _Token:
    line: int
    text: str  # a word, or a tag's key
    value: str | None = None  # a tag's value; None for a word


@dataclass
class _Raw:
    tags: dict[str, _Token]
    words: list[_Token]
    result: _Token | None = None


def _fail(line: int, message: str) -> NoReturn:
    raise InvalidPositionError(f"line {line}: {message}")


def _tokens(text: str) -> Iterator[_Token]:
    i, line, n = 0, 1, len(text)
    while i < n:
        ch = text[i]
        if ch == "\n":
            line += 1
            i += 1
        elif ch.isspace():
            i += 1
        elif ch == "{":  # a comment, maybe over several lines
            end = text.find("}", i)
            if end < 0:
                _fail(line, "a comment opened with { is never closed")
            line += text.count("\n", i, end)
            i = end + 1
        elif ch == ";":  # a comment to the end of the line
            end = text.find("\n", i)
            i = n if end < 0 else end
        elif ch == "[":
            m = _TAG.match(text, i)
            if m is None:
                _fail(line, f'malformed tag {_line_at(text, i)!r}: expected [Key "value"] on one line')
            yield _Token(line, m.group(1), re.sub(r"\\(.)", r"\1", m.group(2)))
            i = m.end()
        else:
            m = _WORD.match(text, i)
            if m is None:
                _fail(line, f"unexpected {ch!r}")
            yield _Token(line, m.group())
            i = m.end()


def _line_at(text: str, i: int) -> str:
    end = text.find("\n", i)
    return text[i : len(text) if end < 0 else end].strip()


def _group(tokens: Iterable[_Token]) -> Iterator[_Raw]:
    """Split the tokens into games: tags start a game once the previous one has moves or a result; a result ends one."""
    raw: _Raw | None = None
    for tok in tokens:
        if tok.value is not None:  # a tag
            if raw is None or raw.words or raw.result is not None:
                if raw is not None:
                    yield raw
                raw = _Raw({}, [])
            if tok.text in raw.tags:
                _fail(tok.line, f"tag {tok.text} given twice (first on line {raw.tags[tok.text].line})")
            raw.tags[tok.text] = tok
            continue
        if raw is None or raw.result is not None:
            if raw is not None:
                yield raw
            raw = _Raw({}, [])
        if tok.text in RESULTS:
            raw.result = tok
        else:
            raw.words.append(tok)
    if raw is not None:
        yield raw


def _build(raw: _Raw) -> Record:
    game = _new_game(raw.tags)
    for tok in raw.words:
        _replay(game, tok)
    result = _checked_result(game, raw)
    headers = {key: tok.value or "" for key, tok in raw.tags.items()}
    info = info_of(game)
    assert info is not None  # _new_game made it
    headers.setdefault("Game", info.name)
    headers["Game"] = headers["Game"].lower()
    headers["Result"] = result
    return Record(headers, game)


def _new_game(tags: dict[str, _Token]) -> Game:
    """The game the tags describe, at its start (Start or the usual one)."""
    game_tag = tags.get("Game")
    name = (game_tag.value or "").lower() if game_tag else "classic"
    info = GAME_INFO.get(name)
    if info is None:
        _fail(game_tag.line if game_tag else 1, f"unknown game {name!r}: the games are {', '.join(GAME_INFO)}")
    cls: type[Game] = info.cls
    option_tags = [tags[t] for t in OPTION_TAGS if t in tags]
    for tok in option_tags:
        if OPTION_TAGS[tok.text] not in info.options:
            takes = ", ".join(o.tag for o in info.options) or "no options"
            _fail(tok.line, f"{name} takes {takes}, but tag {tok.text} is given")
    options: dict[str, Any] = {OPTION_TAGS[tok.text].name: _option_value(tok) for tok in option_tags}
    start = tags.get("Start")
    if start is not None:
        game = _from_start(cls, start)
        _check_options(game, options, option_tags)
        return game
    try:
        return cls(**options)
    except InvalidOptionError as e:
        _fail(option_tags[0].line if option_tags else 1, f"bad game options: {e}")


def _shorten(text: str, limit: int = 40) -> str:
    """At most `limit` characters of a value, for messages."""
    return text if len(text) <= limit else text[:limit] + "..."


def _option_value(tok: _Token) -> int | bool:
    text = (tok.value or "").strip().lower()
    if not OPTION_TAGS[tok.text].is_flag:
        if not (text.isascii() and text.isdigit()):
            _fail(tok.line, f"tag {tok.text} must be a whole number, not {_shorten(tok.value or '')!r}")
        # Python's int() refuses strings of more than 4300 digits; no option is anywhere near that.
        if len(text.lstrip("0")) > 9:
            _fail(tok.line, f"tag {tok.text} is too large ({_shorten(text)}): boards have at most 64 cells")
        return int(text)
    if text not in _FLAGS:
        _fail(tok.line, f'tag {tok.text} must be "yes" or "no", not {_shorten(tok.value or "")!r}')
    return _FLAGS[text]


def _from_start(cls: type[Game], start: _Token) -> Game:
    try:
        return cls.from_string(start.value or "")
    except (InvalidPositionError, InvalidOptionError) as e:
        _fail(start.line, f"bad Start position: {e}")


def _check_options(game: Game, options: dict[str, Any], tags: list[_Token]) -> None:
    # A Start position carries its own options; tags next to it must agree.
    actual = game.options()
    for tok in tags:
        option = OPTION_TAGS[tok.text]
        value = actual.get(option.name, option.default)
        if value != options[option.name]:
            _fail(tok.line, f"tag {tok.text} says {tok.value!r} but the Start position has {value!r}")


def _replay(game: Game, tok: _Token) -> None:
    text = tok.text
    number = _MOVE_NUMBER.match(text)
    if number:  # "12." alone, or glued to the move as in "1.b2"
        text = text[number.end() :]
        if not text:
            return
    try:
        game.play(text)
    except (InvalidMoveError, IllegalMoveError) as e:
        # The same class, so callers catch what the engine would raise; the line makes it findable.
        raise type(e)(f"line {tok.line}: {e}") from e


def _checked_result(game: Game, raw: _Raw) -> str:
    header = raw.tags.get("Result")
    if header is not None and header.value not in RESULTS:
        _fail(header.line, f"Result must be one of {', '.join(RESULTS)}, not {header.value!r}")
    if header is not None and raw.result is not None and header.value != raw.result.text:
        _fail(
            raw.result.line,
            f"the moves end with {raw.result.text} but the Result tag (line {header.line}) says {header.value}",
        )
    result: str | None = None
    line = 0
    if raw.result is not None:
        result, line = raw.result.text, raw.result.line
    elif header is not None:
        result, line = header.value, header.line
    outcome = game.outcome()
    if outcome is None:
        return result or "*"
    if result is not None and result != outcome.result:
        _fail(line, f"the moves end the game {outcome.result}, but the record says {result}")
    return outcome.result
