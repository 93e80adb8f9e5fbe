"""A 16-player Dutch run through the command line, exported to TRF and re-paired by a checker.

The event has everything that makes a TRF hard to re-pair: a late entry (after round 1), a
half-point bye, a withdrawal, forfeits both ways, a double forfeit, pairing-allocated byes and
a forbidden pair; its header carries the event data (dates, place, arbiters, round dates).
`arbiter-pairings --dutch T.trf -c` must find every round identical; so must bbpPairings
(the reference engine) when ``$BBP_PAIRINGS`` names its binary.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
from pathlib import Path

import pytest

BIN = Path(os.environ.get("VIRTUAL_ENV", "") or Path(__file__).parents[2] / ".venv") / "bin"
ROUNDS = 6
# (name, rating, federation, title); registration order is not rating order on purpose.
FIELD = [
    ("Berg, Anna", 2311, "NOR", "WFM"),
    ("Haugen, Lars", 2405, "NOR", "FM"),
    ("Kowalski, Jan", 2188, "POL", ""),
    ("Moreau, Claire", 2254, "FRA", ""),
    ("Svensson, Erik", 2472, "SWE", "IM"),
    ("Larsen, Per", 2099, "DEN", ""),
    ("Nieminen, Aino", 2150, "FIN", "WIM"),
    ("Olsen, Kari", 2360, "NOR", "FM"),
    ("Dahl, Ivar", 1984, "NOR", ""),
    ("Eriksen, Mona", 2026, "NOR", ""),
    ("Jensen, Ole", 2233, "DEN", "CM"),
    ("Virtanen, Mikko", 2290, "FIN", ""),
    ("Novak, Petr", 2121, "CZE", ""),
    ("Fischer, Hanna", 2068, "GER", ""),
    ("Rossi, Marco", 2400, "ITA", "FM"),
]
LATE = ("Aune, Tor", 2440, "NOR", "IM")  # registered after round 1: pairing number 16
OUTCOMES = ["1-0", "0-1", "1/2-1/2", "1-0", "0-1", "1-0", "1/2-1/2", "0-1"]


def arbiter(store: Path, *args: str) -> str:
    done = subprocess.run(
        [str(BIN / "arbiter"), "--store", str(store), *args],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, (args, done.stderr)
    return done.stdout


CSV_HEADER = "board,white,black,result"


def _batch(store: Path, script: Path, lines: list[list[str]]) -> str:
    """``lines`` run in order in one `arbiter batch` (one process: each would start Python
    and open the store again on its own; no test here is about a single call); its stdout."""
    script.write_text("".join(shlex.join(line) + "\n" for line in lines), encoding="utf-8")
    return arbiter(store, "batch", str(script))


@pytest.fixture(scope="module")
def trf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("dutch16")
    store = folder / "store.duckdb"
    create = [
        "tournament", "create", "--name", "Sixteen Open", "--game", "chess",
        "--system", "dutch", "--rounds", str(ROUNDS), "--start", "2026-03-01",
        "--end", "2026-03-06", "--place", "Oslo", "--federation", "NOR",
        "--chief-arbiter", "Hansen, Ola", "--deputy-arbiter", "Lie, Jon",
        "--time-control", "90'+30''", "--round-date", "1=2026-03-01",
        "--round-date", "6=2026-03-06",
    ]  # fmt: skip
    tid = "sixteen-open"
    # the event and its field in one batch: each line prints its id
    lines = [create]
    for name, rating, fed, title in FIELD:
        args = ["player", "add", tid, "--name", name, "--rating", str(rating), "--federation", fed]
        lines.append([*args, "--title", title] if title else args)
    printed = _batch(store, folder / "field.txt", lines).split()
    assert printed[0] == tid
    ids = {name: int(pid) for (name, *_), pid in zip(FIELD, printed[1:], strict=True)}
    # start ranks 1 and 8 would meet on board 1 of round 1: kept apart (an XXP record)
    lines = [["forbid", tid, f"id:{ids['Svensson, Erik']}", f"id:{ids['Jensen, Ole']}"]]
    for rnd in range(1, ROUNDS + 1):
        # one batch a round: the round before's results sheet, the director's changes, the
        # pairing, and the round's pairings as CSV (the last thing printed)
        if rnd == 2:
            name, rating, fed, title = LATE
            lines.append(
                ["player", "add", tid, "--name", name, "--rating", str(rating),
                 "--federation", fed, "--title", title]
            )  # fmt: skip
            lines.append(["bye", tid, f"id:{ids['Olsen, Kari']}", "2", "--kind", "half"])
        if rnd == 4:
            lines.append(["player", "withdraw", tid, f"id:{ids['Larsen, Per']}"])
        lines.append(["pair", tid])
        lines.append(["pairings", tid, "--round", str(rnd), "--format", "csv"])
        out = _batch(store, folder / f"round{rnd}-batch.txt", lines).strip().splitlines()
        if rnd == 2:
            assert str(len(FIELD) + 1) in out  # the late entry takes the next free number
        boards = out[len(out) - 1 - out[::-1].index(CSV_HEADER) + 1 :]
        results = []
        for i, line in enumerate(boards, start=1):
            if line.rstrip(",").endswith("bye") or ",bye" in line:
                continue
            outcome = OUTCOMES[(i + rnd) % len(OUTCOMES)]
            if (rnd, i) == (1, 3):
                outcome = "+-"
            elif (rnd, i) == (2, 5):
                outcome = "-+"
            elif (rnd, i) == (3, 7):
                outcome = "--"
            results.append(f"{i} {outcome}")
        # the round's results as a director enters a results sheet: one file, one command
        sheet = folder / f"round{rnd}.txt"
        sheet.write_text("\n".join(results) + "\n")
        lines = [["results", tid, "--round", str(rnd), "--file", str(sheet)]]
    path = folder / "sixteen.trf"
    _batch(store, folder / "export.txt", [*lines, ["export", tid, "--format", "trf",
                                                   "--output", str(path)]])  # fmt: skip
    return path


def _has_what_makes_it_hard(trf: Path) -> None:
    text = trf.read_text()
    players = [line for line in text.splitlines() if line.startswith("001")]
    assert len(players) == 16
    late = next(line for line in players if "Aune, Tor" in line)
    assert late[4:8].strip() == "16"  # the late entry takes the next free number
    assert late[89:99] == "  0000 - Z"  # ... and is absent in round 1
    assert any("0000 - H" in line for line in players)  # the half-point bye
    assert any(" + " in line or line.endswith(" +") for line in players)
    assert any(" - " in line for line in players)
    withdrawn = next(line for line in players if "Larsen, Per" in line)
    assert withdrawn.endswith("0000 - Z")
    assert "XXP    1    8" in text.splitlines()
    assert "102 Hansen, Ola" in text.splitlines()
    round1 = next(line for line in players if line[4:8] == "   1")
    assert round1[91:95] != "   8"  # not paired with number 8 in round 1


def _differences(output: str) -> list[int]:
    """Rounds a checker's output reports as different ("Checker pairings" after the round)."""
    rounds, current = [], 0
    for line in output.splitlines():
        found = re.search(r"Round #(\d+)", line)
        if found:
            current = int(found.group(1))
        elif "Checker pairings" in line or "No valid pairing" in line:
            rounds.append(current)
    return rounds


