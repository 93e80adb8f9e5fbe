"""`make bench`: run every benchmarks/bench_*.py module's `run()` and write its figures.

Each result goes to benchmarks/results/<name>.json with the machine's facts beside it.
`python -m benchmarks.run store ratings` runs only the named ones.
"""

from __future__ import annotations

import datetime as dt
import importlib
import json
import os
import platform
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"


def machine() -> dict[str, object]:
    return {
        "python": platform.python_version(),
        "machine": platform.machine(),
        "cpus": os.cpu_count(),
        "date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
    }


def main(argv: list[str]) -> int:
    names = sorted(p.stem.removeprefix("bench_") for p in HERE.glob("bench_*.py"))
    wanted = [n for n in names if not argv or n in argv]
    unknown = set(argv) - set(names)
    if unknown:
        print(f"unknown benchmark(s): {', '.join(sorted(unknown))}; known: {', '.join(names)}")
        return 2
    RESULTS.mkdir(exist_ok=True)
    failed = 0
    for name in wanted:
        module = importlib.import_module(f"benchmarks.bench_{name}")
        print(f"== {name}", flush=True)
        started = time.perf_counter()
        try:
            figures = module.run()
        except Exception as exc:  # one broken benchmark must not hide the others
            print(f"   failed: {type(exc).__name__}: {exc}")
            failed += 1
            continue
        record = {
            "benchmark": name,
            "machine": machine(),
            "figures": figures,
            "wall_seconds": round(time.perf_counter() - started, 2),
        }
        (RESULTS / f"{name}.json").write_text(json.dumps(record, indent=2) + "\n")
        print(json.dumps(figures, indent=2))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
