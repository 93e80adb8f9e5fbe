"""Each pairing engine side by side with its reference engine, start-up included (issue 35).

Both are run as a user runs them: ``arbiter-pairings --SYSTEM FILE -p OUT`` and the
reference binary with its own flag on the same file, one process each, alternating (ours,
then the reference, five times; ``ARBITER_BENCH_REPEATS`` changes it), each launched by GNU
time, after our packages are compiled to bytecode (as an installed package is). The figures
are the minimum wall and CPU seconds of each, the largest peak RSS of each, their ratio
(reference / ours: above 1 means we are faster) and whether the two pairing files are
byte-identical.

References (never part of the project; built in a scratch folder): ``$BBP_PAIRINGS``
(bbpPairings v6: Dutch 2025 and Burstein), ``$BBP_PAIRINGS_V5`` (bbpPairings v5.0.1: Dutch
2017), ``$BBP_TEAM_PAIRINGS`` (the Sharly-Chess fork of bbpPairings: ``--team``). Without one,
its cases give our figures only and say which variable is missing.

Inputs: chess/perf in the shared test data (the 500-player ``bbpgen`` round 6 and the
1,000-player simulation round 6, pairing.md 2.7) and the team bench's one-board team files
(``bench_team_swiss.team_file``: 16, 40 and 100 teams after 5 rounds, seed 1).
``ARBITER_BENCH_REFERENCES`` (comma-separated ``system:size``) chooses the cases.
"""

from __future__ import annotations

import compileall
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

PERF = Path(__file__).resolve().parent.parent.parent / "shared" / "testdata" / "chess" / "perf"
CHESS_INPUTS = {500: "input_p0500_pair_r06_bbpgen.trf", 1000: "perf_dutchsim_p1000_r05.trf"}
GNU_TIME = "/usr/bin/time"
"""GNU time (Debian's ``time`` package), for each process's own peak RSS."""
CASES = (
    "dutch2025:500,dutch2025:1000,dutch2017:500,dutch2017:1000,burstein:500,burstein:1000,"
    "team:16,team:40,team:100"
)


@dataclass(frozen=True)
class System:
    ours: str
    """``arbiter-pairings``' flag."""
    variable: str
    """The environment variable naming the reference binary."""
    flag: str
    """The reference's flag."""
    reference: str
    """What the reference is, for the record."""


SYSTEMS = {
    "dutch2025": System("--dutch", "BBP_PAIRINGS", "--dutch", "bbpPairings v6.0.0"),
    "dutch2017": System("--dutch-2017", "BBP_PAIRINGS_V5", "--dutch", "bbpPairings v5.0.1"),
    "burstein": System("--burstein", "BBP_PAIRINGS", "--burstein", "bbpPairings v6.0.0"),
    "team": System("--team", "BBP_TEAM_PAIRINGS", "--team", "Sharly-Chess bbpPairings fork"),
}


@dataclass
class Runs:
    wall: float = float("inf")
    cpu: float = float("inf")
    peak_kb: int = 0
    failures: int = 0

    def record(self) -> dict[str, object]:
        return {
            "wall_seconds": round(self.wall, 3),
            "cpu_seconds": round(self.cpu, 3),
            "peak_rss_mb": round(self.peak_kb / 1024, 1),
            "failures": self.failures,
        }


def _timed(argv: list[str], runs: Runs, folder: Path) -> None:
    """One process: its wall time, CPU time (``wait4``) and peak RSS.

    The peak comes from GNU time, which forks the process from its own small image: a child
    spawned by this (larger) process would count this process's pages in its peak.
    """
    peak = folder / "peak.txt"
    started = time.perf_counter()
    process = subprocess.Popen(
        [GNU_TIME, "-f", "%M", "-o", str(peak), *argv],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - started
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        runs.failures += 1
        return
    runs.wall = min(runs.wall, wall)
    runs.cpu = min(runs.cpu, usage.ru_utime + usage.ru_stime)
    runs.peak_kb = max(runs.peak_kb, int(peak.read_text().split()[-1]))


def _input(system: str, size: int, folder: Path) -> Path:
    if system != "team":
        return PERF / CHESS_INPUTS[size]
    from benchmarks.bench_team_swiss import team_file

    path = folder / f"teams-{size}.trf"
    path.write_text(team_file(size, 1))
    return path


def _case(system: str, size: int, repeats: int, folder: Path) -> dict[str, object]:
    spec = SYSTEMS[system]
    source = _input(system, size, folder)
    ours_out, theirs_out = folder / "ours.txt", folder / "theirs.txt"
    pairings = str(Path(sys.executable).parent / "arbiter-pairings")
    binary = os.environ.get(spec.variable)
    ours, theirs = Runs(), Runs()
    for _ in range(repeats):
        _timed([pairings, spec.ours, str(source), "-p", str(ours_out)], ours, folder)
        if binary:
            _timed([binary, spec.flag, str(source), "-p", str(theirs_out)], theirs, folder)
    figures: dict[str, object] = {"input": source.name, "arbiter": ours.record()}
    if not binary:
        figures[spec.reference] = f"not measured: ${spec.variable} is not set"
        return figures
    figures[spec.reference] = theirs.record()
    figures["reference_over_ours_wall"] = round(theirs.wall / ours.wall, 2)
    figures["peak_rss_ours_over_reference"] = round(ours.peak_kb / max(theirs.peak_kb, 1), 2)
    figures["same_pairing"] = ours_out.exists() and (
        theirs_out.exists() and ours_out.read_bytes() == theirs_out.read_bytes()
    )
    return figures


def _compiled() -> None:
    """Our packages compiled to bytecode first, as an installed package runs: without it (say
    with ``PYTHONDONTWRITEBYTECODE`` set) every run would compile the sources again."""
    root = Path(__file__).resolve().parent.parent
    packages = ("events", "projections", "pairing", "ratings", "ingest", "pipelines")
    for package in packages:
        compileall.compile_dir(root / package, quiet=1)


def run() -> dict[str, object]:
    repeats = int(os.environ.get("ARBITER_BENCH_REPEATS", "5"))
    figures: dict[str, object] = {"repeats": repeats}
    _compiled()
    with tempfile.TemporaryDirectory(prefix="arbiter-bench-references-") as tmp:
        for case in os.environ.get("ARBITER_BENCH_REFERENCES", CASES).split(","):
            system, size = case.split(":")
            print(f"   {case}", file=sys.stderr, flush=True)
            figures[f"{system}_{size}"] = _case(system, int(size), repeats, Path(tmp))
    return figures
