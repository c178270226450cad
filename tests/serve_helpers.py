"""Helpers of the noughts serve tests: a seat (a token at a table) and a table with both seats."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass
class Seat:
    client: Any
    id: str
    token: str

    def headers(self) -> dict[str, str]:
        return {"authorization": f"Bearer {self.token}"}

    def post_to(self, table_id: str, action: str, body: Any = None) -> Any:
        return self.client.post(f"/api/tables/{table_id}/{action}", json=body, headers=self.headers())

    def post(self, action: str, body: Any = None) -> Any:
        return self.post_to(self.id, action, body)

    def move(self, move: str, number: int) -> Any:
        return self.post("moves", {"move": move, "number": number})

    def state(self) -> dict[str, Any]:
        r = self.client.get(f"/api/tables/{self.id}", headers=self.headers())
        assert r.status_code == 200, r.text
        return r.json()  # type: ignore[no-any-return]

    def undo_all(self) -> None:
        """Takes every move back (X asks, O agrees, as often as needed)."""
        other = Seat(self.client, self.id, _OTHER[(self.client, self.id, self.token)])
        while self.state()["number"]:
            asker, agree = (
                (self, other) if any(m["seat"] == self.state()["you"] for m in self.state()["moves"]) else (other, self)
            )
            assert asker.post("undo", {"action": "request"}).status_code == 200
            assert agree.post("undo", {"action": "accept"}).status_code == 200


_OTHER: dict[tuple[Any, str, str], str] = {}
_CACHE: dict[Any, Table] = {}


@dataclass
class Table:
    id: str
    x: Seat
    o: Seat

    def seat(self, name: str) -> Seat:
        return self.x if name == "X" else self.o

    def play(self, move: str) -> dict[str, Any]:
        """The player to move plays `move` (checked to be accepted)."""
        state = self.x.state()
        r = self.seat(state["to_move"]).move(move, state["number"] + 1)
        assert r.status_code == 200, r.text
        return r.json()  # type: ignore[no-any-return]

    play_as_mover = play


def new_table(client: Any, cache: bool = False, **settings: Any) -> Table:
    """A table between two friends (both seats' tokens known)."""
    if cache and client in _CACHE:
        return _CACHE[client]
    r = client.post("/api/tables", json=settings)
    assert r.status_code == 201, r.text
    body = r.json()
    x, o = (body["seats"][s].split("#k=")[1] for s in "XO")
    _OTHER[(client, body["id"], x)] = o
    _OTHER[(client, body["id"], o)] = x
    table = Table(body["id"], Seat(client, body["id"], x), Seat(client, body["id"], o))
    if cache:
        _CACHE[client] = table
    return table


@dataclass
class RunningServer:
    """`noughts serve` in a child process on a free loopback port."""

    process: Any
    url: str

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(10)
        except Exception:
            self.process.kill()
            self.process.wait()


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(db: Any, extra_env: dict[str, str] | None = None, port: int | None = None) -> RunningServer:
    """Starts the server as a user would (``python -m noughts serve``) and waits until it answers."""
    import os
    import subprocess
    import sys
    import time

    import httpx2
    import noughts

    port = free_port() if port is None else port
    env = dict(os.environ, **(extra_env or {}))
    # The package under test, wherever it was imported from (the source tree or an installed wheel).
    env["PYTHONPATH"] = os.pathsep.join([os.path.dirname(os.path.dirname(noughts.__file__)), env.get("PYTHONPATH", "")])
    # The log goes to a file: a pipe nobody reads would fill up and stop the server.
    log_path = f"{db}.log"
    with open(log_path, "a") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "noughts.cli", "serve", "--port", str(port), "--db", str(db)],
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            if httpx2.get(url + "/", timeout=2).status_code == 200:
                return RunningServer(process, url)
        except httpx2.HTTPError:
            pass
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            process.wait()
            with open(log_path) as log:
                output = log.read()
            raise RuntimeError(f"noughts serve did not start:\n{output}")
        time.sleep(0.1)
