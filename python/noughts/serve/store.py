"""The server's durable state: tables and their moves in one SQLite file.

Every change is one transaction, committed (WAL journal, synchronous=FULL:
the commit is on disk) before the server answers, so an acknowledged move
survives a crash or ``kill -9``. The move number is part of the primary key:
the database itself refuses a second move with the same number, whatever
the server's memory says.

Seat tokens are never stored: only their SHA-256 digests, so a copy of the
database lets nobody play.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["MoveRow", "Store", "TableRow", "default_db_path", "token_digest"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id          TEXT PRIMARY KEY,
    game        TEXT NOT NULL,
    options     TEXT NOT NULL,
    x_key       BLOB,
    o_key       BLOB,
    computer    TEXT,
    created     REAL NOT NULL,
    creator     TEXT NOT NULL,
    resigned    TEXT,
    undo_by     TEXT,
    rematch     TEXT,
    rematch_of  TEXT,
    version     INTEGER NOT NULL DEFAULT 0,
    result      TEXT
);
CREATE INDEX IF NOT EXISTS tables_by_creator ON tables (creator, created);
CREATE TABLE IF NOT EXISTS moves (
    table_id    TEXT NOT NULL REFERENCES tables (id),
    number      INTEGER NOT NULL,
    move        TEXT NOT NULL,
    seat        TEXT NOT NULL,
    at          REAL NOT NULL,
    PRIMARY KEY (table_id, number)
);
"""


def default_db_path() -> Path:
    """Where ``noughts serve`` keeps its database unless told otherwise.

    ``$XDG_DATA_HOME/noughts/serve.sqlite3``, with XDG_DATA_HOME defaulting
    to ``~/.local/share``.
    """
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "noughts" / "serve.sqlite3"


def token_digest(token: str) -> bytes:
    """The stored form of a seat token."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).digest()


@dataclass
class MoveRow:
    number: int
    move: str
    seat: str


@dataclass
class TableRow:
    id: str
    game: str
    options: dict[str, Any]
    x_key: bytes | None
    o_key: bytes | None
    computer: str | None
    created: float
    resigned: str | None = None
    undo_by: str | None = None
    rematch: str | None = None
    rematch_of: str | None = None
    # Bumped by every change, so pages can drop a state older than one they have shown.
    version: int = 0
    moves: list[MoveRow] = field(default_factory=list)

    def key(self, seat: str) -> bytes | None:
        return self.x_key if seat == "X" else self.o_key


class StaleMoveError(Exception):
    """A move whose number is already taken (another move got there first)."""


class Store:
    """The tables and moves of one database file. Safe to call from several threads."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        if str(path) != ":memory:":
            self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.executescript(_SCHEMA)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    # ---- writing: one transaction each ------------------------------------
    def _write(self, statements: list[tuple[str, tuple[Any, ...]]], changed: str | None = None) -> None:
        """Runs the statements in one transaction; `changed` names a table whose version goes up."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                for sql, args in statements:
                    self._db.execute(sql, args)
                if changed is not None:
                    self._db.execute("UPDATE tables SET version = version + 1 WHERE id = ?", (changed,))
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def create_table(self, row: TableRow, creator: str) -> None:
        self._write([_insert_table(row, creator, row.rematch_of)])

    def create_rematch(self, old_id: str, row: TableRow, creator: str) -> None:
        """The new table and the old one's link to it, in one transaction."""
        self._write(
            [
                _insert_table(row, creator, old_id),
                ("UPDATE tables SET rematch = ? WHERE id = ?", (row.id, old_id)),
            ],
            changed=old_id,
        )

    def add_move(self, table_id: str, number: int, move: str, seat: str, result: str | None = None) -> None:
        """Stores move `number`; StaleMoveError if that number is already stored. Clears an undo request.

        `result` ("1-0", "0-1", "1/2-1/2") when the move ends the game.
        """
        try:
            self._write(
                [
                    (
                        "INSERT INTO moves (table_id, number, move, seat, at) VALUES (?, ?, ?, ?, ?)",
                        (table_id, number, move, seat, time.time()),
                    ),
                    ("UPDATE tables SET undo_by = NULL, result = ? WHERE id = ?", (result, table_id)),
                ],
                changed=table_id,
            )
        except sqlite3.IntegrityError as e:
            raise StaleMoveError(f"move {number} is already played") from e

    def take_back(self, table_id: str, keep: int) -> None:
        """Deletes the moves after the first `keep` and the undo request."""
        self._write(
            [
                ("DELETE FROM moves WHERE table_id = ? AND number > ?", (table_id, keep)),
                ("UPDATE tables SET undo_by = NULL, result = NULL WHERE id = ?", (table_id,)),
            ],
            changed=table_id,
        )

    def set_undo_request(self, table_id: str, seat: str | None) -> None:
        self._write([("UPDATE tables SET undo_by = ? WHERE id = ?", (seat, table_id))], changed=table_id)

    def resign(self, table_id: str, seat: str) -> None:
        result = "0-1" if seat == "X" else "1-0"
        self._write(
            [("UPDATE tables SET resigned = ?, undo_by = NULL, result = ? WHERE id = ?", (seat, result, table_id))],
            changed=table_id,
        )

    # ---- reading ----------------------------------------------------------
    def table(self, table_id: str) -> TableRow | None:
        with self._lock:
            row = self._db.execute(
                "SELECT id, game, options, x_key, o_key, computer, created, resigned, undo_by, rematch, rematch_of,"
                " version"
                " FROM tables WHERE id = ?",
                (table_id,),
            ).fetchone()
            if row is None:
                return None
            moves = self._db.execute(
                "SELECT number, move, seat FROM moves WHERE table_id = ? ORDER BY number", (table_id,)
            ).fetchall()
        return TableRow(
            id=row[0],
            game=row[1],
            options=json.loads(row[2]),
            x_key=row[3],
            o_key=row[4],
            computer=row[5],
            created=row[6],
            resigned=row[7],
            undo_by=row[8],
            rematch=row[9],
            rematch_of=row[10],
            version=row[11],
            moves=[MoveRow(n, m, s) for n, m, s in moves],
        )

    def tables_created_since(self, creator: str, since: float) -> int:
        with self._lock:
            (count,) = self._db.execute(
                "SELECT COUNT(*) FROM tables WHERE creator = ? AND created >= ?", (creator, since)
            ).fetchone()
        return int(count)

    def computer_tables(self) -> list[str]:
        """The unfinished tables with a computer seat (where the computer may have a move to make after a restart)."""
        with self._lock:
            rows = self._db.execute("SELECT id FROM tables WHERE computer IS NOT NULL AND result IS NULL").fetchall()
        return [r[0] for r in rows]


def _insert_table(row: TableRow, creator: str, rematch_of: str | None) -> tuple[str, tuple[object, ...]]:
    """The statement that stores a new table (the one place that lists its columns)."""
    return (
        "INSERT INTO tables (id, game, options, x_key, o_key, computer, created, creator, rematch_of)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            row.id,
            row.game,
            json.dumps(row.options, sort_keys=True),
            row.x_key,
            row.o_key,
            row.computer,
            row.created,
            creator,
            rematch_of,
        ),
    )
