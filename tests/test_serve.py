"""noughts serve: the HTTP API (creating tables, moves, tokens, undo, resign, rematch, records, pages, bad input)."""

from __future__ import annotations

import json
import re

import pytest

pytest.importorskip("starlette", reason="the serve extra (Starlette) is not installed")
pytest.importorskip("httpx2", reason="Starlette's test client needs httpx2")

import noughts
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from noughts.serve import create_app
from serve_helpers import Seat, new_table
from starlette.testclient import TestClient


@pytest.fixture
def client(tmp_path):
    with TestClient(create_app(tmp_path / "tables.sqlite3", tables_per_client=10_000)) as c:
        yield c


def test_a_table_has_a_link_per_seat_and_a_spectator_link(client):
    r = client.post("/api/tables", json={"game": "classic", "size": 4, "misere": True})
    assert r.status_code == 201
    body = r.json()
    x, o = (body["seats"][s].split("#k=")[1] for s in "XO")
    assert x != o and len(x) >= 32
    assert body["spectator"] == f"/t/{body['id']}"
    state = client.get(body["spectator"].replace("/t/", "/api/tables/")).json()
    assert state["title"] == "Classic 4×4, four in a row, misère"
    assert state["options"] == {"rows": 4, "cols": 4, "misere": True, "free_choice": False, "gravity": False}
    assert state["legal"] == [m.name for m in noughts.Classic(4, 4, misere=True).legal_moves()]
    assert state["you"] is None and state["to_move"] == "X"
    # The tokens are in nobody's state.
    assert x not in json.dumps(state) and o not in json.dumps(state)


def test_a_game_to_its_end_with_the_line_explained_and_the_record(client):
    t = new_table(client)
    for move in ["a1", "a2", "b2", "a3", "c3"]:
        t.play(move)
    state = t.x.state()
    assert state["finished"] and state["result"] == "1-0" and state["legal"] == []
    assert state["status"] == "Game over: 1-0."
    game = noughts.Classic()
    for move in ["a1", "a2", "b2", "a3", "c3"]:
        game.play(move)
    assert state["outcome"]["cells"] == ["a1", "b2", "c3"]
    assert bin(game.winning_line()).count("1") == 3
    assert "X wins with 3 in a row (a1 b2 c3)" in state["outcome"]["text"]
    assert state["last"] == "c3" and 'class="win-line"' in state["svg"]
    r = client.get(f"/api/tables/{t.id}/record")
    assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
    record = noughts.Record.from_text(r.text)
    assert [m.name for m in record.moves] == ["a1", "a2", "b2", "a3", "c3"] and record.result == "1-0"
    # No more moves once it is over.
    r = t.o.post("moves", {"move": "b1", "number": 6})
    assert r.status_code == 409 and "over" in r.json()["error"]


def test_misere_explains_who_completed_the_line(client):
    t = new_table(client, misere=True)
    for move in ["a1", "a2", "b1", "b2", "c1"]:
        t.play(move)
    outcome = t.x.state()["outcome"]
    assert outcome["winner"] == "O" and outcome["how"] == "misere_line"
    assert "X completed 3 in a row (a1 b1 c1)" in outcome["text"]


def test_gravity_and_free_choice_moves_are_the_engines_notation(client):
    t = new_table(client, gravity=True, free_choice=True)
    state = t.x.state()
    assert state["legal"] == [m.name for m in noughts.Classic(gravity=True, free_choice=True).legal_moves()]
    t.play(state["legal"][1])
    assert t.x.state()["moves"][0]["move"] == noughts.Classic(gravity=True, free_choice=True).legal_moves()[1].name


def test_quantum_collapse_says_where_the_marks_landed(client):
    t = new_table(client, game="quantum")
    t.play("a1-b2")
    t.play("a1-b2")
    state = t.x.state()
    assert state["to_move"] == "X" and state["legal"] == ["@a1", "@b2"]
    assert state["status"] == "X to move: mark o2 (a1-b2) closed a cycle; choose where it lands: @a1 or @b2."
    t.x.move("@a1", state["number"] + 1)
    state = t.x.state()
    assert state["moves"][-1]["note"] == "x1 landed in b2, o2 landed in a1"


def _earlier_line_game() -> list[str]:
    """A Quantum game the earlier-line rule decides, found by seeded random play."""
    import random

    rng = random.Random(7)
    for _ in range(20_000):
        game = noughts.Quantum()
        while not game.is_over():
            game.play(rng.choice(game.legal_moves()))
        if game.termination == noughts.Termination.EARLIER_LINE:
            return [m.name for m in game.history]
    raise AssertionError("no earlier-line game in 20,000 random games")


