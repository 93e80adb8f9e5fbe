"""The shared log on PostgreSQL: bulk append, append latency under 8 writers, the WOF archive.

A throwaway server is started for the run (the tests' helper, tests/postgres.py) with durable
settings: fsync, full-page writes and synchronous commit on, as a production server, with the
usual bulk-load advice of the PostgreSQL manual (max_wal_size 4GB; wal_compression on). The
client and the server share the machine's two cores.

* ``bulk_append_1M``: one `append_frame` of 1,000,000 events (1,000 streams x 1,000) through
  COPY, into a fresh database; best of two runs (target >= 100,000 events/s), beside the
  DuckDB file store's figure for the same frame in the same run. Each measurement starts on
  a quiet server: the databases measured before it are dropped and a checkpoint writes their
  pages out, so that it is not charged with their write-back.
* ``append_latency_8_writers_*``: 8 processes, each appending single events to its own
  tournament stream as a command does (read the stream's version, append one event);
  p50/p99 over every append (target p99 <= 25 ms). ``saturated``: every writer appends as fast
  as it can (a closed loop: the log's capacity); ``paced``: 10 appends/s per writer, far
  busier than 8 directors typing. Appends are serialised by the ordering lock, which is held
  through the commit's WAL flush, so saturated throughput is bound by the disk's fsync time.
* ``wof_archive``: the whole othello/elo archive ingested into PostgreSQL by the ingest job
  (target <= 20 s), the games cache rebuilt from it, and the WOF list as of 2025-11-01
  computed from it and from the same archive in DuckDB: the list files must be the same bytes.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path
from typing import Any

ARCHIVE = Path(__file__).resolve().parent.parent.parent / "shared" / "testdata" / "othello" / "elo"

WRITER = textwrap.dedent(
    """
    import json, sys, time
    from events.schema import ResultRecorded
    from events.store import NewEvent
    from events.stores import open_store

    url, me, count, rate = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
    stream = f"tournament-latency-{me}"
    latencies = []
    with open_store(url) as store:
        print("ready", flush=True)
        sys.stdin.readline()  # start together
        begin = time.perf_counter() + me / (rate * 8) if rate else 0.0
        for i in range(count):
            event = NewEvent(ResultRecorded(round=1 + i // 100, board=1 + i % 100, outcome="1-0"))
            if rate:  # a director's pace: the next command at its time, not at once
                time.sleep(max(0.0, begin + i / rate - time.perf_counter()))
            started = time.perf_counter()
            version = store.stream_version(stream)
            store.append(stream, [event], version)
            latencies.append(time.perf_counter() - started)
    print(json.dumps(latencies))
    """
)


def _settle(server: Any, url: str) -> None:
    """Drop a measured database and write the server's dirty pages out (a checkpoint), so
    that the next measurement is not charged with this one's write-back."""
    import psycopg

    server.drop_database(url)
    with psycopg.connect(server.url(), autocommit=True) as con:
        con.execute("CHECKPOINT")


def _quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def bulk_append(server: Any) -> dict[str, Any]:
    from benchmarks.bench_store import bulk_events
    from events.stores import init_store, open_store

    frame = bulk_events(1000, 1000)
    runs = []
    for _ in range(2):
        url = server.create_database()
        init_store(url)
        with open_store(url) as store:
            started = time.perf_counter()
            store.append_frame(frame)
            runs.append(time.perf_counter() - started)
            assert store.head_position() == frame.height
        _settle(server, url)
    best = min(runs)
    # The embedded store on the same frame, in the same minutes: the machine's load moves both.
    duckdb_runs = []
    with tempfile.TemporaryDirectory(prefix="bench-duckdb-") as d:
        for i in range(2):
            with open_store(str(Path(d) / f"bulk{i}.duckdb")) as store:
                started = time.perf_counter()
                store.append_frame(frame)
                duckdb_runs.append(time.perf_counter() - started)
    return {
        "events": frame.height,
        "seconds": [round(r, 2) for r in runs],
        "events_per_second": round(frame.height / best),
        "target_events_per_second": 100_000,
        "duckdb_same_run_events_per_second": round(frame.height / min(duckdb_runs)),
    }


def append_latency(
    server: Any, writers: int = 8, appends: int = 300, rate: float = 0.0
) -> dict[str, Any]:
    """Closed loop (``rate`` 0: every writer appends as fast as it can) or paced (``rate``
    appends per second per writer)."""
    from events.stores import init_store

    url = server.create_database()
    init_store(url)
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, url, str(me), str(appends), str(rate)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        for me in range(writers)
    ]
    for p in procs:
        assert p.stdout is not None
        assert p.stdout.readline().strip() == "ready"
    started = time.perf_counter()
    for p in procs:
        assert p.stdin is not None
        p.stdin.write("go\n")
        p.stdin.flush()
    latencies: list[float] = []
    for p in procs:
        out, _ = p.communicate(timeout=600)
        latencies += json.loads(out)
    seconds = time.perf_counter() - started
    _settle(server, url)
    ms = [x * 1000 for x in latencies]
    return {
        "writers": writers,
        "appends": len(ms),
        "offered_per_second": writers * rate if rate else "as fast as possible",
        "p50_ms": round(statistics.median(ms), 2),
        "p99_ms": round(_quantile(ms, 0.99), 2),
        "max_ms": round(max(ms), 2),
        "appends_per_second": round(len(ms) / seconds),
        "target_p99_ms": 25,
        "note": "each append: read the stream's version, append one event (one command's "
        "store work, store already open)",
    }


def _wof_list(store: Any, out: Path) -> tuple[dict[str, Any], dict[str, bytes]]:
    from pipelines.jobs.ratings import RunRequest, run_list
    from projections.games import GamesCache
    from ratings.methods import Method

    with GamesCache.for_store(store) as cache:
        rebuild = cache.sync(store)
        started = time.perf_counter()
        result = run_list(
            store,
            cache,
            RunRequest(method=Method.WOF, as_of=dt.date(2025, 11, 1), output=out, publish=False),
        )
        run_seconds = time.perf_counter() - started
    files = {p.name: p.read_bytes() for p in sorted(out.iterdir()) if p.is_file()}
    # The manifest names the log it was computed from (its hash chain head, which holds each
    # event's commit time): two stores ingested one after the other differ there and only
    # there. Everything else in it (content hash, players, as-of position) must be equal.
    manifest = json.loads(files["manifest.json"])
    manifest.pop("log_chain_head", None)
    files["manifest.json"] = json.dumps(manifest, sort_keys=True).encode()
    return {
        "cache_rebuild_seconds": round(rebuild.seconds, 2),
        "games": rebuild.games,
        "wof_run_seconds": round(run_seconds, 2),
        "players": result.players,
        "content_sha256": result.content_sha256,
    }, files


def wof_archive(server: Any, tmp: Path) -> dict[str, Any]:
    from events.stores import init_store, open_store
    from pipelines.jobs.ingest import discover, ingest

    files = discover([ARCHIVE])
    url = server.create_database()
    init_store(url)
    figures: dict[str, Any] = {"files": len(files)}
    with open_store(url) as pg:
        started = time.perf_counter()
        report = ingest(pg, files)
        figures["ingest_seconds"] = round(time.perf_counter() - started, 2)
        figures["events"] = pg.head_position()
        figures["games_ingested"] = report.summary()["games"]
        started = time.perf_counter()
        figures["read_frame_events"] = pg.read_frame().height
        figures["read_frame_seconds"] = round(time.perf_counter() - started, 2)
        figures["postgres"], pg_files = _wof_list(pg, tmp / "list-postgres")
    with open_store(str(tmp / "wof.duckdb")) as duck:
        started = time.perf_counter()
        ingest(duck, files)
        figures["duckdb_ingest_seconds"] = round(time.perf_counter() - started, 2)
        figures["duckdb"], duck_files = _wof_list(duck, tmp / "list-duckdb")
    figures["same_list_files"] = sorted(n for n in pg_files if duck_files.get(n) == pg_files[n])
    figures["different_list_files"] = sorted(
        n for n in set(pg_files) | set(duck_files) if duck_files.get(n) != pg_files.get(n)
    )
    figures["target_ingest_seconds"] = 20
    return figures


def run() -> dict[str, Any]:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from tests.postgres import PostgresServer, pg_binaries

    bin_dir = pg_binaries()
    if bin_dir is None:
        return {"skipped": "PostgreSQL server binaries (initdb, pg_ctl) not found"}
    figures: dict[str, Any] = {
        "server": "PostgreSQL 15, fsync on, synchronous_commit on, max_wal_size 4GB, "
        "wal_compression on"
    }
    with tempfile.TemporaryDirectory(prefix="bench-postgres-") as d:
        tmp = Path(d)
        os.environ["ARBITER_CACHE_DIR"] = str(tmp / "cache")
        server = PostgresServer(bin_dir, durable=True)
        server.init()
        server.start(bulk_load=True)
        try:
            figures["bulk_append_1M"] = bulk_append(server)
            figures["append_latency_8_writers_saturated"] = append_latency(server)
            figures["append_latency_8_writers_paced"] = append_latency(
                server, appends=150, rate=10.0
            )
            if ARCHIVE.exists():
                figures["wof_archive"] = wof_archive(server, tmp)
            else:
                figures["wof_archive"] = {"skipped": f"archive not found: {ARCHIVE}"}
        finally:
            server.stop()
            server.remove()
    return figures


if __name__ == "__main__":
    print(json.dumps(run(), indent=2))
