"""The state of a running noughts serve: tables in memory, their watchers, stored changes and the computer's moves."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import re
import secrets
import sqlite3
import time
from collections.abc import Callable
from typing import Any

import anyio

from noughts.errors import IllegalMoveError, InvalidMoveError
from noughts.levels import choose_move
from noughts.serve.checks import ApiError
from noughts.serve.store import MoveRow, StaleMoveError, Store, TableRow
from noughts.serve.tables import Table

__all__ = ["MAX_CACHED", "SEND_SECONDS", "TABLE_ID", "Server"]

log = logging.getLogger("noughts.serve")

#: Seconds a watcher has to take an update before it is dropped.
SEND_SECONDS = 5.0

#: Tables kept in memory; idle ones beyond this are dropped (and read again from the store when needed).
MAX_CACHED = 2000

TABLE_ID = re.compile(r"[A-Za-z0-9_-]{8,32}\Z")


class Server:
    """The tables in memory (a cache of the store), the live watchers and the computer's moves."""

    def __init__(self, store: Store, tables_per_client: int, window: float, computer_threads: int) -> None:
        self.store = store
        self.tables: dict[str, Table] = {}
        self.tables_per_client = tables_per_client
        self.window = window
        self.limiter = anyio.CapacityLimiter(computer_threads)
        self.writer = anyio.CapacityLimiter(1)
        self.tasks: set[asyncio.Task[None]] = set()

    async def write(self, method: Callable[..., None], *args: Any) -> None:
        """Runs a store write (a commit that waits for the disk) in a thread: the other tables go on meanwhile."""
        await anyio.to_thread.run_sync(functools.partial(method, *args), limiter=self.writer)

    def table(self, table_id: str) -> Table:
        if not TABLE_ID.match(table_id):
            raise ApiError(404, "no such table: a table id is 8 to 32 letters, digits, '-' or '_'")
        table = self.tables.get(table_id)
        if table is None:
            row = self.store.table(table_id)
            if row is None:
                raise ApiError(404, f"no table {table_id!r} here")
            table = self.remember(Table.from_row(row))
        return table

    def remember(self, table: Table) -> Table:
        """Keeps a table in memory, dropping idle ones beyond MAX_CACHED."""
        self.tables[table.row.id] = table
        # Oldest first; a table someone watches, plays at or the computer thinks about stays.
        for old_id in list(self.tables)[: max(0, len(self.tables) - MAX_CACHED)]:
            old = self.tables[old_id]
            if not (old.watchers or old.computing or old.lock.locked()):
                del self.tables[old_id]
        return table

    def seat(self, table: Table, token: str) -> str:
        seat = table.seat_of(token)
        if seat is None:
            raise ApiError(403, "this token opens no seat of this table")
        return seat

    # ---- changes: each under the table's lock, stored, then broadcast ----
    async def changed(self, table: Table) -> None:
        """After a stored change: the version goes up (as in the store) and every watcher gets the new state."""
        table.row.version += 1
        state = table.state()
        for entry in list(table.watchers):
            ws, seat = entry
            try:
                # A watcher that does not read holds up nobody: it is dropped (its page reconnects and resumes).
                await asyncio.wait_for(ws.send_json({**state, "type": "state", "you": seat}), SEND_SECONDS)
            except Exception:  # closed, or too slow
                table.watchers.discard(entry)
                with contextlib.suppress(Exception):
                    await ws.close(1013)
        self.schedule_computer(table)

    async def play(self, table: Table, seat: str, text: str, number: int) -> None:
        row = table.row
        if table.finished:
            raise ApiError(409, f"the game is over ({table.result()}): no more moves")
        if number != len(row.moves) + 1:
            raise ApiError(
                409,
                f"stale move: move {number} is not the next one; {len(row.moves)} moves are played, "
                f"so the next is number {len(row.moves) + 1} (reload the table)",
            )
        if table.to_move != seat:
            raise ApiError(409, f"it is {table.to_move}'s turn, not {seat}'s")
        # The engine judges the move on a copy: the table shows it only once it is stored.
        probe = table.game.copy()
        try:
            move_id = probe.parse_move(text)
            probe.play(move_id)
        except InvalidMoveError as e:
            raise ApiError(400, str(e)) from None
        except IllegalMoveError as e:
            raise ApiError(422, str(e)) from None
        name = str(probe.move_name(move_id))
        try:
            outcome = probe.outcome()
            result = None if outcome is None else outcome.result
            await self.write(self.store.add_move, row.id, number, name, seat, result)
        except StaleMoveError:
            # The store has a move this copy lacks (a copy dropped from memory played it): read it again.
            if self.tables.get(row.id) is table:
                del self.tables[row.id]
            raise ApiError(409, f"stale move: move {number} is already played (reload the table)") from None
        except sqlite3.Error:
            log.exception("storing a move failed")
            raise ApiError(503, "the move could not be stored: try again") from None
        table.apply(name)
        row.moves.append(MoveRow(number, name, seat))
        row.undo_by = None
        await self.changed(table)

    async def undo(self, table: Table, seat: str, action: str) -> None:
        row = table.row
        if row.resigned is not None:
            raise ApiError(409, "the game ended by resignation: nothing to undo")
        if action == "request":
            if row.undo_by is not None:
                raise ApiError(409, f"{row.undo_by} has already asked to undo")
            if table.moves_to_take_back(seat) == 0:
                raise ApiError(409, f"{seat} has no move to take back")
            if table.computer_seat() is not None:  # the computer always agrees
                await self._take_back(table, seat)
                return
            await self.write(self.store.set_undo_request, row.id, seat)
            row.undo_by = seat
        elif action in ("accept", "decline"):
            if row.undo_by is None or row.undo_by == seat:
                raise ApiError(409, f"there is no undo request from the other player to {action}")
            if action == "accept":
                await self._take_back(table, row.undo_by)
                return
            await self.write(self.store.set_undo_request, row.id, None)
            row.undo_by = None
        else:  # cancel
            if row.undo_by != seat:
                raise ApiError(409, "you have no undo request to cancel")
            await self.write(self.store.set_undo_request, row.id, None)
            row.undo_by = None
        await self.changed(table)

    async def _take_back(self, table: Table, seat: str) -> None:
        count = table.moves_to_take_back(seat)
        keep = len(table.row.moves) - count
        await self.write(self.store.take_back, table.row.id, keep)
        table.take_back(count)
        del table.row.moves[keep:]
        table.row.undo_by = None
        await self.changed(table)

    async def resign(self, table: Table, seat: str) -> None:
        if table.finished:
            raise ApiError(409, f"the game is over ({table.result()}): there is nothing to resign")
        await self.write(self.store.resign, table.row.id, seat)
        table.row.resigned = seat
        table.row.undo_by = None
        await self.changed(table)

    def new_row(self, game: str, options: dict[str, Any], keys: dict[str, bytes | None], level: str | None) -> TableRow:
        return TableRow(
            id=secrets.token_urlsafe(12),
            game=game,
            options=options,
            x_key=keys["X"],
            o_key=keys["O"],
            computer=level,
            created=time.time(),
        )

    async def rematch(self, table: Table, creator: str) -> str:
        row = table.row
        if row.rematch is not None:
            return row.rematch
        if not table.finished:
            raise ApiError(409, "a rematch starts when the game is over (resign to end it now)")
        # The colours swap, and each player keeps their token: the same link opens their new seat.
        new = self.new_row(row.game, row.options, {"X": row.o_key, "O": row.x_key}, row.computer)
        new.rematch_of = row.id
        await self.write(self.store.create_rematch, row.id, new, creator)
        row.rematch = new.id
        rematch = self.remember(Table.from_row(new))
        await self.changed(table)
        self.schedule_computer(rematch)
        return new.id

    # ---- the computer ------------------------------------------------------
    def schedule_computer(self, table: Table) -> None:
        computer = table.computer_seat()
        if computer is None or table.computing or table.to_move != computer:
            return
        table.computing = True
        task = asyncio.get_running_loop().create_task(self._computer_move(table))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _computer_move(self, table: Table) -> None:
        try:
            version, game, level = table.row.version, table.game.copy(), str(table.row.computer)
            # The search runs in C++ without the GIL in a worker thread: the other games go on meanwhile.
            move = await anyio.to_thread.run_sync(functools.partial(choose_move, game, level), limiter=self.limiter)
            async with table.lock:
                if table.row.version != version:
                    return  # the table changed meanwhile (an undo): the search was for another position
                table.computing = False
                seat = table.computer_seat()
                assert seat is not None
                await self.play(table, seat, move.name, len(table.row.moves) + 1)
        except ApiError as e:
            log.error("the computer's move was refused: %s", e.message)
        finally:
            if table.computing:
                table.computing = False
                self.schedule_computer(table)

    def resume_computers(self) -> None:
        """After a start: the computer moves wherever it is its turn."""
        for table_id in self.store.computer_tables():
            try:
                table = self.table(table_id)
            except Exception:
                log.exception("table %s could not be loaded", table_id)
                continue
            self.schedule_computer(table)