def test_quantum_earlier_line_rule_is_explained_with_the_engines_mark_numbers(client):
    moves = _earlier_line_game()
    t = new_table(client, game="quantum")
    for move in moves:
        t.play_as_mover(move)
    game = noughts.Quantum()
    for move in moves:
        game.play(move)
    x_time, o_time = game.line_times()
    outcome = t.x.state()["outcome"]
    assert outcome["how"] == "earlier_line" and outcome["winner"] == game.winner.name
    assert f"number {x_time}" in outcome["text"] and f"number {o_time}" in outcome["text"]
    assert "landed in" in outcome["text"] and "the earlier line wins" in outcome["text"]


def test_ultimate_plays_and_draws_from_the_engine(client):
    t = new_table(client, game="ultimate")
    t.play("e5")
    state = t.o.state()
    assert state["legal"] == [m.name for m in _ultimate_after("e5").legal_moves()]
    assert state["status"] == "O to move in board 4 (d4-f6)."


def _ultimate_after(*moves: str) -> noughts.Ultimate:
    u = noughts.Ultimate()
    for move in moves:
        u.play(move)
    return u


# ---- who may do what -------------------------------------------------------
def test_missing_forged_and_wrong_seat_tokens_are_refused(client):
    t = new_table(client)
    r = client.post(f"/api/tables/{t.id}/moves", json={"move": "b2", "number": 1})
    assert r.status_code == 401 and "token" in r.json()["error"]
    forged = Seat(client, t.id, t.x.token[:-1] + ("A" if t.x.token[-1] != "A" else "B"))
    r = forged.post("moves", {"move": "b2", "number": 1})
    assert r.status_code == 403 and "opens no seat" in r.json()["error"]
    r = client.post(f"/api/tables/{t.id}/moves", json={"move": "b2", "number": 1}, headers={"authorization": "b2"})
    assert r.status_code == 401
    r = t.o.post("moves", {"move": "b2", "number": 1})
    assert r.status_code == 409 and "X's turn" in r.json()["error"]
    # The other table's token opens nothing here.
    other = new_table(client)
    r = other.x.post_to(t.id, "moves", {"move": "b2", "number": 1})
    assert r.status_code == 403
    assert t.x.state()["number"] == 0


def test_a_stale_move_number_is_refused_with_the_next_number(client):
    t = new_table(client)
    t.play("b2")
    r = t.x.post("moves", {"move": "a1", "number": 1})
    assert r.status_code == 409 and "the next is number 2" in r.json()["error"]
    r = t.o.post("moves", {"move": "a1", "number": 3})
    assert r.status_code == 409 and "stale" in r.json()["error"]
    assert [m["move"] for m in t.x.state()["moves"]] == ["b2"]


@pytest.mark.parametrize(
    "body, status, words",
    [
        ({"move": "z9", "number": 1}, 422, "off the 3x3 board"),
        ({"move": "?", "number": 1}, 400, "?"),
        ({"move": "b2", "number": "1"}, 400, "number"),
        ({"move": "b2", "number": True}, 400, "number"),
        ({"move": "b2"}, 400, "number"),
        ({"move": 4, "number": 1}, 400, "move"),
        ({"move": "b" * 33, "number": 1}, 400, "1 to 32"),
        ({"move": "b2", "number": 1, "seat": "O"}, 400, "unknown field 'seat'"),
        ({"move": "<script>alert(1)</script>", "number": 1}, 400, ""),
    ],
)
def test_malformed_moves_get_a_4xx_and_change_nothing(client, body, status, words):
    t = new_table(client)
    r = t.x.post("moves", body)
    assert r.status_code == status and words in r.json()["error"]
    assert t.x.state()["number"] == 0


@pytest.mark.parametrize(
    "body, words",
    [
        ({"game": "chess"}, "game must be one of"),
        ({"size": 6}, "size must be one of 3, 4, 5"),
        ({"size": "3"}, "size must be one of"),
        ({"size": True}, "size must be one of"),
        ({"misere": "yes"}, "misere must be one of false, true"),
        ({"misere": 1}, "misere must be one of false, true"),
        ({"game": "ultimate", "gravity": True}, "only for classic"),
        ({"opponent": "cat"}, "opponent must be one of"),
        ({"opponent": "computer", "level": "expert"}, "level must be one of"),
        ({"level": "easy"}, "only for a game against the computer"),
        ({"seat": "x"}, "seat must be one of"),
        ({"colour": "X"}, "unknown field 'colour'"),
    ],
)
def test_bad_settings_are_refused_with_what_is_allowed(client, body, words):
    r = client.post("/api/tables", json=body)
    assert r.status_code == 400 and words in r.json()["error"]


