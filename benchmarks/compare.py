"""Agreement with the reference engines at scale (issue 35 part 2): ``make compare``.

For each system whose reference is built (``$BBP_PAIRINGS``: bbpPairings v6, ``--dutch`` and
``--burstein``; ``$BBP_PAIRINGS_V5``: bbpPairings v5.0.1, ``--dutch-2017``; ``$DUBOV_REFERENCE``:
py4swiss 0.3.1, ``--dubov``, direction (b) only, round by round: benchmarks.compare_dubov) and
each of N seeded tournaments (8-300 players, 5-13 rounds, smaller fields first):

(a) the reference generates a tournament (``-g config -s seed``) and our checker (``-c``)
    re-pairs every round of it;
(b) our generator makes one (``arbiter-pairings -g``) and the reference's checker re-pairs it.

A tournament agrees when every round is paired identically. The figures, and the first
difference of each disagreeing tournament (direction, seed, round, the differing boards), go
to benchmarks/results/compare.json; a summary is printed. Not part of ``make test`` or
``make bench``: it needs the reference builds and runs for as long as ``--budget`` allows.

    BBP_PAIRINGS=/path/bbpPairings.exe nice -n 10 python -m benchmarks.compare -n 500 --budget 3000
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import math
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from benchmarks.compare_dubov import check_tournament
from pipelines.engines.cli import main as pairings

HERE = Path(__file__).resolve().parent
RESULT = HERE / "results" / "compare.json"

REFERENCES = {
    "dutch": ("BBP_PAIRINGS", "--dutch"),
    "burstein": ("BBP_PAIRINGS", "--burstein"),
    "dutch-2017": ("BBP_PAIRINGS_V5", "--dutch"),
    "dubov": ("DUBOV_REFERENCE", "-e dubov"),
}
"""Our system -> the environment variable naming its reference, and the reference's flag."""

_ROUND = re.compile(r": Round #(\d+)")
_SUMMARY = re.compile(r": (\d+) of (\d+) rounds identical")


@dataclass
class Difference:
    """The first round of a tournament that the two engines pair differently."""

    direction: str
    """``reference-generated`` (a) or ``arbiter-generated`` (b)."""
    seed: int
    players: int
    rounds: int
    round: int
    boards: list[str]
    """The differing boards, ``checker | tournament`` (the checker is the other engine)."""


@dataclass
class Tally:
    """One system's figures."""

    tournaments: int = 0
    reference_generated_agree: int = 0
    reference_generated_differ: int = 0
    arbiter_generated_agree: int = 0
    arbiter_generated_differ: int = 0
    unpairable: dict[str, int] = field(default_factory=lambda: {"reference": 0, "arbiter": 0})
    """Tournaments a generator stopped at a round it found no valid pairing for."""
    reference_failed: int = 0
    """Runs of the reference that crashed or failed otherwise (exit code not 0 or 1)."""
    arbiter_failed: int = 0
    """Runs of ours that failed (an input refused, an internal error): a bug to look at."""
    rounds_compared: int = 0
    players_max: int = 0
    differences: list[Difference] = field(default_factory=list)


def _fields(count: int, seed: int) -> list[tuple[int, int, int]]:
    """``count`` (players, rounds, seed): players log-uniform in 8-300, rounds 5-13 (at most
    players - 1), sorted by players: smaller fields first."""
    rng = random.Random(seed)
    drawn = []
    for i in range(count):
        players = round(math.exp(rng.uniform(math.log(8), math.log(300))))
        rounds = min(rng.randint(5, 13), players - 1)
        drawn.append((players, rounds, seed + i))
    return sorted(drawn)


