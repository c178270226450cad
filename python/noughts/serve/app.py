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
import logging
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from noughts.records import Record
from noughts.serve import rules
from noughts.serve.checks import ApiError, bearer, choice, hello, json_object, move_request, only_fields, parse_settings
from noughts.serve.guard import Guard
from noughts.serve.server import TABLE_ID, Server
from noughts.serve.store import Store, token_digest
from noughts.serve.tables import SEATS, Table

__all__ = ["create_app"]

log = logging.getLogger("noughts.serve")

STATIC = Path(__file__).parent / "static"

#: Seconds a new WebSocket has to say hello.
HELLO_SECONDS = 30.0


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
    game, options, level, seat = parse_settings(await json_object(request))
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
        seat = server.seat(table, bearer(request))
    return JSONResponse({**table.state(), "you": seat})


@_api
async def post_move(server: Server, request: Request) -> Response:
    table = server.table(request.path_params["id"])
    token = bearer(request)
    move, number = move_request(await json_object(request))
    seat = server.seat(table, token)
    async with table.lock:
        await server.play(table, seat, move, number)
        return JSONResponse({"number": number, "move": table.row.moves[-1].move, "state": table.state()})


@_api
async def post_undo(server: Server, request: Request) -> Response:
    table = server.table(request.path_params["id"])
    token = bearer(request)
    data = await json_object(request)
    only_fields(data, ("action",))
    action = choice(data, "action", ("request", "accept", "decline", "cancel"), None)
    seat = server.seat(table, token)
    async with table.lock:
        await server.undo(table, seat, action)
        return JSONResponse(table.state())


@_api
async def post_resign(server: Server, request: Request) -> Response:
    table = server.table(request.path_params["id"])
    seat = server.seat(table, bearer(request))
    async with table.lock:
        await server.resign(table, seat)
        return JSONResponse(table.state())


@_api
async def post_rematch(server: Server, request: Request) -> Response:
    table = server.table(request.path_params["id"])
    seat = server.seat(table, bearer(request))
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
                token, have = hello(text)
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


# ---- pages -------------------------------------------------------------------
async def index_page(request: Request) -> Response:
    return FileResponse(STATIC / "index.html", headers={"cache-control": "no-cache"})


async def favicon(request: Request) -> Response:
    return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")


async def table_page(request: Request) -> Response:
    if not TABLE_ID.match(request.path_params["id"]):
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