def test_bodies_that_are_not_json_objects_or_too_large(client):
    for content in (b"{", b"[1, 2]", b'"text"', b"\xff\xfe"):
        r = client.post("/api/tables", content=content, headers={"content-type": "application/json"})
        assert r.status_code == 400 and "JSON" in r.json()["error"]
    r = client.post("/api/tables", content=b'{"game": "classic"}', headers={"content-type": "text/plain"})
    assert r.status_code == 415 and "application/json" in r.json()["error"]
    r = client.post("/api/tables", content=b"{" + b" " * 5000 + b"}", headers={"content-type": "application/json"})
    assert r.status_code == 413 and "larger than" in r.json()["error"]


def test_unknown_tables_and_addresses(client):
    assert client.get("/api/tables/no").status_code == 404
    r = client.get("/api/tables/abcdefghijklmnop")
    assert r.status_code == 404 and "no table" in r.json()["error"]
    assert client.get("/api/nothing").status_code == 404
    r = client.get("/t/<script>alert(1)</script>")
    assert r.status_code == 404 and "<script>alert" not in r.text
    assert client.delete("/api/tables").status_code == 405


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats() | st.text(max_size=40),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=4),
    max_leaves=12,
)
fields = st.dictionaries(
    st.sampled_from(["game", "size", "misere", "free_choice", "gravity", "opponent", "level", "seat", "x"]),
    json_values,
    max_size=5,
)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=fields | json_values)
def test_any_create_body_gets_a_table_or_a_clear_4xx(client, body):
    # json.dumps writes NaN and Infinity, which Python's reader (the server's) accepts.
    r = client.post("/api/tables", content=json.dumps(body), headers={"content-type": "application/json"})
    assert r.status_code in (201, 400, 429), r.text
    if r.status_code != 201:
        assert r.json()["error"]


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=st.dictionaries(st.sampled_from(["move", "number", "extra"]), json_values, max_size=3) | json_values)
def test_any_move_body_gets_an_answer_never_a_500(client, body):
    t = new_table(client, cache=True)
    headers = {**t.x.headers(), "content-type": "application/json"}
    r = client.post(f"/api/tables/{t.id}/moves", content=json.dumps(body), headers=headers)
    assert r.status_code in (200, 400, 409, 422), r.text
    if r.status_code == 200:
        t.x.undo_all()


def test_tables_per_client_are_limited(tmp_path):
    with TestClient(create_app(tmp_path / "t.sqlite3", tables_per_client=2)) as c:
        assert [c.post("/api/tables", json={}).status_code for _ in range(3)] == [201, 201, 429]
        assert "at most 2" in c.post("/api/tables", json={}).json()["error"]


# ---- undo, resign, rematch ---------------------------------------------------
def test_undo_by_agreement(client):
    t = new_table(client)
    t.play("b2")
    t.play("a1")
    r = t.x.post("undo", {"action": "accept"})
    assert r.status_code == 409 and "no undo request" in r.json()["error"]
    assert t.x.post("undo", {"action": "request"}).status_code == 200
    assert t.o.state()["undo_requested_by"] == "X"
    assert t.x.post("undo", {"action": "request"}).status_code == 409
    assert t.o.post("undo", {"action": "decline"}).status_code == 200
    assert t.x.state()["number"] == 2 and t.x.state()["undo_requested_by"] is None
    t.x.post("undo", {"action": "request"})
    state = t.o.post("undo", {"action": "accept"}).json()
    # X's last move and O's reply are taken back: X to move again.
    assert state["number"] == 0 and state["to_move"] == "X" and state["undo_requested_by"] is None
    t.play("c3")
    assert [m["move"] for m in t.x.state()["moves"]] == ["c3"]
    assert t.o.post("undo", {"action": "request"}).status_code == 409  # O has no move yet
    r = t.x.post("undo", {"action": "sideways"})
    assert r.status_code == 400 and "action must be one of" in r.json()["error"]


