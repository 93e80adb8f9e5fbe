"""`arbiter serve` under load: a 500-player, 9-round event, 16 then 64 clients (30 s each).

The clients alternate between the public standings page (`/t/bench`) and its JSON twin
(`/api/tournaments/bench/standings`) over keep-alive HTTP/1.1 connections (a small asyncio
client: wrk is not installed here, and httpx's own cost would dominate on 2 cores). Meanwhile a
director enters one result per second, alternately through the API (bearer token) and from
another process straight into the log (as the CLI does). A server-sent-events listener on the
tournament's page stream times each append -> page update, matched by stream version.

Run on DuckDB (a file) and on PostgreSQL (a throwaway durable server from tests/postgres.py).
The server, the load client and the director share this machine's 2 cores.
"""

from __future__ import annotations

import asyncio
import random
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx

from benchmarks.stores import on_both_stores

PLAYERS = 500
ROUNDS = 9
OPEN_BOARDS = 60  # boards of round 9 left without a result for the director
CONCURRENCY = (16, 64)
"""Keep-alive clients of each load, one after the other on the same server (30 s each)."""
SECONDS = 30.0
TID = "bench"
PATHS = (f"/t/{TID}", f"/api/tournaments/{TID}/standings")


def build_event(url: str) -> list[int]:
    """The event, written in bulk: random pairings and results; returns the open boards."""
    from events.domain import Board, Game, Outcome, System
    from events.provenance import current_origin
    from events.schema import PlayerRegistered, ResultRecorded, RoundPaired
    from events.store import NewEvent
    from events.stores import init_store, open_store
    from pipelines.commands import tournaments

    rng = random.Random(2026)
    init_store(url)
    with open_store(url) as store:
        tournaments.create(
            store, {"name": "Bench Open", "game": Game.CHESS, "system": System.SWISS,
                    "rounds": ROUNDS, "id": TID},
        )  # fmt: skip
        meta = current_origin().metadata()
        events: list[Any] = [
            PlayerRegistered(player=i, name=f"Player {i:03d}, Bench", rating=2700 - 2 * i)
            for i in range(1, PLAYERS + 1)
        ]
        outcomes = [Outcome.WHITE_WINS, Outcome.BLACK_WINS, Outcome.DRAW]
        open_boards: list[int] = []
        for r in range(1, ROUNDS + 1):
            ids = list(range(1, PLAYERS + 1))
            rng.shuffle(ids)
            boards = [
                Board(board=b + 1, white=ids[2 * b], black=ids[2 * b + 1])
                for b in range(PLAYERS // 2)
            ]
            events.append(RoundPaired(round=r, boards=tuple(boards)))
            for b in boards:
                if r == ROUNDS and b.board > len(boards) - OPEN_BOARDS:
                    open_boards.append(b.board)
                    continue
                events.append(ResultRecorded(round=r, board=b.board, outcome=rng.choice(outcomes)))
        store.append(f"tournament-{TID}", [NewEvent(e, metadata=meta) for e in events], 0)
    return open_boards


def add_director(url: str) -> str:
    from events.stores import open_store
    from pipelines.web.accounts import add_user

    with open_store(url) as store:
        return add_user(store, "bench-td", "director", TID)


def start_server(url: str, folder: Path) -> tuple[subprocess.Popen[bytes], int]:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    arbiter = str(Path(sys.executable).parent / "arbiter")
    process = subprocess.Popen(
        [arbiter, "--store", url, "serve", "--port", str(port), "--lists-dir", str(folder)],
        stdout=subprocess.DEVNULL, stderr=(folder / "serve.log").open("wb"),
    )  # fmt: skip
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}{PATHS[1]}", timeout=5).status_code == 200:
                return process, port
        except httpx.TransportError:
            pass
        time.sleep(0.2)
    process.kill()
    raise RuntimeError((folder / "serve.log").read_text())


async def _client(
    port: int, path_index: int, stop: float, latencies: list[list[float]], errors: list[int]
) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    i = path_index
    try:
        while time.perf_counter() < stop:
            path = PATHS[i % 2]
            i += 1
            started = time.perf_counter()
            writer.write(f"GET {path} HTTP/1.1\r\nHost: bench\r\n\r\n".encode())
            await writer.drain()
            head = await reader.readuntil(b"\r\n\r\n")
            length = 0
            for line in head.split(b"\r\n"):
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            await reader.readexactly(length)
            status = int(head.split(b" ", 2)[1])
            if status != 200:
                errors.append(status)
            latencies[i % 2].append(time.perf_counter() - started)
    finally:
        writer.close()


async def _load(port: int, clients: int) -> tuple[list[list[float]], list[int]]:
    latencies: list[list[float]] = [[], []]
    errors: list[int] = []
    stop = time.perf_counter() + SECONDS
    await asyncio.gather(*(_client(port, c, stop, latencies, errors) for c in range(clients)))
    return latencies, errors


