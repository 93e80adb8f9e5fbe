"""Chess Swiss speed beyond Dutch 2025 (issue 14): Dutch 2017, Burstein and Dubov at 500 and
1000 players, Dutch 2025 at 2000 players, with bbpPairings v5.0.1 in the same run.

Inputs from chess/perf (pairing.md 2.7): round 6 of the 500-player ``bbpgen`` file, round 6 of
the 1000-player Dutch simulation, round 5 of the 2000-player simulation. Each engine pairs each
input in its own process (as ``bench_dutch``), so that its peak RSS is its own; the figures are
wall and CPU seconds (reading the TRF included), peak RSS and a SHA-256 of the pairing. On
the shared machine CPU seconds are the better estimate of an idle machine's wall time.

bbpPairings v5.0.1 (the 2017 reference) runs on the same inputs in the same run when
``$BBP_PAIRINGS_V5`` names its binary (``--dutch FILE -p OUT``): wall and CPU seconds of its
process, its peak RSS, and whether its pairing equals ours. Without it the record says so.
``ARBITER_BENCH_CHESS`` (comma-separated ``engine:size``) chooses the cases.

Targets (issue 14): Dutch 2017 faster than bbpPairings v5.0.1; Burstein <= 1 s / <= 5 s;
Dubov <= 2 s / <= 10 s; Dutch 2025 at 2000 players <= 15 s.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PERF = Path(__file__).resolve().parent.parent.parent / "shared" / "testdata" / "chess" / "perf"
INPUTS = {
    500: "input_p0500_pair_r06_bbpgen.trf",
    1000: "perf_dutchsim_p1000_r05.trf",
    2000: "perf_dutchsim_p2000_r04_pair_r05.trf",
}
ENGINES = {
    "dutch2017": "pairing.dutch2017",
    "burstein": "pairing.burstein",
    "dubov": "pairing.dubov",
    "dutch2025": "pairing.dutch",
}
CASES = (
    "dutch2017:500,dutch2017:1000,burstein:500,burstein:1000,dubov:500,dubov:1000,dutch2025:2000"
)
TARGETS = {
    "dutch2017": "faster than bbpPairings v5.0.1 on the same input",
    "burstein_p500": "<= 1 s",
    "burstein_p1000": "<= 5 s",
    "dubov_p500": "<= 2 s",
    "dubov_p1000": "<= 10 s",
    "dutch2025_p2000": "<= 15 s",
}


def _digest(boards: list[tuple[int, int]], pab: int | None) -> str:
    return hashlib.sha256(json.dumps([sorted(boards), pab]).encode()).hexdigest()


def _one(engine: str, path: Path) -> dict[str, object]:
    from ingest.trf import parse_trf
    from pipelines.engines.swiss_from_trf import swiss_input_with_absent

    pair = importlib.import_module(ENGINES[engine]).pair
    importlib.import_module("numpy")  # the engines import it on first use: not on the clock
    start, cpu = time.perf_counter(), time.process_time()
    swiss = swiss_input_with_absent(parse_trf(path))
    result = pair(swiss)
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    return {
        "players": len(swiss.players),
        "round": swiss.round_to_pair,
        "boards": len(result.boards),
        "wall_seconds": round(seconds, 3),
        "cpu_seconds": round(cpu, 3),
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        "pairing_sha256": _digest([tuple(b) for b in result.boards], result.pab),
    }


def _bbp(binary: str, path: Path) -> dict[str, object]:
    """bbpPairings v5.0.1 on ``path``: its process's wall and CPU seconds, peak RSS, pairing."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out.txt"
        start = time.perf_counter()
        process = subprocess.Popen(
            [binary, "--dutch", str(path), "-p", str(out)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        _, status, usage = os.wait4(process.pid, 0)  # this child's own usage and peak RSS
        seconds = time.perf_counter() - start
        process.returncode = os.waitstatus_to_exitcode(status)
        if process.returncode != 0:
            return {"error": f"exit {process.returncode}"}
        lines = out.read_text().split()
    numbers = [int(x) for x in lines[1:]]
    pairs = list(zip(numbers[::2], numbers[1::2], strict=True))
    pab = next((w for w, b in pairs if b == 0), None)
    return {
        "wall_seconds": round(seconds, 3),
        "cpu_seconds": round(usage.ru_utime + usage.ru_stime, 3),
        "peak_rss_mb": round(usage.ru_maxrss / 1024, 1),
        "pairing_sha256": _digest([(w, b) for w, b in pairs if b != 0], pab),
    }


def run() -> dict[str, object]:
    """Figures per case, each engine run in a fresh process."""
    cases = [c.split(":") for c in os.environ.get("ARBITER_BENCH_CHESS", CASES).split(",")]
    binary = os.environ.get("BBP_PAIRINGS_V5")
    figures: dict[str, object] = {}
    for engine, size in cases:
        path = PERF / INPUTS[int(size)]
        key = f"{engine}_p{size}"
        if not path.exists():
            figures[key] = "input absent"
            continue
        print(f"   {engine} on {path.name} ...", file=sys.stderr, flush=True)
        done = subprocess.run(
            [sys.executable, "-m", "benchmarks.bench_chess_swiss", engine, str(path)],
            check=True,
            capture_output=True,
            text=True,
        )
        ours: dict[str, object] = json.loads(done.stdout)
        if engine == "dutch2017":
            if binary and Path(binary).exists():
                reference = _bbp(binary, path)
                reference["same_pairing"] = (
                    reference.get("pairing_sha256") == ours["pairing_sha256"]
                )
                ours["bbpPairings_v5.0.1"] = reference
            else:
                ours["bbpPairings_v5.0.1"] = "reference not available (set $BBP_PAIRINGS_V5)"
        figures[key] = ours
    figures["targets"] = TARGETS
    return figures


if __name__ == "__main__":
    if len(sys.argv) == 3:
        print(json.dumps(_one(sys.argv[1], Path(sys.argv[2]))))
    else:
        print(json.dumps(run(), indent=2))
