"""Dubov agreement, round by round, with a reference that pairs one round per run (issue 35).

The Dubov reference (py4swiss 0.3.1, ``$DUBOV_REFERENCE``) has no generator and no checker:
``REF -t IN.trf -e dubov -p OUT.txt`` pairs the next round of a file. So each round ``k`` of a
tournament our generator made is cut back to the file as it stood before round ``k``, in the
shape of the corpus ``../shared/testdata/chess/dubov/*/rRR.in.trf`` (TRF16: rounds 1..k-1, the
points after them, ``XXR``, ``XXC white1``, the players the file leaves unpaired in round ``k``
on an ``XXZ`` line), paired by the reference, and compared with our round ``k`` as a set of
(white, black) boards plus the PAB (board order is not compared: the corpus README counts it as
an oracle-equal case).

Every round is compared, and each differing round is classified (`classify`): the one kind
found so far is py4swiss's departure from Article 3.1.4 (docs/dubov_disputed.md).
"""

from __future__ import annotations

import subprocess
import tempfile
from dataclasses import dataclass, replace
from decimal import Decimal
from pathlib import Path

from events.history import HistoryEntry, entry_points
from ingest.trf import PlayerRecord, TrfFile, XxzRecord, cut_before_round, parse_trf
from pairing.dubov import pair
from pipelines.engines.cli import paired_in, played_in_file, rounds_paired
from pipelines.engines.swiss_from_trf import initial_colour_of_file, swiss_input_with_absent
from projections.exports.trf import to_trf16, write_trf

__all__ = ["PY4SWISS_3_1_4", "DubovCheck", "check_tournament", "classify", "reference_input"]

Seating = tuple[frozenset[tuple[int, int]], int | None]
"""A round as compared: the (white, black) boards and the PAB."""


PY4SWISS_3_1_4 = "3.1.4: py4swiss gives the PAB to fewer games played"
"""The class of a round whose whole difference is py4swiss's reading of Article 3.1.4."""


@dataclass(frozen=True)
class DubovRound:
    """A round the reference pairs otherwise than our file."""

    round: int
    boards: list[str]
    """The differing boards (``checker W B``: the reference's, ``file W B``: ours; the PAB
    as ``N 0``)."""
    why: str
    """Its class (`classify`); ``new: ...`` when none fits."""


@dataclass(frozen=True)
class DubovCheck:
    """One tournament checked against the reference."""

    rounds: int
    """Rounds compared."""
    differing: list[DubovRound]
    """Every round the reference pairs otherwise, in order (empty when every round agrees)."""
    failed: str | None
    """The reference's error when a run of it failed (rounds before it are counted)."""

    @property
    def identical(self) -> int:
        """Rounds compared and paired alike."""
        return self.rounds - len(self.differing)


def reference_input(trf: TrfFile, k: int, absent_too: tuple[int, ...] = ()) -> str:
    """The TRF16 text the reference pairs round ``k`` of ``trf`` from (``absent_too``: more
    players made absent in round ``k``)."""
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
    absent = tuple(
        p.number for p in trf.players if p.number not in present or p.number in absent_too
    )
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


def _record_before(trf: TrfFile, k: int, number: int) -> tuple[Decimal, int]:
    """A player's score and games played over the board (forfeits and byes not counted)
    before round ``k``."""
    player = next(p for p in trf.players if p.number == number)
    rounds = player.rounds[: k - 1]
    points = sum(
        (
            entry_points(HistoryEntry(opponent=e.opponent, result=e.result), trf.board_scoring)
            for e in rounds
        ),
        Decimal(0),
    )
    return points, sum(1 for e in rounds if e.opponent is not None and e.result.is_played_game)


def _ours_without(trf: TrfFile, k: int, absent: int, folder: Path) -> Seating:
    """Our engine's round ``k`` with player ``absent`` made absent too."""
    given = folder / "ours-without.trf"
    given.write_text(reference_input(trf, k, (absent,)))
    paired = pair(swiss_input_with_absent(parse_trf(given)))
    return frozenset(paired.boards), paired.pab


def _theirs_without(exe: str, trf: TrfFile, k: int, absent: int, folder: Path) -> Seating | None:
    """The reference's round ``k`` with player ``absent`` made absent too (None: no answer)."""
    given, answer = folder / "theirs-without.trf", folder / "theirs-without.txt"
    given.write_text(reference_input(trf, k, (absent,)))
    answer.unlink(missing_ok=True)
    _run_reference(exe, [(given, answer)])
    return _seating_of_output(answer.read_text()) if answer.exists() else None


def classify(
    exe: str, trf: TrfFile, k: int, reference: Seating, ours: Seating, folder: Path
) -> str:
    """Why the reference pairs round ``k`` otherwise than our file.

    ``PY4SWISS_3_1_4``: the two PAB recipients have the same score (Article 3.1.3 ties), ours
    has played more games (3.1.4: "has played the highest number of games" favours ours), and
    the PAB is the whole difference: with the reference's recipient made absent our engine
    pairs the reference's boards, and with ours made absent the reference pairs ours.
    Anything else is ``new: ...``, to be worked out article by article.
    """
    (their_boards, their_pab), (our_boards, our_pab) = reference, ours
    if their_pab == our_pab:
        pairs = {frozenset(b) for b in their_boards} == {frozenset(b) for b in our_boards}
        return "new: same PAB, colours differ" if pairs else "new: same PAB, pairs differ"
    if their_pab is None or our_pab is None:
        return "new: one side gives no PAB"
    (our_score, our_games), (their_score, their_games) = (
        _record_before(trf, k, our_pab),
        _record_before(trf, k, their_pab),
    )
    if our_score != their_score:
        return f"new: PAB scores differ (ours {our_score}, py4swiss {their_score})"
    if our_games <= their_games:
        return f"new: PAB games (ours {our_games}, py4swiss {their_games})"
    if _ours_without(trf, k, their_pab, folder) != (their_boards, None):
        return "new: 3.1.4 and another difference (ours without py4swiss's PAB)"
    if _theirs_without(exe, trf, k, our_pab, folder) != (our_boards, None):
        return "new: 3.1.4 and another difference (py4swiss without our PAB)"
    return PY4SWISS_3_1_4


def check_tournament(path: Path, exe: str) -> DubovCheck:
    """Pair every round of the tournament at ``path`` with the reference ``exe``; classify
    each round that differs."""
    trf = parse_trf(path)
    played = rounds_paired(trf)
    differing: list[DubovRound] = []
    with tempfile.TemporaryDirectory(prefix="arbiter-dubov-") as tmp:
        jobs = [(Path(tmp) / f"r{k}.trf", Path(tmp) / f"r{k}.txt") for k in range(1, played + 1)]
        for k, (given, _) in enumerate(jobs, start=1):
            given.write_text(reference_input(trf, k))
        messages = _run_reference(exe, jobs)
        for k, (_, answer) in enumerate(jobs, start=1):
            if not answer.exists():
                tail = messages.strip().splitlines()[-1:]
                return DubovCheck(k - 1, differing, f"round {k}: no answer {tail}")
            reference = _seating_of_output(answer.read_text())
            ours = _seating_of_file(trf, k)
            if reference != ours:
                why = classify(exe, trf, k, reference, ours, Path(tmp))
                differing.append(DubovRound(k, _differing(reference, ours), why))
    return DubovCheck(played, differing, None)
