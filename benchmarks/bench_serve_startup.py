"""Serve start-up: `arbiter serve` on the whole othello archive, until its first answer and ready.

The archive (../shared/testdata/othello/elo, read in place) is ingested by `arbiter ingest`
into a DuckDB file and into a throwaway PostgreSQL database (tests/postgres.py, durable
settings); then `arbiter serve` is started on each and `GET /api/tournaments` is asked every
20 ms from the moment the process is started:

* ``first_answer_s``: the first HTTP answer of any kind (503 "warming up" while it reads);
* ``ready_s``: the first 200 (the log read, the projections built);
* ``ingest_s``: the ingest beforehand, for scale; ``events``: the log's length.

``ARBITER_BENCH_STORES=duckdb`` leaves PostgreSQL out.

The server and this client share the machine's 2 cores with whatever else runs.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

ARCHIVE = Path(__file__).resolve().parent.parent.parent / "shared" / "testdata" / "othello" / "elo"
ARBITER = str(Path(sys.executable).parent / "arbiter")


def ingest(url: str) -> dict[str, Any]:
    from events.stores import init_store, open_store

    init_store(url)
    started = time.monotonic()
    subprocess.run(
        [ARBITER, "--store", url, "ingest", str(ARCHIVE)],
        capture_output=True,
        text=True,
        timeout=3600,
        check=False,
    )  # fmt: skip  (exit 1: the archive's few broken files are refused, the rest lands)
    seconds = time.monotonic() - started
    with open_store(url) as store:
        events = store.head_position()
    return {"ingest_s": round(seconds, 1), "events": events}


READY_LIMIT = 600.0
"""Seconds the benchmark waits for the server to be ready."""


@contextmanager
def served(url: str, folder: Path) -> Iterator[tuple[int, dict[str, float | None]]]:
    """`arbiter serve` on the store: its port, once it answers 200 (or after `READY_LIMIT`
    seconds), and the seconds from its start to its first answer and to that 200 (None: not
    ready in time); stopped at the end (killed when it does not stop within 30 s)."""
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    log = folder / f"serve-{port}.log"
    started = time.monotonic()
    process = subprocess.Popen(
        [ARBITER, "--store", url, "serve", "--port", str(port), "--lists-dir", str(folder)],
        stdout=subprocess.DEVNULL, stderr=log.open("wb"),
    )  # fmt: skip
    first: float | None = None
    ready: float | None = None
    try:
        while ready is None and time.monotonic() - started < READY_LIMIT:
            if process.poll() is not None:
                raise RuntimeError(f"arbiter serve ended: {log.read_text()}")
            try:
                status = httpx.get(f"http://127.0.0.1:{port}/api/tournaments", timeout=30)
            except httpx.TransportError:
                time.sleep(0.02)
                continue
            now = time.monotonic() - started
            first = now if first is None else first
            if status.status_code == 200:
                ready = now
            time.sleep(0.02)
        yield (
            port,
            {
                "first_answer_s": None if first is None else round(first, 2),
                "ready_s": None if ready is None else round(ready, 2),
            },
        )
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:  # still reading the log: it stops only after
            process.kill()
            process.wait()


def start_up(url: str, folder: Path) -> dict[str, float | None]:
    with served(url, folder) as (_, timings):
        return timings


def run() -> dict[str, Any]:
    from tests.postgres import bench_database

    figures: dict[str, Any] = {"load_average_before": os.getloadavg()}
    if not ARCHIVE.exists():
        return {"skipped": f"archive not found: {ARCHIVE}"}
    with tempfile.TemporaryDirectory(prefix="bench-serve-startup-") as tmp:
        folder = Path(tmp)
        url = str(folder / "store.duckdb")
        figures["duckdb"] = {**ingest(url), **start_up(url, folder)}
        if "postgresql" not in os.environ.get("ARBITER_BENCH_STORES", "duckdb,postgresql"):
            figures["postgresql"] = "skipped: ARBITER_BENCH_STORES"
        else:
            with bench_database(bulk_load=True) as pg:
                if pg is None:
                    figures["postgresql"] = "skipped: no PostgreSQL server binaries"
                else:
                    figures["postgresql"] = {**ingest(pg), **start_up(pg, folder)}
    figures["load_average_after"] = os.getloadavg()
    return figures


if __name__ == "__main__":
    import json

    print(json.dumps(run(), indent=2))
