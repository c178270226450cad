"""The web application: pages, the JSON API and live updates over WebSocket (Starlette).

Routes (docs/serve.md has the protocol):

- ``GET /``: the page that creates a table; ``GET /t/{id}``: a table (a seat's
  link carries its token in the URL fragment, which browsers never send);
  ``GET /rules/{game}``: the rules in English, Dutch, Greek or Danish.
- ``POST /api/tables``: a new table; ``GET /api/tables/{id}``: its state;
  ``POST /api/tables/{id}/moves|undo|resign|rematch`` with the seat's token
  as ``Authorization: Bearer <token>``; ``GET /api/tables/{id}/record``.
- ``WS /api/tables/{id}/live``: the client says ``{"type": "hello", "token":
  ..., "have": n}`` and gets the state now and after every change.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import re
import secrets
import sqlite3
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

from noughts.errors import IllegalMoveError, InvalidMoveError
from noughts.levels import LEVELS, choose_move
from noughts.records import Record
from noughts.serve import rules
from noughts.serve.store import MoveRow, StaleMoveError, Store, TableRow, token_digest
from noughts.serve.tables import SEATS, Table

__all__ = ["create_app"]

log = logging.getLogger("noughts.serve")

STATIC = Path(__file__).parent / "static"

#: The largest request body (bytes) and WebSocket message (characters) accepted.
MAX_BODY = 2048
MAX_MESSAGE = 1024
#: Seconds a new WebSocket has to say hello, and a watcher has to take an update.
HELLO_SECONDS = 30.0
SEND_SECONDS = 5.0

CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
)
SECURITY_HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
]

#: Tables kept in memory; idle ones beyond this are dropped (and read again from the store when needed).
MAX_CACHED = 2000

_TABLE_ID = re.compile(r"[A-Za-z0-9_-]{8,32}\Z")


class ApiError(Exception):
    """A refused request: its HTTP status and a message for the user."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


# ---------------------------------------------------------------------------
# Request checks
# ---------------------------------------------------------------------------
def _bearer(request: Request) -> str:
    header = request.headers.get("authorization")
    if header is None:
        raise ApiError(401, "this needs a seat's token: send it as 'Authorization: Bearer <token>'")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token or len(token) > 100:
        raise ApiError(401, "the Authorization header must be 'Bearer <token>' with the token from a seat's link")
    return token.strip()


async def _json_object(request: Request) -> dict[str, Any]:
    body = await request.body()
    if not body:
        return {}
    # JSON only: a form on another site can post text/plain, but not this without the browser asking first.
    if request.headers.get("content-type", "").split(";")[0].strip().lower() != "application/json":
        raise ApiError(415, "the request body must be JSON, sent as Content-Type: application/json")
    try:
        data = json.loads(body)
    except (ValueError, UnicodeDecodeError):
        raise ApiError(400, "the request body must be JSON") from None
    if not isinstance(data, dict):
        raise ApiError(400, f"the request body must be a JSON object, not {type(data).__name__}")
    return data


def _only(data: dict[str, Any], allowed: tuple[str, ...]) -> None:
    unknown = sorted(set(data) - set(allowed))
    if unknown:
        raise ApiError(400, f"unknown field {unknown[0]!r}: the fields are {', '.join(allowed)}")


def _choice(data: dict[str, Any], name: str, choices: tuple[Any, ...], default: Any) -> Any:
    value = data.get(name, default)
    if isinstance(value, bool) != isinstance(choices[0], bool) or value not in choices:
        allowed = ", ".join(json.dumps(c) for c in choices)
        raise ApiError(400, f"{name} must be one of {allowed}, not {json.dumps(value)[:40]}")
    return value


