"""Ingest the whole WOF .ELO archive (7,938 files, ~429k games) into a fresh DuckDB file.

The ingest runs in a child process so that its peak memory is its own, not the runner's;
the processes it reads the files in are counted apart (their CPU time, and the largest one's
peak memory).
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ARCHIVE = Path(__file__).resolve().parent.parent.parent / "shared" / "testdata" / "othello" / "elo"


def _child(store_path: str) -> dict[str, float | int]:
    from events.stores import open_store
    from pipelines.jobs.ingest import discover, ingest

    started = time.perf_counter()
    files = discover([ARCHIVE])
    with open_store(store_path) as store:
        report = ingest(store, files)
        seconds = time.perf_counter() - started
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        workers = resource.getrusage(resource.RUSAGE_CHILDREN)  # the job's reading processes
        events = store.read_frame(stream_prefix="tournament-").height
    summary = report.summary()
    return {
        "files": summary["files"],
        "ingested": summary["ingested"],
        "duplicate": summary["duplicate"],
        "failed": summary["failed"],
        "games": summary["games"],
        "tournament_events": events,
        "seconds": round(seconds, 3),
        "games_per_second": round(summary["games"] / seconds),
        "tournament_events_per_second": round(events / seconds),
        "cpu_seconds": round(time.process_time(), 3),
        "worker_cpu_seconds": round(workers.ru_utime + workers.ru_stime, 3),
        "peak_rss_mib": round(peak, 1),
        "worker_peak_rss_mib": round(workers.ru_maxrss / 1024, 1),
    }


def run() -> dict[str, float | int | str]:
    if not ARCHIVE.exists():
        return {"skipped": f"archive not found: {ARCHIVE}"}
    with tempfile.TemporaryDirectory() as tmp:
        store = str(Path(tmp) / "bench.duckdb")
        out = subprocess.run(
            [sys.executable, "-m", "benchmarks.bench_ingest", "--child", store],
            check=True,
            capture_output=True,
            text=True,
            cwd=Path(__file__).resolve().parent.parent,
        )
        figures: dict[str, float | int | str] = json.loads(out.stdout.strip().splitlines()[-1])
        figures["store_mib"] = round(sum(p.stat().st_size for p in Path(tmp).iterdir()) / 2**20, 1)
    return figures


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--child":
        print(json.dumps(_child(sys.argv[2])))
    else:
        print(run())