def _repaired_identically(trf: Path) -> None:
    done = subprocess.run(
        [str(BIN / "arbiter-pairings"), "--dutch", str(trf), "-c"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert _differences(done.stdout) == [], done.stdout
    assert f"{ROUNDS} of {ROUNDS} rounds identical" in done.stdout


@pytest.mark.skipif(not os.environ.get("BBP_PAIRINGS"), reason="$BBP_PAIRINGS not set")
def test_bbppairings_repairs_every_round(trf: Path) -> None:
    done = subprocess.run(
        [os.environ["BBP_PAIRINGS"], "--dutch", str(trf), "-c"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert _differences(done.stdout) == [], done.stdout


def _a_changed_round_is_reported(trf: Path, tmp_path: Path) -> None:
    """Colours of one round-2 game flipped on both sides: a consistent file that the engine
    would not have paired so; -c names the round, --strict exits 4."""
    lines = trf.read_text().splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith("001    1 "))
    opponent = int(lines[first][99:105])
    second = next(i for i, line in enumerate(lines) if line.startswith(f"001 {opponent:>4} "))
    for i in (first, second):
        line = lines[i]
        flipped = {"w": "b", "b": "w"}[line[106]]
        lines[i] = line[:106] + flipped + line[107:]
    changed = tmp_path / "changed.trf"
    changed.write_text("\n".join(lines) + "\n")
    done = subprocess.run(
        [str(BIN / "arbiter-pairings"), "--dutch", str(changed), "-c", "--strict"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 4, done.stderr
    assert 2 in _differences(done.stdout)
    differ = _differences(done.stdout)
    summary = f"changed.trf: {ROUNDS - len(differ)} of {ROUNDS} rounds identical; round(s) 2"
    assert done.stdout.splitlines()[-1].startswith(summary)


def test_the_exported_trf_repairs_every_round(trf: Path, tmp_path: Path) -> None:
    """One test over the one expensive event (xdist would build it once per worker)."""
    _has_what_makes_it_hard(trf)
    _repaired_identically(trf)
    _a_changed_round_is_reported(trf, tmp_path)
