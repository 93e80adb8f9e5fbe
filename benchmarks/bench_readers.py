"""Readers during an archive ingest: how long `arbiter standings` and a web page wait.

A store holds one small chess tournament (10 players, round 1 paired and played) and serves
it with `arbiter serve`. Then `arbiter ingest` writes the whole othello archive
(../shared/testdata/othello/elo, read in place) into the same store, and while it runs, once a
second, a CLI reader runs `arbiter standings T` (a process each) and a web reader asks for
`/api/tournaments/T/standings`; each is timed from start to answer:

* ``cli_s`` / ``web_s``: p50, p95 and max over the ingest; ``cli_failed``: non-zero exits
  (their stderr line), ``web_failed``: answers other than 200;
* ``ingest_s``: the ingest's wall time with the readers beside it.

On a DuckDB file one process holds the file at a time (the ingest gives way to queued
processes between two of its store operations, `events.recorders.duckdb`); on PostgreSQL
readers and the writer run at once. The server, the readers and the ingest share 2 cores.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx

from benchmarks.bench_serve_startup import ARCHIVE, served
from benchmarks.stores import on_both_stores

ARBITER = str(Path(sys.executable).parent / "arbiter")
TID = "club"


def prepare(url: str) -> None:
    """The small tournament, through the CLI (set-up, not measured)."""
    from events.stores import init_store

    init_store(url)

    def cli(*args: str) -> None:
        subprocess.run([ARBITER, "--store", url, *args], capture_output=True, check=True)

    cli("tournament", "create", "--name", "Club", "--id", TID, "--system", "dutch", "--rounds", "5")
    for i in range(10):
        cli("player", "add", TID, "--name", f"Member{i}, A", "--rating", str(1800 - 10 * i))
    cli("pair", TID)
    for board in range(1, 6):
        cli("result", TID, "1", str(board), "1-0")


def _summary(values: list[float]) -> dict[str, float | int]:
    ordered = sorted(values)
    if not ordered:
        return {"n": 0}
    return {
        "n": len(ordered),
        "p50": round(statistics.median(ordered), 2),
        "p95": round(ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))], 2),
        "max": round(ordered[-1], 2),
    }


class Reader(threading.Thread):
    """Once a second until `done`: one CLI `standings` or one web GET, timed."""

    def __init__(self, url: str, port: int, web: bool) -> None:
        super().__init__(daemon=True)
        self.url, self.port, self.web = url, port, web
        self.done = threading.Event()
        self.seconds: list[float] = []
        self.failed: list[str] = []

    def run(self) -> None:
        while not self.done.is_set():
            started = time.monotonic()
            if self.web:
                try:
                    r = httpx.get(
                        f"http://127.0.0.1:{self.port}/api/tournaments/{TID}/standings",
                        timeout=120,
                    )
                    if r.status_code != 200:
                        self.failed.append(f"{r.status_code} {r.text[:80]}")
                except httpx.TransportError as exc:
                    self.failed.append(repr(exc))
            else:
                done = subprocess.run(
                    [ARBITER, "--store", self.url, "standings", TID],
                    capture_output=True, text=True, timeout=600, check=False,
                )  # fmt: skip
                if done.returncode != 0:
                    self.failed.append(done.stderr.strip().splitlines()[-1])
            self.seconds.append(time.monotonic() - started)
            self.done.wait(max(0.0, started + 1.0 - time.monotonic()))


def measure(url: str, folder: Path) -> dict[str, Any]:
    prepare(url)
    with served(url, folder) as (port, _):
        readers = [Reader(url, port, web=False), Reader(url, port, web=True)]
        started = time.monotonic()
        ingest = subprocess.Popen(
            [ARBITER, "--store", url, "ingest", str(ARCHIVE)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        time.sleep(1.0)  # the ingest under way before the readers start
        for reader in readers:
            reader.start()
        ingest.wait(timeout=3600)
        ingest_s = time.monotonic() - started
        for reader in readers:
            reader.done.set()
            reader.join(timeout=600)
    cli, web = readers
    return {
        "ingest_s": round(ingest_s, 1),
        "cli_s": _summary(cli.seconds),
        "cli_failed": cli.failed,
        "web_s": _summary(web.seconds),
        "web_failed": web.failed,
    }


def run() -> dict[str, Any]:
    if not ARCHIVE.exists():
        return {"skipped": f"archive not found: {ARCHIVE}"}
    return on_both_stores(measure, "bench-readers-", bulk_load=True)


if __name__ == "__main__":
    import json

    print(json.dumps(run(), indent=2))