def _ours(*argv: str) -> tuple[int, str]:
    """``arbiter-pairings ARGV`` in this process (no start-up per run): exit code, stdout."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = pairings(list(argv))
    return code, out.getvalue() + err.getvalue()


def _reference(exe: str, *argv: str) -> tuple[int, str]:
    done = subprocess.run([exe, *argv], capture_output=True, text=True, timeout=1800, check=False)
    return done.returncode, done.stdout + done.stderr


def _first_difference(text: str) -> tuple[int, list[str]] | None:
    """The first round a checker's output shows differences for, and its differing boards.

    Both checkers print ``NAME: Round #k`` per round and, for a round that differs, a
    ``Checker pairings … Tournament pairings`` table (ours lists every board, bbpPairings only
    the differing ones); the boards only one side has are kept, ``checker W B`` (the engine
    that re-paired the file) and ``file W B`` (the pairing the file holds).
    """
    current = 0
    lines = text.splitlines()
    for i, line in enumerate(lines):
        found = _ROUND.search(line)
        if found:
            current = int(found.group(1))
        elif line.lstrip().startswith("No valid pairing exists"):
            return current, [line.strip()]
        elif "Checker pairings" in line:
            checker: list[str] = []
            tournament: list[str] = []
            for row in lines[i + 1 :]:
                if not row.strip() or _ROUND.search(row) or _SUMMARY.search(row):
                    break
                if "-" in row:  # bbpPairings: ``  W - B      W - B``
                    pairs = [f"{w} {b}" for w, b in re.findall(r"(\d+)\s*-\s*(\d+)", row)]
                    checker += pairs[:1]
                    tournament += pairs[1:2]
                else:  # ours: ``W B`` in 18 columns, then ``W B`` (a side may be empty)
                    checker += [row[:18].strip()] if row[:18].strip() else []
                    tournament += [row[18:].strip()] if row[18:].strip() else []
            only_checker = [b for b in checker if b not in tournament]
            only_file = [b for b in tournament if b not in checker]
            return current, [f"checker {b}" for b in only_checker] + [
                f"file {b}" for b in only_file
            ]
    return None


def _rounds_checked(text: str) -> int:
    return len(_ROUND.findall(text))


def compare_one(
    system: str,
    exe: str,
    fixture: tuple[int, int, int],
    folder: Path,
    tally: Tally,
    keep: Path | None,
) -> None:
    """Both directions for one seeded tournament; the figures go to ``tally``."""
    players, rounds, seed = fixture
    env_flag = REFERENCES[system][1]
    config = folder / "config.txt"
    config.write_text(f"PlayersNumber={players}\nRoundsNumber={rounds}\n")
    tally.tournaments += 1
    tally.players_max = max(tally.players_max, players)
    theirs = folder / f"ref-{system}-{seed}.trf"
    code, text = _reference(exe, env_flag, "-g", str(config), "-o", str(theirs), "-s", str(seed))
    if code == 1 or (code == 0 and not theirs.exists()):
        tally.unpairable["reference"] += 1
    elif code != 0:
        tally.reference_failed += 1
    else:
        code, text = _ours(f"--{system}", str(theirs), "-c")
        if code != 0:
            tally.arbiter_failed += 1
            _keep(keep, theirs)
        elif _record(tally, "reference-generated", seed, players, rounds, text):
            _keep(keep, theirs)
    ours = folder / f"ours-{system}-{seed}.trf"
    code, text = _ours(f"--{system}", "-g", str(config), "-o", str(ours), "-s", str(seed))
    if code == 1:
        tally.unpairable["arbiter"] += 1
        return
    if code != 0:
        tally.arbiter_failed += 1
        return
    code, text = _reference(exe, env_flag, str(ours), "-c")
    if code != 0:
        tally.reference_failed += 1
        _keep(keep, ours)
    elif _record(tally, "arbiter-generated", seed, players, rounds, text):
        _keep(keep, ours)


def compare_dubov(
    system: str,
    exe: str,
    fixture: tuple[int, int, int],
    folder: Path,
    tally: Tally,
    keep: Path | None,
) -> None:
    """Direction (b) for the Dubov system: the reference has no generator or checker, so it
    pairs each round of our tournament from the file cut before that round."""
    players, rounds, seed = fixture
    config = folder / "config.txt"
    config.write_text(f"PlayersNumber={players}\nRoundsNumber={rounds}\n")
    tally.tournaments += 1
    tally.players_max = max(tally.players_max, players)
    ours = folder / f"ours-{system}-{seed}.trf"
    code, _ = _ours(f"--{system}", "-g", str(config), "-o", str(ours), "-s", str(seed))
    if code == 1:
        tally.unpairable["arbiter"] += 1
        return
    if code != 0:
        tally.arbiter_failed += 1
        return
    checked = check_tournament(ours, exe)
    tally.rounds_compared += checked.rounds
    if checked.failed is not None:
        tally.reference_failed += 1
        tally.differences.append(
            Difference("arbiter-generated", seed, players, rounds, 0, [checked.failed])
        )
        _keep(keep, ours)
    elif checked.first is None:
        tally.arbiter_generated_agree += 1
    else:
        tally.arbiter_generated_differ += 1
        tally.differences.append(
            Difference("arbiter-generated", seed, players, rounds, *checked.first)
        )
        _keep(keep, ours)


def _keep(keep: Path | None, trf: Path) -> None:
    """A tournament to look at again, copied to ``--keep``."""
    if keep is not None:
        keep.mkdir(parents=True, exist_ok=True)
        (keep / trf.name).write_bytes(trf.read_bytes())


def _record(tally: Tally, direction: str, seed: int, players: int, rounds: int, text: str) -> bool:
    """Count one checked tournament; True when it differs."""
    tally.rounds_compared += _rounds_checked(text)
    first = _first_difference(text)
    if direction == "reference-generated":
        if first is None:
            tally.reference_generated_agree += 1
        else:
            tally.reference_generated_differ += 1
    elif first is None:
        tally.arbiter_generated_agree += 1
    else:
        tally.arbiter_generated_differ += 1
    if first is not None:
        tally.differences.append(Difference(direction, seed, players, rounds, *first))
    return first is not None


def _write(
    tallies: dict[str, Tally], skipped: dict[str, str], started: float, output: Path
) -> None:
    record = {
        "benchmark": "compare",
        "wall_seconds": round(time.perf_counter() - started, 1),
        "systems": {name: asdict(t) for name, t in tallies.items()},
        "skipped": skipped,
    }
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(json.dumps(record, indent=2) + "\n")


def _summary(tallies: dict[str, Tally]) -> str:
    lines = []
    for name, t in tallies.items():
        lines.append(
            f"{name}: {t.tournaments} tournaments (up to {t.players_max} players), "
            f"{t.rounds_compared} rounds; reference-generated {t.reference_generated_agree} "
            f"agree / {t.reference_generated_differ} differ; arbiter-generated "
            f"{t.arbiter_generated_agree} agree / {t.arbiter_generated_differ} differ; "
            f"unpairable {t.unpairable}; reference failed {t.reference_failed}; "
            f"arbiter failed {t.arbiter_failed}"
        )
        for d in t.differences[:20]:
            lines.append(
                f"  {d.direction} seed {d.seed} ({d.players} players, {d.rounds} rounds): "
                f"round {d.round}: {'; '.join(d.boards[:6])}"
            )
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.compare", description=__doc__.splitlines()[0]
    )
    parser.add_argument("-n", type=int, default=500, help="tournaments per system (500)")
    parser.add_argument("--seed", type=int, default=1, help="the first seed (1)")
    parser.add_argument("--budget", type=float, help="stop after this many seconds")
    parser.add_argument(
        "--systems", default=",".join(REFERENCES), help="comma-separated (all with a reference)"
    )
    parser.add_argument("--keep", type=Path, help="copy each differing tournament here")
    parser.add_argument(
        "-o", "--output", type=Path, default=RESULT, help=f"the figures (default {RESULT.name})"
    )
    args = parser.parse_args(argv)
    started = time.perf_counter()
    wanted = [s for s in args.systems.split(",") if s]
    skipped = {
        s: f"${REFERENCES[s][0]} not set" for s in wanted if not os.environ.get(REFERENCES[s][0])
    }
    skipped["team"] = "no checker (-c) for --team, and no team generator"
    tallies = {s: Tally() for s in wanted if s not in skipped}
    with tempfile.TemporaryDirectory(prefix="arbiter-compare-") as tmp:
        for fixture in _fields(args.n, args.seed):
            if args.budget is not None and time.perf_counter() - started > args.budget:
                break
            for system, tally in tallies.items():
                exe = os.environ[REFERENCES[system][0]]
                one = compare_dubov if system == "dubov" else compare_one
                one(system, exe, fixture, Path(tmp), tally, args.keep)
                for leftover in Path(tmp).glob("*.trf"):
                    leftover.unlink()
            _write(tallies, skipped, started, args.output)
    _write(tallies, skipped, started, args.output)
    print(_summary(tallies))
    for name, why in skipped.items():
        print(f"{name}: skipped ({why})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
