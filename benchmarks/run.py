"""`make bench`: run every benchmarks/bench_*.py module's `run()` and write its figures.

Each result goes to benchmarks/results/<name>.json with the machine's facts beside it.
`python -m benchmarks.run store ratings` runs only the named ones. Those of `ON_REQUEST` (minutes
and gigabytes: the officer's month at world scale) run only when named
(``make bench BENCH_ARGS=world``).
"""

from __future__ import annotations

import argparse
import ast
import datetime as dt
import importlib
import json
import os
import platform
import re
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
ON_REQUEST = frozenset({"world"})
"""Benchmarks a plain `make bench` leaves out: run when named."""


def machine() -> dict[str, object]:
    return {
        "python": platform.python_version(),
        "machine": platform.machine(),
        "cpus": os.cpu_count(),
        "date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
    }


def run_one(name: str) -> int:
    """Run one benchmark in this process and write its record (peak memory is its own)."""
    module = importlib.import_module(f"benchmarks.bench_{name}")
    started = time.perf_counter()
    figures = module.run()
    record = {
        "benchmark": name,
        "machine": machine(),
        "figures": figures,
        "wall_seconds": round(time.perf_counter() - started, 2),
    }
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / f"{name}.json").write_text(json.dumps(record, indent=2) + "\n")
    print(json.dumps(figures, indent=2), flush=True)
    return 0


def _names() -> list[str]:
    return sorted(p.stem.removeprefix("bench_") for p in HERE.glob("bench_*.py"))


def _summary(name: str) -> str:
    """The first sentence of a benchmark's docstring (read, not imported: no start-up cost)."""
    tree = ast.parse((HERE / f"bench_{name}.py").read_text(encoding="utf-8"))
    paragraph = " ".join((ast.get_docstring(tree) or "").split("\n\n", 1)[0].split())
    sentence = re.split(r"(?<=\.)\s", paragraph, maxsplit=1)[0].rstrip(".")
    return sentence if len(sentence) <= 90 else sentence[:89] + "…"


def _parser() -> argparse.ArgumentParser:
    width = max(map(len, _names()), default=0)
    listing = "\n".join(f"  {n:<{width}}  {_summary(n)}" for n in _names())
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.run",
        description="Run the benchmarks (all, or the named ones), each in its own process; "
        "figures go to benchmarks/results/<name>.json.",
        epilog=f"benchmarks:\n{listing}",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("names", nargs="*", metavar="NAME", help="benchmarks to run (all)")
    parser.add_argument("--one", metavar="NAME", help=argparse.SUPPRESS)
    return parser


def main(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    if args.one:
        return run_one(args.one)
    names = _names()
    wanted = [n for n in names if n in args.names or (not args.names and n not in ON_REQUEST)]
    unknown = set(args.names) - set(names)
    if unknown:
        print(f"unknown benchmark(s): {', '.join(sorted(unknown))}; known: {', '.join(names)}")
        return 2
    failed = 0
    for name in wanted:
        print(f"== {name}", flush=True)
        # A process per benchmark, so that each one's peak memory is its own.
        done = subprocess.run([sys.executable, "-m", "benchmarks.run", "--one", name], check=False)
        if done.returncode:
            print(f"   failed with exit code {done.returncode}")
            failed += 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