def parse_settings(data: dict[str, Any]) -> tuple[str, dict[str, Any], str | None, str]:
    """A table's settings from a create request: (game, options, computer level or None, creator's seat)."""
    _only(data, ("game", "size", "misere", "free_choice", "gravity", "opponent", "level", "seat"))
    game = _choice(data, "game", ("classic", "ultimate", "quantum"), "classic")
    options: dict[str, Any] = {}
    if game == "classic":
        size = _choice(data, "size", (3, 4, 5), 3)
        options = {"rows": size, "cols": size}
        for flag in ("misere", "free_choice", "gravity"):
            options[flag] = _choice(data, flag, (False, True), False)
    else:
        given = [name for name in ("size", "misere", "free_choice", "gravity") if name in data]
        if given:
            raise ApiError(400, f"{game} has no settings: {given[0]!r} is only for classic")
    opponent = _choice(data, "opponent", ("friend", "computer"), "friend")
    level = _choice(data, "level", LEVELS, "medium") if opponent == "computer" else None
    if opponent == "friend" and "level" in data:
        raise ApiError(400, "level is only for a game against the computer (opponent 'computer')")
    seat = _choice(data, "seat", SEATS, "X")
    return game, options, level, seat


def _move_request(data: dict[str, Any]) -> tuple[str, int]:
    _only(data, ("move", "number"))
    move, number = data.get("move"), data.get("number")
    if not isinstance(move, str) or not 1 <= len(move) <= 32:
        raise ApiError(400, 'move must be the move\'s notation as a string of 1 to 32 characters, e.g. "b2"')
    if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= 10_000:
        raise ApiError(400, "number must be the move's number, a whole number from 1: the moves played so far + 1")
    return move, number


# ---------------------------------------------------------------------------
# Middleware: body size limit and security headers on every response
# ---------------------------------------------------------------------------
class Guard:
    def __init__(self, app: ASGIApp, max_body: int = MAX_BODY) -> None:
        self.app = app
        self.max_body = max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = list(message.get("headers", [])) + SECURITY_HEADERS
            await send(message)

        declared = dict(scope.get("headers") or []).get(b"content-length")
        too_big = JSONResponse({"error": f"the request body is larger than {self.max_body} bytes"}, 413)
        if declared is not None and (not declared.isdigit() or int(declared) > self.max_body):
            await too_big(scope, receive, send_with_headers)
            return
        body = b""
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body += message.get("body", b"")
            if len(body) > self.max_body:
                await too_big(scope, receive, send_with_headers)
                return
            if not message.get("more_body"):
                break
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send_with_headers)


# ---------------------------------------------------------------------------
# The server's state
# ---------------------------------------------------------------------------
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
        if not _TABLE_ID.match(table_id):
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


# ---------------------------------------------------------------------------
# Handlers
# ---------------------------------------------------------------------------
Handler = Callable[[Request], Awaitable[Response]]


def _api(handler: Callable[[Server, Request], Awaitable[Response]]) -> Handler:
    """Wraps a handler: its refusals become JSON errors with their status."""

    @functools.wraps(handler)
    async def wrapped(request: Request) -> Response:
        server: Server = request.app.state.server
        try:
            response = await handler(server, request)
        except ApiError as e:
            response = JSONResponse({"error": e.message}, e.status)
        response.headers["cache-control"] = "no-store"
        return response

    return wrapped


def _client(request: Request) -> str:
    return request.client.host if request.client else "unknown"


@_api
async def create_table(server: Server, request: Request) -> Response:
    game, options, level, seat = parse_settings(await _json_object(request))
    client = _client(request)
    recent = server.store.tables_created_since(client, time.time() - server.window)
    if recent >= server.tables_per_client:
        minutes = max(1, round(server.window / 60))
        raise ApiError(
            429, f"too many tables: at most {server.tables_per_client} per {minutes} minutes from one address"
        )
    tokens = {s: secrets.token_urlsafe(24) for s in SEATS}
    if level is not None:  # the computer's seat has no token
        tokens = {seat: tokens[seat]}
    keys = {s: token_digest(tokens[s]) if s in tokens else None for s in SEATS}
    row = server.new_row(game, options, keys, level)
    await server.write(server.store.create_table, row, client)
    table = server.remember(Table.from_row(row))
    server.schedule_computer(table)
    return JSONResponse(
        {
            "id": row.id,
            "you": seat,
            "seats": {s: f"/t/{row.id}#k={t}" for s, t in tokens.items()},
            "spectator": f"/t/{row.id}",
        },
        201,
    )


