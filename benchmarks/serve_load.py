"""noughts serve under load: N concurrent games of random legal moves over the real server, on loopback.

Starts ``noughts serve`` (uvicorn) on 127.0.0.1 with a fresh database,
creates N tables and plays them all at once: each move is a random choice
from the legal moves the server lists, sent by the seat to move with the
move number, and each game has a spectator on the WebSocket. It reports
moves per second, the latency of a move (request to acknowledgement)
as percentiles, and checks that nothing was lost or duplicated: every
acknowledged move is in the final state, in the database, and was seen
live by the spectator, exactly once.

The peer measured in the same run is a bare SQLite commit loop (WAL,
synchronous=FULL, one insert per transaction) in the same directory: the
durable-storage bound a move cannot beat, since each move is committed
before it is acknowledged.

Bounded: at most --games games and --seconds seconds, then it stops the
server and itself.

Run on demand: python benchmarks/serve_load.py [--games 50] [--game classic|ultimate|quantum|mixed]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field

import httpx
import websockets

GAMES = ("classic", "ultimate", "quantum")


@dataclass
class GameRun:
    id: str
    tokens: dict[str, str]
    acknowledged: list[str] = field(default_factory=list)
    seen_live: dict[int, str] = field(default_factory=dict)
    final: list[str] = field(default_factory=list)
    live_duplicates: int = 0
    refused: int = 0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(db: str, port: int, log: str) -> subprocess.Popen[bytes]:
    with open(log, "w") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "noughts.cli", "serve", "--port", str(port), "--db", db, "--max-tables", "100000"],
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/", timeout=2).status_code == 200:
                return process
        except httpx.HTTPError:
            time.sleep(0.1)
    process.kill()
    raise SystemExit(f"the server did not start; see {log}")


def bare_commits_per_second(directory: str, seconds: float = 2.0) -> float:
    """The peer: one-row transactions per second with the server's durability settings."""
    path = os.path.join(directory, "peer.sqlite3")
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=FULL")
    db.execute("CREATE TABLE t (n INTEGER PRIMARY KEY, v TEXT)")
    n, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        db.execute("BEGIN IMMEDIATE")
        db.execute("INSERT INTO t VALUES (?, ?)", (n, "b2"))
        db.execute("COMMIT")
        n += 1
    rate = n / (time.perf_counter() - start)
    db.close()
    return rate


async def spectate(url: str, run: GameRun, stop: asyncio.Event) -> None:
    async with websockets.connect(url) as ws:
        await ws.send(json.dumps({"type": "hello", "token": None, "have": 0}))
        while not stop.is_set():
            try:
                message = json.loads(await asyncio.wait_for(ws.recv(), 0.5))
            except asyncio.TimeoutError:
                continue
            for move in message.get("moves", []):
                known = run.seen_live.get(move["number"])
                if known is None:
                    run.seen_live[move["number"]] = move["move"]
                elif known != move["move"]:
                    run.live_duplicates += 1  # two different moves under one number


async def play(
    client: httpx.AsyncClient, run: GameRun, rng: random.Random, latencies: list[float], until: float
) -> None:
    state = (await client.get(f"/api/tables/{run.id}")).json()
    while not state["finished"] and time.monotonic() < until:
        move = rng.choice(state["legal"])
        number = state["number"] + 1
        start = time.perf_counter()
        r = await client.post(
            f"/api/tables/{run.id}/moves",
            json={"move": move, "number": number},
            headers={"authorization": f"Bearer {run.tokens[state['to_move']]}"},
        )
        latencies.append(time.perf_counter() - start)
        if r.status_code != 200:
            run.refused += 1
            state = (await client.get(f"/api/tables/{run.id}")).json()
            continue
        run.acknowledged.append(r.json()["move"])
        state = r.json()["state"]


async def load(base: str, games: int, kind: str, seconds: float, seed: int) -> tuple[list[GameRun], list[float], float]:
    rng = random.Random(seed)
    limits = httpx.Limits(max_connections=games + 10)
    async with httpx.AsyncClient(base_url=base, limits=limits, timeout=60) as client:
        runs = []
        for i in range(games):
            game = GAMES[i % 3] if kind == "mixed" else kind
            body = (await client.post("/api/tables", json={"game": game})).json()
            tokens = {s: link.split("#k=")[1] for s, link in body["seats"].items()}
            runs.append(GameRun(body["id"], tokens))
        stop = asyncio.Event()
        ws_base = base.replace("http://", "ws://")
        watchers = [asyncio.create_task(spectate(f"{ws_base}/api/tables/{r.id}/live", r, stop)) for r in runs]
        await asyncio.sleep(0.5)  # the spectators say hello first
        latencies: list[float] = []
        start = time.perf_counter()
        until = time.monotonic() + seconds
        await asyncio.gather(*(play(client, r, random.Random(rng.random()), latencies, until) for r in runs))
        elapsed = time.perf_counter() - start
        await asyncio.sleep(1.0)  # the last live updates arrive
        stop.set()
        await asyncio.gather(*watchers)
        for r in runs:
            final = (await client.get(f"/api/tables/{r.id}")).json()
            r.final = [m["move"] for m in final["moves"]]
    return runs, latencies, elapsed


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50, help="concurrent games (default 50, at most 500)")
    parser.add_argument("--game", choices=[*GAMES, "mixed"], default="mixed")
    parser.add_argument("--seconds", type=float, default=60, help="stop playing after this long (default 60)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    games = max(1, min(args.games, 500))
    with tempfile.TemporaryDirectory() as tmp:
        peer = bare_commits_per_second(tmp)
        db, port = os.path.join(tmp, "load.sqlite3"), free_port()
        server = start_server(db, port, os.path.join(tmp, "server.log"))
        try:
            runs, latencies, elapsed = asyncio.run(
                load(f"http://127.0.0.1:{port}", games, args.game, min(args.seconds, 600), args.seed)
            )
        finally:
            server.terminate()
            server.wait(30)
        with sqlite3.connect(db) as con:
            stored = {
                r.id: [m for (m,) in con.execute("SELECT move FROM moves WHERE table_id = ? ORDER BY number", (r.id,))]
                for r in runs
            }
    moves = sum(len(r.acknowledged) for r in runs)
    lost = sum(r.acknowledged != r.final or r.acknowledged != stored[r.id] for r in runs)
    unseen = sum([r.seen_live.get(i + 1) for i in range(len(r.acknowledged))] != r.acknowledged for r in runs)
    duplicated = sum(r.live_duplicates for r in runs)
    finished = sum(len(r.acknowledged) > 0 for r in runs)
    rate = moves / elapsed
    print(f"noughts serve, {games} concurrent {args.game} games of random legal moves over 127.0.0.1")
    print(f"  moves acknowledged   {moves:,} in {elapsed:.2f} s: {rate:,.0f} moves/s ({finished} games played)")
    print(
        "  move latency (ms)    "
        + "  ".join(f"p{p} {1000 * percentile(latencies, p):.1f}" for p in (50, 90, 99))
        + f"  max {1000 * max(latencies):.1f}"
    )
    print(f"  refused moves        {sum(r.refused for r in runs)}")
    print(f"  games with a lost or changed move: {lost}; not seen live: {unseen}; duplicated: {duplicated}")
    print(f"  peer: bare SQLite commits (WAL, synchronous=FULL) {peer:,.0f}/s; server/peer {rate / peer:.2f}")
    if lost or unseen or duplicated:
        raise SystemExit("moves were lost or duplicated")


if __name__ == "__main__":
    main()
