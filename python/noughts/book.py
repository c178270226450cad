"""Opening books: exact scores of positions computed ahead of time, which ``solve`` takes
instead of searching below them.

A book file is text: header lines starting with ``#`` name the game and its options
(``# game: classic {"rows": 6, ...}``), then one line per position: the moves from the
start (move names, separated by spaces), the value for the player to move (1, 0 or -1), the
distance to the end in plies with best play (0 for a draw) and, optionally, a colon and one
line of best play to the end, which ``solve`` then gives as the rest of its principal
variation. ``scripts/make_book.py`` writes them. noughts ships the books in ``noughts/books/``; ``solve`` uses the one made
for the game's rules (``book=True``, the default).
"""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

from noughts import _core
from noughts.errors import InvalidOptionError
from noughts.registry import info_of, make_game

__all__ = ["OpeningBook", "shipped_book"]

_SHIPPED = Path(__file__).with_name("books")


class OpeningBook:
    """Exact scores of positions of one game's rules, read from a book file.

    >>> import noughts
    >>> book = noughts.shipped_book(noughts.Classic(6, 7, 4, gravity=True))
    >>> book is not None and book.applies_to(noughts.Classic(6, 7, 4, gravity=True))
    True
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        try:
            text = self.path.read_text(encoding="utf-8")
        except OSError as e:
            raise InvalidOptionError(f"cannot read the book {self.path}: {e.strerror or e}") from None
        except UnicodeDecodeError:
            raise InvalidOptionError(f"{self.path} is not a book: a book is UTF-8 text") from None
        game_line = next((line for line in text.splitlines() if line.startswith("# game:")), None)
        if game_line is None:
            raise InvalidOptionError(f"{self.path} is not a book: it has no '# game: <name> <options>' line")
        name, _, options = game_line.removeprefix("# game:").strip().partition(" ")
        try:
            self.start = make_game(name, **json.loads(options or "{}"))
        except (ValueError, TypeError) as e:
            raise InvalidOptionError(f"{self.path}: its '# game:' line does not name a game: {e}") from None
        self.game = name
        self._rules = _rules_of(self.start)
        core = getattr(_core, type(self.start)._core_class.__name__ + "Book")
        self._core = core(self.start)
        try:
            self._core.add_text(text)  # the position lines, read and checked in C++
        except InvalidOptionError as e:
            raise InvalidOptionError(f"{self.path}, {e}") from None

    def __repr__(self) -> str:
        return f"noughts.OpeningBook({str(self.path)!r})"

    def __len__(self) -> int:
        return len(self._core)

    @property
    def plies(self) -> tuple[int, int]:
        """The fewest and the most moves played of the book's positions."""
        return self._core.min_ply, self._core.max_ply

    def applies_to(self, game: Any) -> bool:
        """Whether ``game`` is of the rules the book was made for."""
        return _rules_of(game) == self._rules

    def lookup(self, game: Any) -> tuple[int, int] | None:
        """(value for the player to move, distance) of the position if the book holds it
        (or a symmetric copy of it), else None."""
        if not self.applies_to(game):
            return None
        found = self._core.find(game)
        return None if found is None else (int(found[0]), int(found[1]))

    def line(self, game: Any) -> list[Any]:
        """The book's line of best play from the position (Moves), empty if it has none."""
        return game._moves(self._core.line(game)) if self.applies_to(game) else []


def _rules_of(game: Any) -> tuple[type, tuple[tuple[str, Any], ...]] | None:
    """What tells one game's rules from another's: its class and its options."""
    info = info_of(game)
    return None if info is None else (info.cls, _options_of(game))


def _options_of(game: Any) -> tuple[tuple[str, Any], ...]:
    return tuple(sorted(game.options().items()))


_lock = threading.Lock()
_Options = tuple[tuple[str, Any], ...]


class _Shipped:
    """The shipped books of one game class: files by options, with the most moves played of
    their positions (from the header lines alone; a book's positions are read when needed)."""

    def __init__(self) -> None:
        self.files: dict[_Options, tuple[Path, int]] = {}
        self.deepest = -1


_shipped: dict[type, _Shipped] | None = None  # by the game's class (its registry class), read on first use
_by_type: dict[type, _Shipped | None] = {}  # by type(game), subclasses included
_loaded: dict[Path, OpeningBook] = {}


def _header(path: Path) -> dict[str, str]:
    """A book file's header fields ("# name: value" lines before the first position)."""
    fields = {}
    with path.open(encoding="utf-8") as f:
        for line in f:
            if not line.startswith("#"):
                break
            name, colon, value = line[1:].partition(":")
            if colon:
                fields[name.strip()] = value.strip()
    return fields


def _shipped_files() -> dict[type, _Shipped]:
    found: dict[type, _Shipped] = {}
    for path in sorted(_SHIPPED.glob("*.txt")):
        header = _header(path)
        name, _, options = header.get("game", "").partition(" ")
        rules = _rules_of(make_game(name, **json.loads(options or "{}")))
        # "moves played: 4-5": a solve of a position with more moves never meets the book.
        deepest = int(header["moves played"].rpartition("-")[2]) if "moves played" in header else 10**9
        if rules is not None:
            shipped = found.setdefault(rules[0], _Shipped())
            shipped.files[rules[1]] = (path, deepest)
            shipped.deepest = max(shipped.deepest, deepest)
    return found


def _shipped_of(game: Any) -> _Shipped | None:
    """The shipped books of the game's class, if any (asked in well under a microsecond)."""
    global _shipped
    kind = type(game)
    if kind not in _by_type:
        with _lock:
            if _shipped is None:
                _shipped = _shipped_files()
            info = info_of(game)
            _by_type[kind] = None if info is None else _shipped.get(info.cls)
    return _by_type[kind]


def _shipped_entry(game: Any, shipped: _Shipped | None) -> tuple[Path, int] | None:
    return None if shipped is None else shipped.files.get(_options_of(game))


def _load(path: Path) -> OpeningBook:
    with _lock:
        if path not in _loaded:
            _loaded[path] = OpeningBook(path)
        return _loaded[path]


def shipped_book(game: Any) -> OpeningBook | None:
    """The book noughts ships for ``game``'s rules, or None (each read once, then kept)."""
    entry = _shipped_entry(game, _shipped_of(game))
    return None if entry is None else _load(entry[0])


def shipped_book_for_solve(game: Any) -> OpeningBook | None:
    """The shipped book for ``game``'s rules if a solve of its position can meet the book's
    positions (none has more moves played than the position), else None: a later position
    never reads the book."""
    shipped = _shipped_of(game)
    if shipped is None or game.ply > shipped.deepest:  # the common case, decided before the options are asked
        return None
    entry = _shipped_entry(game, shipped)
    if entry is None or game.ply > entry[1]:
        return None
    return _load(entry[0])
