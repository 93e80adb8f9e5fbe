"""The DuckDB store under #17: a 100,000-player .ELO into a store that already holds a
tournament (time, peak memory), `arbiter verify` on the whole othello/elo archive store, and
four writer processes appending for a while: appends per writer and their wait, with the
arrival-order queue and without it (ARBITER_STORE_QUEUE=0), in the same run.

Each part runs in child processes, so that peak memory is the child's own.
"""

from __future__ import annotations

import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ARCHIVE = ROOT.parent / "shared" / "testdata" / "othello" / "elo"
FIRST = ARCHIVE / "2019" / "20190105_92_Dutch_open.ELO"
PLAYERS = 100_000
WRITERS = 4
SECONDS = float(os.environ.get("ARBITER_BENCH_FAIRNESS_SECONDS", "30"))


def _arbiter(store: Path, *args: str, env: dict[str, str] | None = None) -> tuple[float, int]:
    """Wall seconds and the child's peak RSS (KiB) of one `arbiter` command."""
    started = time.perf_counter()
    child = subprocess.Popen(
        [sys.executable, "-m", "pipelines", "--store", str(store), *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env={**os.environ, **(env or {})},
        cwd=ROOT,
    )
    _, status, usage = os.wait4(child.pid, 0)
    seconds = time.perf_counter() - started
    if status != 0 and os.waitstatus_to_exitcode(status) not in (0, 1):
        assert child.stderr is not None
        raise RuntimeError(f"arbiter {args}: {child.stderr.read().decode()[:500]}")
    return seconds, usage.ru_maxrss


def big_elo_into_non_empty_store(tmp: Path) -> dict[str, object]:
    from tests.events.test_duckdb_bulk import write_elo

    store = tmp / "big.duckdb"
    _arbiter(store, "ingest", str(FIRST))
    big = write_elo(tmp / "20190106_Big_Open.ELO", PLAYERS)
    seconds, rss = _arbiter(store, "ingest", str(big))
    return {
        "players": PLAYERS,
        "games": PLAYERS // 2,
        "seconds": round(seconds, 2),
        "peak_rss_mib": round(rss / 1024, 1),
        "before": "never finished (waited at 0 % CPU in the bulk version check)",
    }


def verify_archive(tmp: Path) -> dict[str, object]:
    store = tmp / "wof.duckdb"
    ingest_seconds, _ = _arbiter(store, "ingest", str(ARCHIVE))
    seconds, rss = _arbiter(store, "verify")
    done = subprocess.run(
        [sys.executable, "-m", "pipelines", "--store", str(store), "verify", "-f", "json"],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    result = json.loads(done.stdout)
    return {
        "events": result["events"],
        "intact": result["intact"],
        "verify_seconds": round(seconds, 2),
        "verify_in_process_seconds": result["seconds"],
        "verify_peak_rss_mib": round(rss / 1024, 1),
        "ingest_seconds": round(ingest_seconds, 2),
    }


WRITER = """
import json, sys, time
from events.schema import FileIngested
from events.store import NewEvent
from events.stores import open_store
store_path, name, until = sys.argv[1], sys.argv[2], float(sys.argv[3])
waits = []
version = -1
while time.time() < until:
    asked = time.perf_counter()
    try:
        store = open_store(store_path)
    except Exception:
        continue
    waits.append(time.perf_counter() - asked)
    with store:
        event = FileIngested(sha256="0" * 64, path=name, format="elo", tournament_id=name,
                             players=0, games=0, warnings=())
        store.append(f"bench-{name}", [NewEvent(event)], version)
        version += 1
print(json.dumps({"appends": version + 1, "waits": waits}))
"""


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def writers(tmp: Path, queue: bool) -> dict[str, object]:
    store = tmp / f"writers-{int(queue)}.duckdb"
    subprocess.run(
        [sys.executable, "-m", "pipelines", "--store", str(store), "store", "init"],
        check=True,
        capture_output=True,
        cwd=ROOT,
    )
    env = {
        **os.environ,
        "ARBITER_STORE_QUEUE": "1" if queue else "0",
        "ARBITER_STORE_TIMEOUT": "60",
    }
    until = time.time() + SECONDS
    children = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, str(store), f"w{i}", str(until)],
            stdout=subprocess.PIPE,
            text=True,
            env=env,
            cwd=ROOT,
        )
        for i in range(WRITERS)
    ]
    results = [json.loads(c.communicate()[0]) for c in children]
    waits = [w for r in results for w in r["waits"]]
    appends = [int(r["appends"]) for r in results]
    return {
        "seconds": SECONDS,
        "appends_per_writer": appends,
        "max_over_min": round(max(appends) / max(1, min(appends)), 2),
        "wait_p50_ms": round(statistics.median(waits) * 1000, 1) if waits else None,
        "wait_p99_ms": round(_percentile(waits, 0.99) * 1000, 1),
        "wait_max_ms": round(max(waits) * 1000, 1) if waits else None,
    }


def run() -> dict[str, object]:
    if not ARCHIVE.exists():
        return {"skipped": f"archive not found: {ARCHIVE}"}
    figures: dict[str, object] = {}
    with tempfile.TemporaryDirectory() as tmp:
        figures["elo_100k_players_into_non_empty_store"] = big_elo_into_non_empty_store(Path(tmp))
    with tempfile.TemporaryDirectory() as tmp:
        figures["verify_whole_othello_archive"] = verify_archive(Path(tmp))
    with tempfile.TemporaryDirectory() as tmp:
        figures["four_writers_queued"] = writers(Path(tmp), queue=True)
        figures["four_writers_unqueued_before"] = writers(Path(tmp), queue=False)
    figures["runner_peak_rss_mib"] = round(
        resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1
    )
    return figures


if __name__ == "__main__":
    print(json.dumps(run(), indent=2))
