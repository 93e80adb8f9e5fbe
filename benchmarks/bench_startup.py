"""Start-up: the wall time of light commands, median of 10 runs each, beside ``python -c pass``
(the interpreter's own start), the bare imports ``python -c "import duckdb, pydantic, typer"``
and, when ``$BBP_PAIRINGS`` names a bbpPairings v6 binary, the reference engine pairing the
same 100-player file.

    arbiter --help                          lists every command, loads none
    standings, pairings, result, player add on a 40-player Dutch event after two rounds, the
                                            third paired: each against the bare imports
    arbiter-pairings --dutch F -p OUT       the next round of a 100-player Dutch event
    arbiter result T 1 1 1-0 --correct      one result on a small tournament (a write)
    arbiter tournament list                 the store's tournaments (counted in the database)
    arbiter batch (20 corrections)          twenty result lines in one process, the store
                                            opened once

Targets (issue 31): ``arbiter --help`` and ``arbiter-pairings --dutch`` at 100 players in at most
0.25 s wall on the project's 2-core machine. Issue 47: ``standings`` (and ``pairings``,
``result``, ``player add``) of a 40-player event in at most 1.5x the bare imports, CPU and wall,
each the best of the runs (``ratios``; measured in the same run, so a loaded machine slows
both). CPU seconds (user + system) are reported too: on a shared machine they are the better
estimate of an idle machine's wall time.
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BIN = Path(sys.executable).parent
PERF = Path(__file__).resolve().parent.parent.parent / "shared" / "testdata" / "chess" / "perf"
FILE = PERF / "input_p0100_pair_r06_bbpgen.trf"
RUNS = 10


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
"""The children run as after an install: Python's bytecode cache written and used (pip
compiles it at install; a sandbox that sets PYTHONDONTWRITEBYTECODE=1 would otherwise make
every run compile a dozen modules again, ~0.06 s of this figure)."""


def timed(argv: list[str], runs: int = RUNS) -> dict[str, float]:
    """Median and best wall seconds of ``argv``, and its median CPU seconds, after one run
    that is not counted (it writes the bytecode cache)."""
    subprocess.run(argv, check=True, capture_output=True, env=_ENV)
    walls, cpus = [], []
    for _ in range(runs):
        cpu = _children_cpu()
        started = time.perf_counter()
        subprocess.run(argv, check=True, capture_output=True, env=_ENV)
        walls.append(time.perf_counter() - started)
        cpus.append(_children_cpu() - cpu)
    return {
        "median_seconds": round(statistics.median(walls), 3),
        "best_seconds": round(min(walls), 3),
        "median_cpu_seconds": round(statistics.median(cpus), 3),
        "best_cpu_seconds": round(min(cpus), 3),
    }


def timed_together(argvs: dict[str, list[str]], runs: int = RUNS) -> dict[str, dict[str, float]]:
    """`timed` for several commands, their runs taken in turn (one of each, then again)."""
    for argv in argvs.values():
        subprocess.run(argv, check=True, capture_output=True, env=_ENV)
    walls: dict[str, list[float]] = {name: [] for name in argvs}
    cpus: dict[str, list[float]] = {name: [] for name in argvs}
    for _ in range(runs):
        for name, argv in argvs.items():
            cpu = _children_cpu()
            started = time.perf_counter()
            subprocess.run(argv, check=True, capture_output=True, env=_ENV)
            walls[name].append(time.perf_counter() - started)
            cpus[name].append(_children_cpu() - cpu)
    return {
        name: {
            "median_seconds": round(statistics.median(walls[name]), 3),
            "best_seconds": round(min(walls[name]), 3),
            "median_cpu_seconds": round(statistics.median(cpus[name]), 3),
            "best_cpu_seconds": round(min(cpus[name]), 3),
        }
        for name in argvs
    }


BARE = "python -c 'import duckdb, pydantic, typer'"
LIGHT = ("standings", "pairings", "result (a correction)", "player add")
"""The light commands of issue 47, timed on `forty_player_event`."""


def forty_player_event(arbiter: Path, store: str, folder: Path) -> None:
    """A 40-player Dutch event after two rounds, the third paired and its board 1 entered (the
    result the timed `result --correct` corrects; a correction of a board without a result is
    refused). Entered by `arbiter batch`: the set-up is not what is timed."""
    lines = ["tournament create --name Forty --id forty --system dutch --rounds 7"]
    lines += [f"player add forty --name 'Player, {n}' --rating {2400 - 10 * n}" for n in range(40)]
    for round_no, result in ((1, "1-0"), (2, "0-1")):
        lines.append("pair forty")
        lines += [f"result forty {round_no} {board} {result}" for board in range(1, 21)]
    lines += ["pair forty", "result forty 3 1 1-0"]
    script = folder / "forty.txt"
    script.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    subprocess.run([str(arbiter), "--store", store, "batch", str(script)], check=True,
                   capture_output=True, env=_ENV)  # fmt: skip


def light_commands(tmp: Path) -> dict[str, object]:
    """The bare imports and issue 47's light commands, each timed alternately with the bare
    imports' runs (a load that changes during the run weighs on both), and their ratios."""
    arbiter = BIN / "arbiter"
    store = str(tmp / "forty.duckdb")
    forty_player_event(arbiter, store, tmp)
    base = [str(arbiter), "--store", store]
    argvs = {
        BARE: [sys.executable, "-c", "import duckdb, pydantic, typer"],
        "standings": [*base, "standings", "forty"],
        "pairings": [*base, "pairings", "forty"],
        "result (a correction)": [*base, "result", "forty", "3", "1", "1-0", "--correct"],
        "player add": [*base, "player", "add", "forty", "--name", "Late, Entry", "--force"],
    }
    figures = timed_together(argvs)
    bare = figures[BARE]
    ratios = {
        name: {
            "cpu": round(figures[name]["best_cpu_seconds"] / bare["best_cpu_seconds"], 2),
            "wall": round(figures[name]["best_seconds"] / bare["best_seconds"], 2),
        }
        for name in LIGHT
    }
    return {**figures, "ratios to the bare imports (best of runs; target 1.5)": ratios}