def _figures(latencies: list[list[float]], errors: list[int], wall: float) -> dict[str, Any]:
    every = latencies[0] + latencies[1]
    return {
        "seconds": round(wall, 1),
        "requests": len(every),
        "errors": len(errors),
        "requests_per_s": round(len(every) / wall, 1),
        "p50_ms": _ms(every, 0.50),
        "p99_ms": _ms(every, 0.99),
        "page_p50_ms": _ms(latencies[0], 0.50),
        "page_p99_ms": _ms(latencies[0], 0.99),
        "json_p50_ms": _ms(latencies[1], 0.50),
        "json_p99_ms": _ms(latencies[1], 0.99),
    }


LOG_WRITER = """
import sys, time
from events.stores import open_store
from pipelines.commands import results
url, tid, rnd, board = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
with open_store(url) as store:
    results.record_one(store, tid, {"round": rnd, "board": board, "result": "0-1"})
    print(time.perf_counter(), flush=True)  # committed (CLOCK_MONOTONIC: the same in every process)
"""


class Director(threading.Thread):
    """One result a second: even ticks through the API, odd ones straight into the log from
    another process (as the CLI writes). The director is the event's only writer, so its n-th
    result makes stream version ``first + n + 1``; each write is timed from its start (API) or
    from its commit (the other process), to the page's announcement of that version."""

    def __init__(self, url: str, port: int, token: str, boards: list[int]) -> None:
        super().__init__(daemon=True)
        self.url, self.port, self.token, self.boards = url, port, token, boards
        self.sent: list[tuple[str, int, float]] = []  # (channel, write number, start or commit)
        self.done = threading.Event()

    def run(self) -> None:
        base = f"http://127.0.0.1:{self.port}"
        tick = time.perf_counter()
        with httpx.Client(base_url=base, timeout=30) as client:
            for n, board in enumerate(self.boards):
                if self.done.is_set():
                    return
                started = time.perf_counter()
                if n % 2 == 0:
                    r = client.post(
                        f"/api/tournaments/{TID}/results",
                        json={"round": ROUNDS, "board": board, "result": "1-0"},
                        headers={"authorization": f"Bearer {self.token}"},
                    )
                    if r.status_code != 201:
                        raise RuntimeError(f"API write refused: {r.status_code} {r.text}")
                    self.sent.append(("api", n, started))
                else:
                    done = subprocess.run(
                        [sys.executable, "-c", LOG_WRITER, self.url, TID, str(ROUNDS), str(board)],
                        capture_output=True, text=True, check=True,
                    )  # fmt: skip
                    self.sent.append(("log", n, float(done.stdout.split()[-1])))
                tick += 1.0
                self.done.wait(max(0.0, tick - time.perf_counter()))


class Listener(threading.Thread):
    """Times when the page's event stream announces each new version (it may skip versions
    that came in one burst: a version counts as shown when a later one is)."""

    def __init__(self, port: int) -> None:
        super().__init__(daemon=True)
        self.port = port
        self.first: int | None = None
        self.arrivals: list[tuple[int, float]] = []

    def run(self) -> None:
        url = f"http://127.0.0.1:{self.port}/t/{TID}/live"
        try:
            with httpx.stream("GET", url, timeout=None) as response:
                for line in response.iter_lines():
                    if line.startswith("data:"):
                        version = int(line.removeprefix("data:"))
                        if self.first is None:
                            self.first = version
                        else:
                            self.arrivals.append((version, time.perf_counter()))
        except httpx.TransportError:  # the server stops at the end of the run
            return


def _ms(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return round(1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))], 1)


def measure(url: str, folder: Path) -> dict[str, Any]:
    built = time.perf_counter()
    boards = build_event(url)
    token = add_director(url)
    build_seconds = time.perf_counter() - built
    process, port = start_server(url, folder)
    try:
        listener = Listener(port)
        listener.start()
        time.sleep(1.0)
        director = Director(url, port, token, boards)
        director.start()
        loads: dict[str, dict[str, Any]] = {}
        for clients in CONCURRENCY:
            wall = time.perf_counter()
            latencies, errors = asyncio.run(_load(port, clients))
            loads[f"clients_{clients}"] = _figures(latencies, errors, time.perf_counter() - wall)
        director.done.set()
        director.join(timeout=30)
        time.sleep(1.5)
    finally:
        process.terminate()
        process.wait(timeout=30)
    update: dict[str, list[float]] = {"api": [], "log": []}
    first = listener.first if listener.first is not None else 0
    for channel, n, started in director.sent:
        shown = [t for version, t in listener.arrivals if version >= first + n + 1]
        if shown:
            update[channel].append(max(0.0, shown[0] - started))
    return {
        "event": f"{PLAYERS} players, {ROUNDS} rounds",
        "build_seconds": round(build_seconds, 2),
        **loads,
        "results_entered": len(director.sent),
        "update_ms": {
            channel: {
                "n": len(values),
                "p50": round(1000 * statistics.median(values), 1) if values else None,
                "max": round(1000 * max(values), 1) if values else None,
            }
            for channel, values in update.items()
        },
    }


def run() -> dict[str, Any]:
    return on_both_stores(measure, "bench-serve-")


if __name__ == "__main__":
    import json

    print(json.dumps(run(), indent=2))
