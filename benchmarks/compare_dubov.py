"""Dubov agreement, round by round, with a reference that pairs one round per run (issue 35).

The Dubov reference (py4swiss 0.3.1, ``$DUBOV_REFERENCE``) has no generator and no checker:
``REF -t IN.trf -e dubov -p OUT.txt`` pairs the next round of a file. So each round ``k`` of a
tournament our generator made is cut back to the file as it stood before round ``k``, in the
shape of the corpus ``../shared/testdata/chess/dubov/*/rRR.in.trf`` (TRF16: rounds 1..k-1, the
points after them, ``XXR``, ``XXC white1``, the players the file leaves unpaired in round ``k``
on an ``XXZ`` line), paired by the reference, and compared with our round ``k`` as a set of
(white, black) boards plus the PAB (board order is not compared: the corpus README counts it as
an oracle-equal case).
"""

from __future__ import annotations

import subprocess
import tempfile
from dataclasses import dataclass, replace
from decimal import Decimal
from pathlib import Path

from events.history import HistoryEntry, entry_points
from ingest.trf import PlayerRecord, TrfFile, XxzRecord, cut_before_round, parse_trf
from pipelines.engines.cli import paired_in, played_in_file, rounds_paired
from pipelines.engines.swiss_from_trf import initial_colour_of_file
from projections.exports.trf import to_trf16, write_trf

__all__ = ["DubovCheck", "check_tournament", "reference_input"]

Seating = tuple[frozenset[tuple[int, int]], int | None]
"""A round as compared: the (white, black) boards and the PAB."""


@dataclass(frozen=True)
class DubovCheck:
    """One tournament checked against the reference."""

    rounds: int
    """Rounds compared."""
    first: tuple[int, list[str]] | None
    """The first differing round and its boards (``checker W B``: the reference's, ``file W
    B``: ours; the PAB as ``N 0``), or None when every round agrees."""
    failed: str | None
    """The reference's error when a run of it failed (then ``first`` is None)."""


def reference_input(trf: TrfFile, k: int) -> str:
    """The TRF16 text the reference pairs round ``k`` of ``trf`` from."""
    played = rounds_paired(trf)
    total = max(trf.total_rounds or played, played)
    cut = cut_before_round(trf, k, total, initial_colour_of_file(trf, played))
    present = paired_in(trf, k)
    scoring = trf.board_scoring
    records = []
    for record in cut.records:
        if isinstance(record, PlayerRecord):
            rounds = record.rounds[: k - 1]  # a requested bye of round k goes to XXZ
            points = sum(
                (
                    entry_points(HistoryEntry(opponent=e.opponent, result=e.result), scoring)
                    for e in rounds
                ),
                Decimal(0),
            )
            record = record._replace(rounds=rounds, points=points)  # noqa: PLW2901
        records.append(record)
    absent = tuple(p.number for p in trf.players if p.number not in present)
    if absent:
        records.append(XxzRecord(absent))
    return write_trf(to_trf16(replace(cut, records=tuple(records))))


def _seating_of_output(text: str) -> Seating:
    """A JaVaFo-style pairing: the count, then ``white black`` per board, ``N 0`` the PAB."""
    boards: set[tuple[int, int]] = set()
    pab = None
    for line in text.split("\n")[1:]:
        if line.strip():
            white, black = map(int, line.split())
            if black == 0:
                pab = white
            else:
                boards.add((white, black))
    return frozenset(boards), pab


def _seating_of_file(trf: TrfFile, k: int) -> Seating:
    paired, _ = played_in_file(trf, k)
    boards = {(b.white, b.black) for b in paired.boards if b.black is not None}
    pab = next((b.white for b in paired.boards if b.black is None), None)
    return frozenset(boards), pab


def _differing(reference: Seating, ours: Seating) -> list[str]:
    (their_boards, their_pab), (our_boards, our_pab) = reference, ours
    rows = [f"checker {w} {b}" for w, b in sorted(their_boards - our_boards)]
    rows += [f"checker {their_pab} 0"] if their_pab != our_pab and their_pab else []
    rows += [f"file {w} {b}" for w, b in sorted(our_boards - their_boards)]
    rows += [f"file {our_pab} 0"] if their_pab != our_pab and our_pab else []
    return rows


_BATCH = """
import sys
from py4swiss.main import main
for line in sys.stdin:
    sys.argv = ["py4swiss", *line.split()]
    try:
        main()
    except BaseException as error:  # one round's failure; its answer file stays missing
        print(line.strip(), repr(error), file=sys.stderr)
"""
"""One py4swiss process pairs every round of a tournament: its start-up (0.35 s) paid once."""


def _run_reference(exe: str, jobs: list[tuple[Path, Path]]) -> str:
    """Pair each (input, answer) file pair with the reference; its messages.

    When ``exe`` is a console script with its interpreter beside it (a venv's ``bin/``), one
    process runs them all; otherwise one process per round.
    """
    argv = [["-t", str(given), "-e", "dubov", "-p", str(answer)] for given, answer in jobs]
    python = Path(exe).parent / "python"
    if python.exists():
        done = subprocess.run(
            [str(python), "-c", _BATCH],
            input="".join(" ".join(a) + "\n" for a in argv),
            capture_output=True,
            text=True,
            timeout=3600,
            check=False,
        )
        return done.stdout + done.stderr
    runs = [
        subprocess.run([exe, *a], capture_output=True, text=True, timeout=1800, check=False)
        for a in argv
    ]
    return "".join(r.stdout + r.stderr for r in runs)


def check_tournament(path: Path, exe: str) -> DubovCheck:
    """Pair every round of the tournament at ``path`` with the reference ``exe``."""
    trf = parse_trf(path)
    played = rounds_paired(trf)
    with tempfile.TemporaryDirectory(prefix="arbiter-dubov-") as tmp:
        jobs = [(Path(tmp) / f"r{k}.trf", Path(tmp) / f"r{k}.txt") for k in range(1, played + 1)]
        for k, (given, _) in enumerate(jobs, start=1):
            given.write_text(reference_input(trf, k))
        messages = _run_reference(exe, jobs)
        for k, (_, answer) in enumerate(jobs, start=1):
            if not answer.exists():
                tail = messages.strip().splitlines()[-1:]
                return DubovCheck(k - 1, None, f"round {k}: no answer {tail}")
            reference = _seating_of_output(answer.read_text())
            ours = _seating_of_file(trf, k)
            if reference != ours:
                return DubovCheck(played, (k, _differing(reference, ours)), None)
    return DubovCheck(played, None, None)
