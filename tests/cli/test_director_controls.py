"""The director's controls through the `arbiter` command line (subprocesses, as a user):
event data into the TRF header and the log, forbidden pairs honoured by every FIDE Swiss
engine, a round paired by hand from `arbiter-pairings -p` output, board swaps, player edits
and removals, undo -> re-pair -> undo -> restore the first truncation, Ctrl-C at any moment."""

from __future__ import annotations

import json
import os
import shlex
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(os.environ.get("VIRTUAL_ENV", "") or ROOT / ".venv") / "bin"


class Cli:
    def __init__(self, store: Path) -> None:
        self.store = store

    def run(self, line: str, code: int = 0) -> subprocess.CompletedProcess[str]:
        done = subprocess.run(
            [str(BIN / "arbiter"), "--store", str(self.store), *shlex.split(line)],
            capture_output=True,
            text=True,
            check=False,
        )
        assert done.returncode == code, (line, done.stderr)
        return done

    def __call__(self, line: str) -> str:
        return self.run(line).stdout

    def said(self, line: str, code: int = 0) -> str:
        """The one line the command printed on stderr."""
        lines = self.run(line, code).stderr.strip().splitlines()
        return lines[-1]

    def boards(self, tid: str, rnd: int) -> list[tuple[str, str | None]]:
        rows: list[dict[str, Any]] = json.loads(self(f"pairings {tid} --round {rnd} -f json"))
        return [(r["white"]["name"], r["black"] and r["black"]["name"]) for r in rows]


def test_event_data_reaches_the_log_and_the_trf_header(tmp_path: Path) -> None:
    cli = Cli(tmp_path / "s.duckdb")
    tid = cli(
        """tournament create --name "Oslo Open" --game chess --system dutch --rounds 9
        --start 2026-03-01 --end 2026-03-09 --place Oslo --federation nor
        --chief-arbiter "Hansen, Ola" --deputy-arbiter "Berg, Kari" --deputy-arbiter "Lie, Jon"
        --time-control "90'+30''" --rating-type rapid --round-date 1=2026-03-01"""
    ).strip()
    assert tid == "oslo-open"
    said = cli.said(f'tournament edit {tid} --place "Oslo, Chess House" --round-date 3=2026-03-03')
    assert said == f"{tid}: set place Oslo, Chess House, round dates round 3 2026-03-03"
    assert "TournamentEdited" in cli(f"log {tid}")
    cli(f'player add {tid} --name "Carlsen, Magnus" --rating 2830 --federation NOR --title gm')
    cli(f'player add {tid} --name "Berg, Anna" --federation NOR')
    trf = cli(f"export {tid} --format trf").splitlines()
    header = {line[:3]: line[4:] for line in trf if line[:3].isdigit() and line[:3] != "001"}
    assert header["012"] == "Oslo Open"
    assert header["022"] == "Oslo, Chess House"
    assert header["032"] == "NOR"
    assert header["042"] == "2026/03/01"
    assert header["052"] == "2026/03/09"
    assert header["062"] == "2"
    assert header["072"] == "1"  # one rated player
    assert header["102"] == "Hansen, Ola"
    assert [line[4:] for line in trf if line.startswith("112")] == ["Berg, Kari", "Lie, Jon"]
    assert header["122"] == "90'+30''"
    dates = next(line for line in trf if line.startswith("132"))
    # round dates sit above the round blocks: cols 92-99, 102-109, 112-119 (TRF16)
    assert dates[91:99] == "26/03/01"
    assert dates[101:109] == " " * 8
    assert dates[111:119] == "26/03/03"
    carlsen = next(line for line in trf if "Carlsen" in line)
    assert carlsen[4:8] == "   1"
    assert carlsen[10:13] == " GM"
    show = json.loads(cli(f"tournament show {tid} -f json"))[0]
    assert show["rating_type"] == "rapid"
    # ... and back: the exported file ingested into another store gives the same event data
    # (the TRF has no field for the rating type)
    exported = tmp_path / "oslo.trf"
    exported.write_text("\n".join(trf) + "\n")
    other = Cli(tmp_path / "other.duckdb")
    other(f"ingest {exported}")
    (read,) = json.loads(other("tournament show oslo -f json"))
    fields = ("name", "start", "end", "place", "federation", "chief_arbiter",
              "deputy_arbiters", "time_control", "round_dates")  # fmt: skip
    assert {k: read[k] for k in fields} == {k: show[k] for k in fields}
    assert read["round_dates"] == show["round_dates"] != ""