def run() -> dict[str, object]:
    figures: dict[str, object] = {"runs": RUNS}
    load = {"start": [round(x, 1) for x in os.getloadavg()]}
    figures["python -c pass"] = timed([sys.executable, "-c", "pass"])
    figures["arbiter --help"] = timed([str(BIN / "arbiter"), "--help"])
    with tempfile.TemporaryDirectory() as tmp:
        figures["40-player event"] = light_commands(Path(tmp))
    with tempfile.TemporaryDirectory() as tmp:
        store = str(Path(tmp) / "s.duckdb")
        for line in (
            ["tournament", "create", "--name", "T", "--id", "t", "--system", "dutch"],
            ["player", "add", "t", "--name", "A, One"],
            ["player", "add", "t", "--name", "B, Two"],
            ["pair", "t"],
            ["result", "t", "1", "1", "1-0"],
        ):
            subprocess.run([str(BIN / "arbiter"), "--store", store, *line], check=True,
                           capture_output=True)  # fmt: skip
        figures["arbiter result (a correction)"] = timed(
            [str(BIN / "arbiter"), "--store", store, "result", "t", "1", "1", "1-0", "--correct"]
        )
        figures["arbiter tournament list"] = timed(
            [str(BIN / "arbiter"), "--store", store, "tournament", "list"]
        )
        script = Path(tmp) / "corrections.txt"
        script.write_text(
            "".join(f"result t 1 1 {r} --correct\n" for r in ("1-0", "0-1") * 10),
            encoding="utf-8",
        )
        figures["arbiter batch (20 corrections)"] = timed(
            [str(BIN / "arbiter"), "--store", store, "batch", str(script)]
        )
        out = str(Path(tmp) / "out.txt")
        if FILE.exists():
            figures["arbiter-pairings --dutch, 100 players"] = timed(
                [str(BIN / "arbiter-pairings"), "--dutch", str(FILE), "-p", out]
            )
            binary = os.environ.get("BBP_PAIRINGS")
            figures["bbpPairings v6 --dutch, 100 players"] = (
                timed([binary, "--dutch", str(FILE), "-p", out])
                if binary
                else "reference not available (set $BBP_PAIRINGS)"
            )
        else:
            figures["arbiter-pairings --dutch, 100 players"] = f"{FILE} not found"
    load["end"] = [round(x, 1) for x in os.getloadavg()]
    figures["load average (1, 5, 15 min; 2 cores)"] = load
    return figures