@_api
async def get_table(server: Server, request: Request) -> Response:
    table = server.table(request.path_params["id"])
    seat = None
    if "authorization" in request.headers:
        seat = server.seat(table, _bearer(request))
    return JSONResponse({**table.state(), "you": seat})


@_api
async def post_move(server: Server, request: Request) -> Response:
    table = server.table(request.path_params["id"])
    token = _bearer(request)
    move, number = _move_request(await _json_object(request))
    seat = server.seat(table, token)
    async with table.lock:
        await server.play(table, seat, move, number)
        return JSONResponse({"number": number, "move": table.row.moves[-1].move, "state": table.state()})


@_api
async def post_undo(server: Server, request: Request) -> Response:
    table = server.table(request.path_params["id"])
    token = _bearer(request)
    data = await _json_object(request)
    _only(data, ("action",))
    action = _choice(data, "action", ("request", "accept", "decline", "cancel"), None)
    seat = server.seat(table, token)
    async with table.lock:
        await server.undo(table, seat, action)
        return JSONResponse(table.state())


@_api
async def post_resign(server: Server, request: Request) -> Response:
    table = server.table(request.path_params["id"])
    seat = server.seat(table, _bearer(request))
    async with table.lock:
        await server.resign(table, seat)
        return JSONResponse(table.state())


@_api
async def post_rematch(server: Server, request: Request) -> Response:
    table = server.table(request.path_params["id"])
    seat = server.seat(table, _bearer(request))
    async with table.lock:
        new_id = await server.rematch(table, _client(request))
    you = "O" if seat == "X" else "X"
    return JSONResponse({"id": new_id, "you": you, "url": f"/t/{new_id}"})


@_api
async def get_record(server: Server, request: Request) -> Response:
    table = server.table(request.path_params["id"])
    players = table.players()
    headers: dict[str, object] = {
        "Event": "noughts serve",
        "Date": time.strftime("%Y.%m.%d", time.gmtime(table.row.created)),
        "X": players["X"],
        "O": players["O"],
    }
    if table.row.resigned is not None:
        headers["Result"] = table.result()
        headers["Termination"] = f"{table.row.resigned} resigned"
    record = Record.from_game(table.game, **headers)
    return PlainTextResponse(
        record.to_text(),
        headers={"content-disposition": f'attachment; filename="noughts-{table.row.id}.txt"'},
    )


async def live(ws: WebSocket) -> None:
    server: Server = ws.app.state.server
    await ws.accept()
    entry: tuple[WebSocket, str | None] | None = None
    joined: Table | None = None  # the table whose watchers hold entry
    try:
        try:
            table = server.table(ws.path_params["id"])
        except ApiError as e:
            await ws.send_json({"type": "error", "error": e.message})
            await ws.close(4404)
            return
        while True:
            if entry is None:  # a connection that never says hello is closed
                try:
                    text = await asyncio.wait_for(ws.receive_text(), HELLO_SECONDS)
                except asyncio.TimeoutError:
                    await ws.close(4408)
                    return
            else:
                text = await ws.receive_text()
            try:
                token, have = _hello(text)
                # Looked up again: the copy in memory may have been dropped (and read again) while we waited.
                table = server.table(ws.path_params["id"])
                seat = server.seat(table, token) if token is not None else None
            except ApiError as e:
                await ws.send_json({"type": "error", "error": e.message})
                if e.status == 403:
                    await ws.close(4403)
                    return
                continue
            if entry is not None and joined is not None:
                joined.watchers.discard(entry)
            entry = (ws, seat)
            # Under the lock: no change slips between this state and joining the watchers.
            async with table.lock:
                state = table.state()
                moves = state["moves"]
                resume: dict[str, Any] = {"since": have, "new_moves": moves[have:] if have <= len(moves) else moves}
                resume["reset"] = have > len(moves)
                await ws.send_json({**state, **resume, "type": "state", "you": seat})
                table.watchers.add(entry)
                joined = table
    except WebSocketDisconnect:
        pass
    finally:
        if entry is not None and joined is not None:
            joined.watchers.discard(entry)