PLAYERS = [("Aa, A", 2400), ("Bb, B", 2300), ("Cc, C", 2200), ("Dd, D", 2100)]


@pytest.mark.parametrize("system", ["dutch", "burstein", "dubov"])
def test_a_forbidden_pair_is_never_paired(tmp_path: Path, system: str) -> None:
    """Round 1 of four players pairs 1-3 and 2-4 (top half against bottom half, C.04.3 and
    the Burstein and Dubov rules alike); 1 and 3 forbidden, the engine must pair otherwise."""
    cli = Cli(tmp_path / "s.duckdb")
    tid = cli(f"tournament create --name F --system {system} --rounds 3").strip()
    for name, rating in PLAYERS:
        cli(f'player add {tid} --name "{name}" --rating {rating}')
    said = cli.said(f"forbid {tid} 1 3")
    assert said == (
        "players No. 1 (Aa, A) and No. 3 (Cc, C) will not be paired together from round 1 on"
    )
    cli(f"pair {tid}")
    pairs = {frozenset(p) for p in cli.boards(tid, 1)}
    assert frozenset(("Aa, A", "Cc, C")) not in pairs
    assert len(pairs) == 2
    trf = cli(f"export {tid} --format trf")
    assert "XXP    1    3" in trf.splitlines()


def _round_robin(cli: Cli, tid: str, rnd: int, script: Path) -> None:
    """A result on every board of the round, in one `arbiter batch` (set-up)."""
    script.write_text(
        "".join(
            f"result {tid} {rnd} {board} {['1-0', '0-1', '1/2-1/2'][(board + rnd) % 3]}\n"
            for board, _ in enumerate(cli.boards(tid, rnd), start=1)
        ),
        encoding="utf-8",
    )
    cli(f"batch {script}")