def test_a_move_clears_an_undo_request(client):
    t = new_table(client)
    t.play("b2")
    t.x.post("undo", {"action": "request"})
    t.play("a1")
    assert t.x.state()["undo_requested_by"] is None


def test_resign_and_rematch_with_colours_swapped(client):
    t = new_table(client)
    t.play("b2")
    assert t.x.post("rematch").status_code == 409
    state = t.o.post("resign").json()
    assert state["finished"] and state["result"] == "1-0" and state["outcome"]["text"] == "O resigned: X wins."
    assert t.x.post("resign").status_code == 409
    assert t.x.post("undo", {"action": "request"}).status_code == 409
    record = noughts.Record.from_text(client.get(f"/api/tables/{t.id}/record").text)
    assert record.result == "1-0" and record.headers["Termination"] == "O resigned"
    r = t.o.post("rematch")
    assert r.status_code == 200 and r.json()["you"] == "X"
    new_id = r.json()["id"]
    assert t.x.post("rematch").json()["id"] == new_id  # one rematch per table
    assert t.x.state()["rematch"] == new_id
    # The same tokens, the other seats: the old O moves first now.
    assert Seat(client, new_id, t.o.token).state()["you"] == "X"
    assert Seat(client, new_id, t.x.token).state()["you"] == "O"
    assert Seat(client, new_id, t.o.token).move("b2", 1).status_code == 200
    assert client.get(f"/api/tables/{new_id}").json()["rematch_of"] == t.id


# ---- pages -------------------------------------------------------------------
def test_pages_have_a_strict_content_security_policy(client):
    for path in ("/", "/t/abcdefghijkl", "/rules/classic", "/static/table.js", "/api/tables/abcdefghijkl"):
        r = client.get(path)
        csp = r.headers["content-security-policy"]
        assert "default-src 'none'" in csp and "script-src 'self'" in csp and "unsafe" not in csp
        assert r.headers["x-content-type-options"] == "nosniff"
    page = client.get("/").text
    assert "<script>" not in page and "onclick" not in page  # scripts only from files


@pytest.mark.parametrize(
    "accept, lang",
    [
        ("nl-NL,nl;q=0.9,en;q=0.8", "nl"),
        ("el", "el"),
        ("fr, da;q=0.5", "da"),
        ("fr", "en"),
        (None, "en"),
        ("da;q=x", "en"),
    ],
)
def test_rules_pages_follow_the_browsers_language(client, accept, lang):
    headers = {"accept-language": accept} if accept else {}
    r = client.get("/rules/ultimate", headers=headers)
    assert r.status_code == 200 and f'<html lang="{lang}">' in r.text


def test_rules_switch_and_every_language_and_game(client):
    from noughts.serve import rules

    for lang in rules.LANGUAGES:
        for game in rules.GAMES:
            text = client.get(f"/rules/{game}?lang={lang}", headers={"accept-language": "en"}).text
            title = rules.TEXTS[lang][game][0]
            assert f"<h1>{title}</h1>" in text
            assert len(re.findall("<p>", text)) == len(rules.TEXTS[lang][game][1])
    r = client.get("/rules/classic?lang=<script>")
    assert "<script>" not in r.text and '<html lang="en">' in r.text
    assert client.get("/rules/chess").status_code == 404
    assert client.get("/rules").status_code == 200


def test_every_way_a_game_ends_has_an_explanation():
    # The explanation covers each termination the engine reports, including ones the site's settings do not reach.
    import random

    from noughts.serve.store import MoveRow, TableRow
    from noughts.serve.tables import Table

    seen = set()
    rng = random.Random(3)
    for game_name, options in [
        ("classic", {"rows": 3, "cols": 3}),
        ("classic", {"rows": 3, "cols": 3, "misere": True}),
        ("ultimate", {}),
        ("quantum", {}),
    ]:
        for _ in range(300):
            row = TableRow("abcdefghijkl", game_name, options, b"x", b"o", None, 0.0)
            table = Table.from_row(row)
            while not table.game.is_over():
                move = rng.choice(table.game.legal_moves()).name
                row.moves.append(MoveRow(len(row.moves) + 1, move, table.game.to_move.name))
                table.apply(move)
            outcome = table.explanation()
            assert outcome["how"] == table.game.termination.name.lower() and outcome["text"]
            assert outcome["winner"] == (None if table.game.winner is None else table.game.winner.name)
            seen.add((game_name, outcome["how"]))
    assert {how for _, how in seen} >= {"line", "misere_line", "earlier_line", "full_board"}
