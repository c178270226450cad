"""noughts serve: live updates, resuming, restarts (also kill -9 of a real server), concurrent moves, the computer."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sqlite3
import threading

import pytest

pytest.importorskip("starlette", reason="the serve extra (Starlette) is not installed")
pytest.importorskip("httpx2", reason="Starlette's test client needs httpx2")

import httpx2
import noughts
from noughts.serve import create_app
from noughts.serve.store import Store, TableRow, token_digest
from serve_helpers import Seat, new_table, start_server
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect


@pytest.fixture
def db(tmp_path):
    return tmp_path / "tables.sqlite3"


@pytest.fixture
def client(db):
    with TestClient(create_app(db, tables_per_client=10_000)) as c:
        yield c


def _hello(ws, token=None, have=0):
    ws.send_json({"type": "hello", "token": token, "have": have})
    message = ws.receive_json()
    assert message["type"] == "state", message
    return message


def test_the_opponents_move_arrives_live_and_spectators_see_no_token(client):
    t = new_table(client)
    seen = []
    with (
        client.websocket_connect(f"/api/tables/{t.id}/live") as o_ws,
        client.websocket_connect(f"/api/tables/{t.id}/live") as watcher,
    ):
        first = _hello(o_ws, t.o.token)
        assert first["you"] == "O" and first["number"] == 0
        assert _hello(watcher)["you"] is None
        t.play("b2")
        for ws in (o_ws, watcher):
            message = ws.receive_json()
            seen.append(message)
            assert message["number"] == 1 and message["last"] == "b2" and message["to_move"] == "O"
        assert seen[0]["legal"] == [m.name for m in _classic("b2").legal_moves()]
        t.play("a1")
        seen += [o_ws.receive_json(), watcher.receive_json()]
    text = json.dumps(seen)
    assert t.x.token not in text and t.o.token not in text


def _classic(*moves):
    g = noughts.Classic()
    for m in moves:
        g.play(m)
    return g


def test_a_page_that_reconnects_gets_the_moves_it_missed(client):
    t = new_table(client)
    for move in ["b2", "a1", "c3"]:
        t.play(move)
    with client.websocket_connect(f"/api/tables/{t.id}/live") as ws:
        resumed = _hello(ws, t.x.token, have=1)
        assert [m["move"] for m in resumed["new_moves"]] == ["a1", "c3"] and not resumed["reset"]
        assert resumed["number"] == 3 and resumed["since"] == 1
        # After an undo the page may be ahead of the server: it is told to start over.
        t.o.post("undo", {"action": "request"})
        ws.receive_json()
        t.x.post("undo", {"action": "accept"})
        assert ws.receive_json()["number"] == 1
        again = _hello(ws, t.x.token, have=3)
        assert again["reset"] and [m["move"] for m in again["new_moves"]] == ["b2"]


def test_live_refuses_forged_tokens_and_bad_messages(client):
    t = new_table(client)
    with client.websocket_connect(f"/api/tables/{t.id}/live") as ws:
        for bad, words in [
            ("not json", "JSON"),
            (json.dumps({"type": "move"}), "the only message"),
            (json.dumps({"type": "hello", "have": -1}), "have must be"),
            (json.dumps({"type": "hello", "token": 5}), "token must be"),
            (json.dumps({"type": "hello", "x": 1}), "unknown field"),
            ("x" * 2000, "at most 1024"),
        ]:
            ws.send_text(bad)
            reply = ws.receive_json()
            assert reply["type"] == "error" and words in reply["error"]
        assert _hello(ws)["number"] == 0  # still connected
        ws.send_json({"type": "hello", "token": "forged" * 5, "have": 0})
        assert "opens no seat" in ws.receive_json()["error"]
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4403
    with client.websocket_connect("/api/tables/abcdefghijklmnop/live") as ws:
        assert "no table" in ws.receive_json()["error"]
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4404


def test_a_restart_keeps_every_game_and_its_state(db):
    with TestClient(create_app(db)) as c:
        t = new_table(c, game="ultimate")
        for move in ["e5", "d4", "a1"]:
            t.play(move)
        t.o.post("undo", {"action": "request"})
        table_id, x, o = t.id, t.x.token, t.o.token
    with TestClient(create_app(db)) as c:
        x_seat, o_seat = Seat(c, table_id, x), Seat(c, table_id, o)
        state = o_seat.state()
        assert [m["move"] for m in state["moves"]] == ["e5", "d4", "a1"]
        assert state["undo_requested_by"] == "O" and state["you"] == "O"
        assert state["version"] == 4  # three moves and a request: a page drops anything older
        u = noughts.Ultimate()
        for move in ["e5", "d4", "a1"]:
            u.play(move)
        assert state["legal"] == [m.name for m in u.legal_moves()]
        assert o_seat.move(state["legal"][0], 4).status_code == 200
        assert x_seat.state()["number"] == 4


def test_concurrent_moves_for_one_game_are_serialised(db):
    async def race():
        app = create_app(db)
        transport = httpx2.ASGITransport(app=app)
        async with httpx2.AsyncClient(transport=transport, base_url="http://test") as c:
            r = await c.post("/api/tables", json={})
            token = r.json()["seats"]["X"].split("#k=")[1]
            table_id = r.json()["id"]
            moves = ["a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3"]
            replies = await asyncio.gather(
                *(
                    c.post(
                        f"/api/tables/{table_id}/moves",
                        json={"move": m, "number": 1},
                        headers={"authorization": f"Bearer {token}"},
                    )
                    for m in moves
                )
            )
            return table_id, replies

    table_id, replies = asyncio.run(race())
    codes = sorted(r.status_code for r in replies)
    assert codes == [200] + [409] * 7
    assert all("stale" in r.json()["error"] for r in replies if r.status_code == 409)
    winner = next(r.json()["move"] for r in replies if r.status_code == 200)
    with sqlite3.connect(db) as con:
        assert con.execute("SELECT number, move FROM moves WHERE table_id = ?", (table_id,)).fetchall() == [(1, winner)]


def test_the_database_refuses_a_second_move_with_the_same_number(db):
    store = Store(db)
    row = TableRow("abcdefghijkl", "classic", {"rows": 3, "cols": 3}, b"x", b"o", None, 0.0)
    store.create_table(row, "test")
    store.add_move(row.id, 1, "b2", "X")
    from noughts.serve.store import StaleMoveError

    with pytest.raises(StaleMoveError):
        store.add_move(row.id, 1, "a1", "X")
    assert [m.move for m in store.table(row.id).moves] == ["b2"]
    (mode,) = store._db.execute("PRAGMA journal_mode").fetchone()
    (sync,) = store._db.execute("PRAGMA synchronous").fetchone()
    assert mode == "wal" and sync == 2  # FULL
    store.close()


# ---- the computer ----------------------------------------------------------
def test_the_computer_answers_and_agrees_to_undo(client):
    r = client.post("/api/tables", json={"opponent": "computer", "level": "easy"})
    body = r.json()
    assert list(body["seats"]) == ["X"]
    me = Seat(client, body["id"], body["seats"]["X"].split("#k=")[1])
    with client.websocket_connect(f"/api/tables/{me.id}/live") as ws:
        assert _hello(ws, me.token)["players"] == {"X": "player", "O": "computer (easy)"}
        assert me.move("b2", 1).status_code == 200
        assert ws.receive_json()["number"] == 1
        reply = ws.receive_json()
        assert reply["number"] == 2 and reply["moves"][1]["seat"] == "O" and reply["to_move"] == "X"
        assert reply["moves"][1]["move"] in [m.name for m in _classic("b2").legal_moves()]
        state = me.post("undo", {"action": "request"}).json()
        assert state["number"] == 0 and state["to_move"] == "X"


def test_the_computer_moves_first_when_it_plays_x_and_after_a_restart(db):
    # A table where the computer is to move, as a crash could leave it.
    store = Store(db)
    row = TableRow("computer-first", "quantum", {}, None, token_digest("t" * 32), "easy", 0.0)
    store.create_table(row, "test")
    store.close()
    with TestClient(create_app(db)) as c, c.websocket_connect(f"/api/tables/{row.id}/live") as ws:
        state = _hello(ws, "t" * 32)
        while state["number"] == 0:
            state = ws.receive_json()
        assert state["moves"][0]["seat"] == "X" and state["to_move"] == "O" and state["you"] == "O"


def test_a_thinking_computer_blocks_no_other_game(client, monkeypatch):
    from noughts.serve import server as server_module

    release = threading.Event()
    real = server_module.choose_move

    def slow_choose_move(game, level, **kwargs):
        assert release.wait(60), "the test never released the computer"
        return real(game, level, **kwargs)

    monkeypatch.setattr(server_module, "choose_move", slow_choose_move)
    r = client.post("/api/tables", json={"opponent": "computer", "level": "easy", "seat": "O"})
    me = Seat(client, r.json()["id"], r.json()["seats"]["O"].split("#k=")[1])
    other = new_table(client)
    with client.websocket_connect(f"/api/tables/{me.id}/live") as ws:
        assert _hello(ws, me.token)["number"] == 0
        # The computer is thinking (blocked); another game is played meanwhile.
        for move in ["a1", "b2", "c3", "b1"]:
            other.play(move)
        assert me.state()["number"] == 0
        release.set()
        state = ws.receive_json()
        assert state["number"] == 1 and state["moves"][0]["seat"] == "X"


# ---- a real server ---------------------------------------------------------
def test_kill_9_loses_no_acknowledged_move(tmp_path):
    db = tmp_path / "killed.sqlite3"
    server = start_server(db)
    try:
        with httpx2.Client(base_url=server.url) as c:
            r = c.post("/api/tables", json={"game": "classic", "size": 4})
            body = r.json()
            t = new_table_from(c, body)
            played = []
            for move in ["a1", "b2", "c3", "d4", "a2", "b3"]:
                t.play(move)
                played.append(move)
    finally:
        os.kill(server.process.pid, signal.SIGKILL)
        server.process.wait()
    server = start_server(db)
    try:
        with httpx2.Client(base_url=server.url) as c:
            state = c.get(f"/api/tables/{body['id']}").json()
            assert [m["move"] for m in state["moves"]] == played
            t = new_table_from(c, body)
            t.play("c4")
            assert c.get(f"/api/tables/{body['id']}").json()["number"] == 7
    finally:
        server.stop()


def new_table_from(c, body):
    from serve_helpers import Table

    x, o = (body["seats"][s].split("#k=")[1] for s in "XO")
    return Table(body["id"], Seat(c, body["id"], x), Seat(c, body["id"], o))


def test_idle_tables_leave_memory_and_come_back_from_the_store(client, monkeypatch):
    from noughts.serve import server as server_module

    monkeypatch.setattr(server_module, "MAX_CACHED", 2)
    tables = [new_table(client) for _ in range(4)]
    tables[0].play("b2")
    for t in tables[1:]:
        t.play("a1")
    server = client.app.state.server
    assert len(server.tables) <= 4
    for t in tables[1:]:
        client.get(f"/api/tables/{t.id}")
    assert tables[0].id not in server.tables
    assert tables[0].x.state()["moves"][0]["move"] == "b2"  # read again from the store
    tables[0].play("a1")
    assert [m["move"] for m in tables[0].o.state()["moves"]] == ["b2", "a1"]


def test_a_socket_that_never_says_hello_is_closed(client, monkeypatch):
    from noughts.serve import app as app_module

    monkeypatch.setattr(app_module, "HELLO_SECONDS", 0.05)
    t = new_table(client)
    with client.websocket_connect(f"/api/tables/{t.id}/live") as ws:
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4408


def test_finished_tables_are_not_looked_at_again_after_a_restart(db):
    with TestClient(create_app(db)) as c:
        r = c.post("/api/tables", json={"opponent": "computer", "level": "easy"})
        me = Seat(c, r.json()["id"], r.json()["seats"]["X"].split("#k=")[1])
        r2 = c.post("/api/tables", json={"opponent": "computer", "level": "easy"})
        other = Seat(c, r2.json()["id"], r2.json()["seats"]["X"].split("#k=")[1])
        assert me.post("resign").status_code == 200
    store = Store(db)
    assert store.computer_tables() == [other.id]
    with sqlite3.connect(db) as con:
        assert con.execute("SELECT result FROM tables WHERE id = ?", (me.id,)).fetchone() == ("0-1",)
    store.close()


def test_the_result_is_stored_with_the_move_that_ends_the_game_and_cleared_by_an_undo(client, db):
    t = new_table(client)
    for move in ["a1", "a2", "b1", "b2", "c1"]:
        t.play(move)

    def stored():
        with sqlite3.connect(db) as con:
            return con.execute("SELECT result FROM tables WHERE id = ?", (t.id,)).fetchone()[0]

    assert stored() == "1-0"
    t.x.post("undo", {"action": "request"})
    t.o.post("undo", {"action": "accept"})
    assert stored() is None and t.x.state()["number"] == 4