def test_hand_pairing_swaps_and_the_undo_restore_round_trip(tmp_path: Path) -> None:
    cli = Cli(tmp_path / "s.duckdb")
    tid = cli("tournament create --name H --system dutch --rounds 4").strip()
    field = tmp_path / "field.txt"  # the six players in one `arbiter batch` (set-up)
    field.write_text(
        "".join(
            f'player add {tid} --name "P{i}, X" --rating {2500 - 10 * i} --birth 1990\n'
            for i in range(1, 7)
        ),
        encoding="utf-8",
    )
    cli(f"batch {field}")
    # a registration mistake: corrected, another taken back before any pairing
    assert cli.said(f"player edit {tid} 6 --rating 2111 --federation swe") == (
        "player No. 6: set rating 2111, federation SWE"
    )
    assert cli(f'player add {tid} --name "Gone, G"').strip() == "7"
    assert cli.said(f"player remove {tid} 7") == "player No. 7 (Gone, G) removed"
    assert cli(f'player add {tid} --name "Late, L"').strip() == "8"  # ids are never reused
    assert cli.said(f"player remove {tid} id:8") == "player No. 7 (Late, L) removed"
    cli(f"pair {tid}")
    _round_robin(cli, tid, 1, tmp_path / "results.txt")
    assert cli.said(f"player remove {tid} 1", code=1).startswith(
        f"error: {tid}: player No. 1 (P1, X)"
    )
    # round 2 by hand, as arbiter-pairings -p writes it from the exported TRF
    trf = tmp_path / "h.trf"
    cli(f"export {tid} --format trf -o {trf}")
    boards = tmp_path / "boards.txt"
    done = subprocess.run(
        [str(BIN / "arbiter-pairings"), "--dutch", str(trf), "-p", str(boards)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    cli(f"pair {tid} --boards {boards}")
    original = cli.boards(tid, 2)
    # the engine pairs it the same way: undo, pair, compare
    cli(f"undo {tid} --round 2")
    cli(f"pair {tid}")
    assert cli.boards(tid, 2) == original
    # swap two boards before results
    assert cli.said(f"pairings {tid} --round 2 --swap 1 3") == "round 2: boards 1 and 3 exchanged"
    swapped = cli.boards(tid, 2)
    assert swapped == [original[2], original[1], original[0]]
    # undo -> re-pair by hand (a rematch: refused, then forced) -> undo -> restore the first
    first = cli.said(f"undo {tid} --round 2")
    assert "as truncation 2" in first  # truncation 1 was the hand-made round 2
    rematch = tmp_path / "rematch.txt"
    rows = json.loads(cli(f"player list {tid} -f json"))
    numbers = {r["name"]: r["start_rank"] for r in rows}
    w, b = cli.boards(tid, 1)[0]
    assert b is not None
    others = [n for n in sorted(numbers, key=numbers.__getitem__) if n not in (w, b)]
    pairs = [(w, b), (others[0], others[1]), (others[2], others[3])]
    rematch.write_text("3\n" + "".join(f"{numbers[x]} {numbers[y]}\n" for x, y in pairs))
    refused = cli.said(f"pair {tid} --boards {rematch}", code=1)
    assert "have already played each other" in refused
    assert "--force" in refused
    forced = cli.run(f"pair {tid} --boards {rematch} --force")
    assert "warning:" in forced.stderr
    assert cli.boards(tid, 2) != swapped
    cli(f"undo {tid} --round 2")
    listing = json.loads(cli(f"truncations {tid} -f json"))
    assert [t["id"] for t in listing] == [1, 2, 3]
    assert all(t["rounds"] == "2" for t in listing)
    assert [t["restorable"] for t in listing] == [True, True, True]
    assert cli.said(f"restore {tid} --truncation 1").startswith("restored")
    assert cli.boards(tid, 2) == original  # the first round 2 is back
    listing = json.loads(cli(f"truncations {tid} -f json"))
    assert [bool(t["restored"]) for t in listing] == [True, False, False]
    assert [t["restorable"] for t in listing] == [False, False, False]
    refused = cli.said(f"restore {tid} --truncation 3", code=1)
    assert refused.startswith("error: cannot restore truncation 3")


OUTPUT = ("--output-root", "out")


def _interrupted_after(folder: Path, delay: float) -> tuple[int, str]:
    """Exit status and stderr of ``arbiter schedule`` sent SIGINT ``delay`` s after start."""
    folder.mkdir()
    process = subprocess.Popen(
        [str(BIN / "arbiter"), "--store", str(folder / "s.duckdb"), "schedule", *OUTPUT],
        cwd=folder,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    time.sleep(delay)
    process.send_signal(signal.SIGINT)
    try:
        _, err = process.communicate(timeout=60)
    finally:
        process.kill()
    return process.returncode, err


def _before_any_function_ran(code: int, err: str) -> bool:
    """The signal came while Python itself started or the console script imported the
    entry module, before the first line of an entry function (`pipelines.process.launch`):
    no program can answer then (on a loaded machine 0.05 s can fall there)."""
    return code == -signal.SIGINT or ("Traceback" in err and ", in arbiter\n" not in err)


@pytest.mark.parametrize("delay", [0.05, 0.3, 0.6, 1.0, 1.5])
def test_ctrl_c_at_any_moment_is_one_line_and_130(tmp_path: Path, delay: float) -> None:
    """Interrupted while importing, while opening the store or while running.

    A signal that falls before Python has started the program (site, the console
    script's own import) says nothing about arbiter; on a loaded machine 0.05 s can
    fall there every time, so each retry waits twice as long, up to 32 x ``delay``."""
    for attempt in range(6):
        code, err = _interrupted_after(tmp_path / str(attempt), delay * 2**attempt)
        if not _before_any_function_ran(code, err):
            break
    assert code == 130, err
    assert "Traceback" not in err
    assert err.strip().splitlines()[-1] == "interrupted"
