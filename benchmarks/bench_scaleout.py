"""Several `arbiter serve` processes on one PostgreSQL log: reads/s and latencies with 1, 2, 3.

A durable throwaway PostgreSQL database holds the writers benchmark's tournament (400 players,
round 1 paired: 200 boards). For 1, 2 and 3 servers on it, `READERS` keep-alive readers (one
connection each, spread over the servers in turn) ask for the tournament's standings
(``GET /api/tournaments/T/standings``) as fast as they are answered, for `SECONDS`, while a
director's client enters one result a second (``POST .../results``, through the servers in
turn). Figures: ``reads_per_s``, ``read_ms`` (p50, p99), ``write_ms`` (p50, max) and the
writes' statuses; a read answered other than 200 is counted in ``read_failed``.

The readers, the servers and PostgreSQL share the machine (2 cores here): with the clients in
one Python process, the figures say what the machine gives, not what each server could.
"""

from __future__ import annotations

import itertools
import os
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx

from benchmarks.bench_writers import TID, prepare
from tests.postgres import bench_database
from tests.web.serving import Served, add_user, serve

READERS = 64
SECONDS = 15.0
SERVERS = (1, 2, 3)


def _ms(values: list[float], *quantiles: float) -> dict[str, float]:
    ordered = sorted(values)
    if not ordered:
        return {}
    last = len(ordered) - 1
    out = {f"p{round(q * 100)}": round(1000 * ordered[min(last, int(q * len(ordered)))], 1)
           for q in quantiles}  # fmt: skip
    out["max"] = round(1000 * ordered[-1], 1)
    return out


def measure(sites: list[Served], token: str, boards: itertools.count[int]) -> dict[str, Any]:
    stop = threading.Event()
    reads: list[list[float]] = [[] for _ in range(READERS)]
    failed = Counter[str]()
    writes: list[tuple[float, int]] = []

    def reader(i: int) -> None:
        with httpx.Client(base_url=sites[i % len(sites)].url, timeout=120) as client:
            while not stop.is_set():
                started = time.monotonic()
                r = client.get(f"/api/tournaments/{TID}/standings")
                reads[i].append(time.monotonic() - started)
                if r.status_code != 200:
                    failed[str(r.status_code)] += 1

    def writer() -> None:
        clients = [httpx.Client(base_url=s.url, timeout=120) for s in sites]
        turn = 0
        while not stop.is_set():
            started = time.monotonic()
            r = clients[turn % len(clients)].post(
                f"/api/tournaments/{TID}/results",
                json={"round": 1, "board": next(boards), "result": "1-0"},
                headers={"authorization": f"Bearer {token}"},
            )
            writes.append((time.monotonic() - started, r.status_code))
            turn += 1
            stop.wait(max(0.0, started + 1.0 - time.monotonic()))
        for c in clients:
            c.close()

    threads = [threading.Thread(target=reader, args=(i,)) for i in range(READERS)]
    threads.append(threading.Thread(target=writer))
    started = time.monotonic()
    for t in threads:
        t.start()
    time.sleep(SECONDS)
    stop.set()
    for t in threads:
        t.join(timeout=300)
    elapsed = time.monotonic() - started
    all_reads = [s for r in reads for s in r]
    return {
        "reads_per_s": round(len(all_reads) / elapsed, 1),
        "read_ms": _ms(all_reads, 0.5, 0.99),
        "read_failed": dict(failed),
        "writes": len(writes),
        "write_ms": _ms([s for s, _ in writes], 0.5),
        "write_statuses": dict(Counter(str(code) for _, code in writes)),
    }


def run() -> dict[str, Any]:
    with bench_database() as url, tempfile.TemporaryDirectory() as scratch:
        if url is None:
            return {"skipped": "no PostgreSQL server binaries"}
        folder = Path(scratch)
        prepare(url)
        token = add_user(url, "td", "director", TID)
        boards = itertools.count(1)
        figures: dict[str, Any] = {"readers": READERS, "seconds": SECONDS}
        for n in SERVERS:
            sites: list[Served] = []
            try:
                for _ in range(n):
                    sites.append(serve(url, folder))
                figures[f"servers_{n}"] = measure(sites, token, boards)
            finally:
                for site in sites:
                    site.stop()
        figures["load_average"] = [round(x, 2) for x in os.getloadavg()]
        return figures


if __name__ == "__main__":
    import json

    print(json.dumps(run(), indent=2))