def _hello(text: str) -> tuple[str | None, int]:
    if len(text) > MAX_MESSAGE:
        raise ApiError(413, f"a message is at most {MAX_MESSAGE} characters")
    try:
        data = json.loads(text)
    except ValueError:
        raise ApiError(400, "a message must be JSON") from None
    if not isinstance(data, dict) or data.get("type") != "hello":
        raise ApiError(
            400, 'the only message is {"type": "hello", "token": <seat token or null>, "have": <moves seen>}'
        )
    _only(data, ("type", "token", "have"))
    token, have = data.get("token"), data.get("have", 0)
    if token is not None and (not isinstance(token, str) or len(token) > 100):
        raise ApiError(400, "token must be a seat's token (a string) or null for a spectator")
    if isinstance(have, bool) or not isinstance(have, int) or not 0 <= have <= 10_000:
        raise ApiError(400, "have must be the number of moves the page has, a whole number from 0")
    return token, have


# ---- pages -------------------------------------------------------------------
async def index_page(request: Request) -> Response:
    return FileResponse(STATIC / "index.html", headers={"cache-control": "no-cache"})


async def favicon(request: Request) -> Response:
    return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")


async def table_page(request: Request) -> Response:
    if not _TABLE_ID.match(request.path_params["id"]):
        return HTMLResponse(rules.not_found_page(), 404)
    return FileResponse(STATIC / "table.html", headers={"cache-control": "no-cache"})


async def rules_page(request: Request) -> Response:
    game = request.path_params.get("game")
    lang = rules.language(request.query_params.get("lang"), request.headers.get("accept-language"))
    if game is None:
        return HTMLResponse(rules.index_page(lang))
    if game not in rules.GAMES:
        return HTMLResponse(rules.not_found_page(), 404)
    return HTMLResponse(rules.rules_page(game, lang), headers={"content-language": lang})


async def _not_found(request: Request, exc: Exception) -> Response:
    if request.url.path.startswith("/api/"):
        return JSONResponse({"error": f"no such address: {request.url.path[:80]}"}, 404)
    return HTMLResponse(rules.not_found_page(), 404)


async def _method_not_allowed(request: Request, exc: Exception) -> Response:
    return JSONResponse({"error": f"{request.method} is not allowed here"}, 405)


async def _internal(request: Request, exc: Exception) -> Response:
    log.exception("unexpected error on %s", request.url.path, exc_info=exc)
    return JSONResponse({"error": "internal error: the request was not carried out"}, 500)


def create_app(
    db: str | Path,
    *,
    tables_per_client: int = 30,
    window: float = 3600.0,
    computer_threads: int = 2,
) -> Starlette:
    """The ASGI application on the database file `db` (created if missing).

    At most `tables_per_client` tables are created per client address in
    `window` seconds; the computer's searches run in at most
    `computer_threads` threads at a time.
    """
    store = Store(db)
    server = Server(store, tables_per_client, window, computer_threads)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        server.resume_computers()
        try:
            yield
        finally:
            for task in list(server.tasks):
                task.cancel()
            store.close()

    routes = [
        Route("/", index_page),
        Route("/favicon.ico", favicon),
        Route("/t/{id}", table_page),
        Route("/rules", rules_page),
        Route("/rules/{game}", rules_page),
        Route("/api/tables", create_table, methods=["POST"]),
        Route("/api/tables/{id}", get_table),
        Route("/api/tables/{id}/moves", post_move, methods=["POST"]),
        Route("/api/tables/{id}/undo", post_undo, methods=["POST"]),
        Route("/api/tables/{id}/resign", post_resign, methods=["POST"]),
        Route("/api/tables/{id}/rematch", post_rematch, methods=["POST"]),
        Route("/api/tables/{id}/record", get_record),
        WebSocketRoute("/api/tables/{id}/live", live),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        exception_handlers={404: _not_found, 405: _method_not_allowed, Exception: _internal},
    )
    app.state.server = server
    app.add_middleware(Guard)
    return app
