"""Agreement with the reference engines at scale (issue 35 part 2): ``make compare``.

For each system whose reference is built (``$BBP_PAIRINGS``: bbpPairings v6, ``--dutch`` and
``--burstein``; ``$BBP_PAIRINGS_V5``: bbpPairings v5.0.1, ``--dutch-2017``;
``$DUBOV_REFERENCE``: py4swiss 0.3.1, ``--dubov``, direction (b) only, round by round:
benchmarks.compare_dubov) and each of N seeded tournaments (8-300 players, 5-13 rounds,
smaller fields first):

(a) the reference generates a tournament (``-g config -s seed``) and our checker (``-c``)
    re-pairs every round of it;
(b) our generator makes one (``arbiter-pairings -g``) and the reference's checker re-pairs it.

``team`` (``$BBP_TEAM_PAIRINGS`` or ``$TEAM_PAIRINGS``: the Sharly-Chess fork of bbpPairings,
``--team``; 8-100 teams, 5-13 rounds, 1-4 boards) has no reference generator: our generator
makes each tournament, then the fork pairs every round (``-p``) from the file cut before it;
every differing round is put in a case of docs/team_swiss_disputed.md or counted ``new``.

A tournament agrees when every round is paired identically. The figures, and the first
difference of each disagreeing tournament (direction, seed, round, the differing boards), go
to benchmarks/results/compare.json; a summary is printed. Not part of ``make test`` or
``make bench``: it needs the reference builds and runs for as long as ``--budget`` allows.

    BBP_PAIRINGS=/path/bbpPairings.exe nice -n 10 python -m benchmarks.compare -n 500 --budget 3000
    BBP_TEAM_PAIRINGS=/path/fork.exe python -m benchmarks.compare -n 500 --systems team -o t.json
    DUBOV_REFERENCE=/path/py4swiss python -m benchmarks.compare --systems dubov --from 400 -o d.json
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
from collections import Counter
from dataclasses import asdict, dataclass, field
from decimal import Decimal
from pathlib import Path

from benchmarks.compare_dubov import check_tournament
from ingest.trf import TrfFile, parse_trf
from pairing.team.model import TeamSwissInput
from pipelines.engines.adapters import Replayed
from pipelines.engines.cli import format_round
from pipelines.engines.cli import main as pairings

HERE = Path(__file__).resolve().parent
RESULT = HERE / "results" / "compare.json"

REFERENCES = {
    "dutch": ("BBP_PAIRINGS", "--dutch"),
    "burstein": ("BBP_PAIRINGS", "--burstein"),
    "dutch-2017": ("BBP_PAIRINGS_V5", "--dutch"),
    "team": ("BBP_TEAM_PAIRINGS", "--team"),
    "dubov": ("DUBOV_REFERENCE", "-e dubov"),
}
"""Our system -> the environment variable naming its reference, and the reference's flag."""

ALSO = {"BBP_TEAM_PAIRINGS": "TEAM_PAIRINGS"}
"""Another name the environment may give a reference by (issue 35 says ``$TEAM_PAIRINGS``)."""


def _reference_exe(system: str) -> str | None:
    variable = REFERENCES[system][0]
    return os.environ.get(variable) or os.environ.get(ALSO.get(variable, "")) or None


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
    boards_per_match: int = 0
    """Team tournaments: boards per match (``players`` counts the teams)."""
    why: str = ""
    """The class of the difference (`classify_team`, `benchmarks.compare_dubov.classify`)."""


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
    reference_paired_agree: int = 0
    """Team: tournaments whose every round the fork's ``-p`` pairs as ours did."""
    reference_paired_differ: int = 0
    rounds_compared: int = 0
    rounds_identical: int = 0
    """Rounds compared and paired alike (each direction's rounds are counted)."""
    classes: dict[str, int] = field(default_factory=dict)
    """Dubov: every differing round by its class (``new: ...`` is not yet explained)."""
    players_max: int = 0
    differences: list[Difference] = field(default_factory=list)


def _fields(count: int, seed: int, least: int = 8, most: int = 300) -> list[tuple[int, int, int]]:
    """``count`` (players, rounds, seed): players log-uniform in ``least``-``most`` (8-300),
    rounds 5-13 (at most players - 1), sorted by players: smaller fields first."""
    rng = random.Random(seed)
    drawn = []
    for i in range(count):
        players = round(math.exp(rng.uniform(math.log(least), math.log(most))))
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


def _rounds_differing(text: str) -> int:
    """Rounds of a checker's output that show a difference (a ``Checker pairings`` table or
    ``No valid pairing exists``); both checkers go on to the next round after one."""
    differing: set[int] = set()
    current = 0
    for line in text.splitlines():
        found = _ROUND.search(line)
        if found:
            current = int(found.group(1))
        elif "Checker pairings" in line or line.lstrip().startswith("No valid pairing exists"):
            differing.add(current)
    return len(differing)


def _start(tally: Tally, folder: Path, size: int, config: str) -> Path:
    """Count one tournament of ``size`` players (or teams); its configuration file."""
    tally.tournaments += 1
    tally.players_max = max(tally.players_max, size)
    path = folder / "config.txt"
    path.write_text(config)
    return path


def _generated(system: str, config: Path, seed: int, folder: Path, tally: Tally) -> Path | None:
    """Our generator's tournament, or None (counted) when it stopped or failed."""
    ours = folder / f"ours-{system}-{seed}.trf"
    code, _ = _ours(f"--{system}", "-g", str(config), "-o", str(ours), "-s", str(seed))
    if code == 1:
        tally.unpairable["arbiter"] += 1
        return None
    if code != 0:
        tally.arbiter_failed += 1
        return None
    return ours


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
    config = _start(tally, folder, players, f"PlayersNumber={players}\nRoundsNumber={rounds}\n")
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
    ours = _generated(system, config, seed, folder, tally)
    if ours is None:
        return
    code, text = _reference(exe, env_flag, str(ours), "-c")
    if code != 0:
        tally.reference_failed += 1
        _keep(keep, ours)
    elif _record(tally, "arbiter-generated", seed, players, rounds, text):
        _keep(keep, ours)


def _team_fields(count: int, seed: int) -> list[tuple[int, int, int, int]]:
    """``count`` (teams, rounds, seed, boards): teams log-uniform in 8-100 (issue 44), rounds
    5-13 (at most teams - 1), boards 1-4, sorted by teams: smaller fields first."""
    rng = random.Random(seed)
    drawn = []
    for i in range(count):
        teams = round(math.exp(rng.uniform(math.log(8), math.log(100))))
        rounds = min(rng.randint(5, 13), teams - 1)
        drawn.append((teams, rounds, seed + i, rng.randint(1, 4)))
    return sorted(drawn)


def cut_team_file(trf: TrfFile, k: int) -> str:
    """The team file as it stood before round ``k`` was paired, as the fork's ``-p`` reads
    it: members' rounds 1..k-1 (and round k's requested byes), their points written (the fork
    refuses a blank points field), ``240`` lines of later rounds left out."""
    from dataclasses import replace
    from decimal import Decimal

    from events.history import HistoryEntry, entry_points
    from ingest.trf import ByesRecord, PlayerRecord, Record, cut_before_round
    from projections.exports.trf import write_trf

    assert trf.total_rounds is not None
    assert trf.initial_colour is not None
    cut = cut_before_round(trf, k, trf.total_rounds, trf.initial_colour)
    scoring = trf.board_scoring
    records: list[Record] = []
    for record in cut.records:
        if isinstance(record, ByesRecord) and record.round > k:
            continue
        if isinstance(record, PlayerRecord):
            points = sum(
                (
                    entry_points(HistoryEntry(opponent=e.opponent, result=e.result), scoring)
                    for e in record.rounds
                ),
                Decimal(0),
            )
            records.append(record._replace(points=points))
        else:
            records.append(record)
    return write_trf(replace(cut, records=tuple(records)))


def _seating(output: str) -> tuple[set[str], set[frozenset[str]]]:
    """A ``-p`` output's boards (``W B``, the PAB ``T 0``), and the same without colours."""
    boards = {" ".join(line.split()) for line in output.splitlines()[1:] if line.strip()}
    return boards, {frozenset(b.split()) for b in boards}


_OVER_THE_BOARD = {"+": "1", "-": "0"}


def _board_forfeits_played(trf: TrfFile, k: int) -> TrfFile | None:
    """The file with every board forfeit inside a match played on other boards (rounds before
    ``k``) made a played game with the same points and colour; None when there is none.

    Our reading is unchanged by it (the match was played, its colour is board 1's, the game
    points are the same); the fork's changes where board 1 was forfeited: it reads such a
    match as not played (no colour, not counted as played).
    """
    from dataclasses import replace

    from events.result_codes import ResultCode
    from ingest.trf import PlayerRecord
    from ingest.trf.teams import rosters

    players = {p.number: p for p in trf.players}
    change: set[tuple[int, int]] = set()
    for team in rosters(trf):
        for j in range(k - 1):
            entries = [players[m].rounds[j] for m in team.members if len(players[m].rounds) > j]
            played = any(e.result.is_played_game and e.opponent is not None for e in entries)
            change.update(
                (m, j)
                for m, e in zip(team.members, entries, strict=False)
                if played and e.opponent is not None and e.result.value in _OVER_THE_BOARD
            )
    if not change:
        return None
    records = []
    for record in trf.records:
        if isinstance(record, PlayerRecord) and any(m == record.number for m, _ in change):
            rounds = tuple(
                e._replace(result=ResultCode(_OVER_THE_BOARD[e.result.value]))
                if (record.number, j) in change
                else e
                for j, e in enumerate(record.rounds)
            )
            record = record._replace(rounds=rounds)  # noqa: PLW2901
        records.append(record)
    return replace(trf, records=tuple(records))


def _pairing(output: str) -> tuple[set[tuple[int, int]], int | None]:
    """A ``-p`` output's matches (white, black) and its PAB."""
    rows = [tuple(map(int, line.split())) for line in output.splitlines()[1:] if line.strip()]
    return {(a, b) for a, b in rows if b}, next((a for a, b in rows if not b), None)


def _decided_by_board_one(trf: TrfFile, k: int) -> list[str]:
    """``330`` records stating our result of every match before round ``k`` with no board
    played over the board whose winner by board 1's forfeit is not ours by the game points
    (the fork decides such a match by board 1, we by the game points; equal game points: both
    teams lose). Empty when there is none. Both engines read a ``330`` record alike, so the
    fork given them scores these matches as we do."""
    from ingest.trf.teams import team_tournament_from_trf

    teams = team_tournament_from_trf(trf)
    players = {p.number: p for p in trf.players}
    rosters = {r.number: r for r in teams.rosters}
    won = {t.number: [h.kind.value == "+" for h in t.history] for t in teams.teams}
    out: set[str] = set()
    for team in teams.teams:
        for j, h in enumerate(team.history[: k - 1]):
            if h.opponent is None or h.kind.played:
                continue
            rounds = players[rosters[team.number].members[0]].rounds
            board_one = rounds[j].result.value if len(rounds) > j else ""
            if (board_one == "+") != (h.kind.value == "+"):
                white, black = sorted((team.number, h.opponent))
                kind = "+" if won[white][j] else "-"
                kind += "+" if won[black][j] else "-"
                out.add(f"330 {kind} {j + 1:>3} {white:>3} {black:>3}")
    return sorted(out)


def _legal(request: TeamSwissInput, pairs: set[tuple[int, int]], pab: int | None) -> bool:
    """[C1] (no rematch) and [C2] (the PAB not to a team that had one, or won by forfeit)."""
    teams = {t.number: t for t in request.teams}
    met = {frozenset((t.number, h.opponent)) for t in request.teams for h in t.history}
    if any(frozenset(p) in met for p in pairs):
        return False
    return pab is None or not any(h.kind.blocks_pab for h in teams[pab].history)


def _identifier(pairs: set[tuple[int, int]]) -> list[int]:
    """C.04.6 3.6.2 over the round: the top members ascending, then their bottoms in order.

    >>> _identifier({(5, 1), (2, 3), (4, 6)})
    [1, 2, 4, 5, 3, 6]
    """
    ordered = sorted((min(p), max(p)) for p in pairs)
    return [a for a, _ in ordered] + [b for _, b in ordered]


def _upfloaters(request: TeamSwissInput, pairs: set[tuple[int, int]]) -> list[Decimal]:
    """The upfloaters' match points, highest first: the fork's [C5] ("maximise upfloater
    scores") prefers the larger list."""
    score = {t.number: sum((h.match_points for h in t.history), Decimal(0)) for t in request.teams}
    return sorted((min(score[a], score[b]) for a, b in pairs if score[a] != score[b]), reverse=True)


def _forfeit_wins_as_floats(request: TeamSwissInput) -> TeamSwissInput:
    """The request with every last-round forfeit win made a scoring round without an opponent,
    which our [C7] and [C10] count as a float (`pairing.team.swiss`): the fork's reading of
    C.04.6 1.5, where a forfeit win floats whatever the opponent's score (case 7). Nothing the
    criteria read changes but the floats: the match points stay, a forfeit has no colour."""
    from dataclasses import replace

    from events.team_results import MatchKind

    last = request.rounds_played - 1
    teams = []
    for team in request.teams:
        history = list(team.history)
        if last >= 0 and len(history) > last and history[last].kind is MatchKind.FORFEIT_WIN:
            history[last] = replace(history[last], kind=MatchKind.FULL_BYE, opponent=None)
        teams.append(replace(team, history=tuple(history)))
    return replace(request, teams=tuple(teams))


def classify_team(exe: str, trf: TrfFile, k: int, folder: Path) -> str:
    """Why the fork pairs round ``k`` otherwise than our file (docs/team_swiss_disputed.md):

    * ``1.6.1 board-1 forfeit``: the fork pairs as we do once board forfeits inside played
      matches are made played games (`_board_forfeits_played`);
    * ``forfeited match decided by board 1``: the fork pairs as we do once told our result
      (``330`` records) of the matches with no game played that it scores otherwise
      (`_decided_by_board_one`);
    * ``3.4.3 forfeits``: another PAB, of the same score, where the two teams' counts of
      matches differ when forfeited ones are left out;
    * ``3.6.2 identifier``: another pairing that meets every criterion as well as ours;
    * ``2.3.2 [C5]``: the fork's pairing has larger score differences by our reading and
      upfloater scores as high (the fork's reading), or the same differences and higher
      upfloater scores, a later criterion ours;
    * ``fork: no valid pairing, ours legal``: the fork stops where our pairing breaks no
      absolute criterion;
    * ``1.5 forfeit win as a float``: the fork's pairing is worse at [C7] or [C10] by our
      reading, and no worse once a forfeit win in the last round counts as a float
      (`_forfeit_wins_as_floats`);
    * anything else is new (``new: ...``).
    """
    from pairing.team.swiss import criteria
    from pipelines.engines.team_from_trf import replay

    cut = folder / "classify.trf"
    cut.write_text(cut_team_file(trf, k))
    code, text = _reference(exe, "--team", str(cut), "-p")
    played = replay(trf)[k - 1]
    colourless = played.colourless

    def as_ours(output: str) -> tuple[set[tuple[int, int]], int | None]:
        """The fork's pairing with the matches the file has no colour for (forfeited whole)
        written as ours are."""
        pairs, pab = _pairing(output)
        return {(min(p), max(p)) if frozenset(p) in colourless else p for p in pairs}, pab

    ours = _pairing(format_round(played.played))
    prefix = ""
    variant = _board_forfeits_played(trf, k)
    if variant is not None:
        cut.write_text(cut_team_file(variant, k))
        other_code, other = _reference(exe, "--team", str(cut), "-p")
        if other_code == 0 and as_ours(other) == ours:
            return "1.6.1 board-1 forfeit"
        if (other_code, _pairing(other)) != (code, _pairing(text)):
            prefix, code, text = "1.6.1 board-1 forfeit, then ", other_code, other
    stated = _decided_by_board_one(variant or trf, k)
    if stated:
        cut.write_text(cut_team_file(variant or trf, k) + "".join(f"{s}\n" for s in stated))
        other_code, other = _reference(exe, "--team", str(cut), "-p")
        if other_code == 0 and as_ours(other) == ours:
            return prefix + "forfeited match decided by board 1"
        if (other_code, _pairing(other)) != (code, _pairing(text)):
            prefix += "forfeited match decided by board 1, then "
            code, text = other_code, other
    request = played.request
    if code != 0:
        return prefix + (
            "fork: no valid pairing, ours legal"
            if _legal(request, *ours)
            else f"new: the fork fails ({text.strip()[-60:]})"
        )
    (mine, my_pab), (theirs, their_pab) = ours, as_ours(text)
    if my_pab != their_pab:
        teams = {t.number: t for t in request.teams}
        if my_pab is None or their_pab is None:
            return prefix + "new: PAB"
        forfeits = [
            sum(1 for h in teams[t].history if h.opponent is not None and not h.kind.played)
            for t in (my_pab, their_pab)
        ]
        return prefix + ("3.4.3 forfeits" if forfeits[0] != forfeits[1] else "new: PAB")
    if {frozenset(p) for p in mine} == {frozenset(p) for p in theirs}:
        return prefix + "new: colours"
    ours_c, theirs_c = criteria(request, mine), criteria(request, theirs)
    if ours_c == theirs_c:
        return prefix + (
            "3.6.2 identifier"
            if _identifier(mine) < _identifier(theirs)
            else "new: the fork's identifier is not larger"
        )
    names = ("[C4]", "[C5]", "[C7]", "[C8]", "[C9]", "[C10]")
    first = next(i for i in range(6) if ours_c[i] != theirs_c[i])
    if ours_c > theirs_c and first == 1:
        return prefix + (
            "2.3.2 [C5]"
            if _upfloaters(request, theirs) >= _upfloaters(request, mine)
            else "new: fork worse at [C5] either way"
        )
    if (
        ours_c > theirs_c
        and first > 1
        and _upfloaters(request, theirs) > _upfloaters(request, mine)
    ):
        return prefix + "2.3.2 [C5] (the fork's higher upfloater scores)"
    if ours_c > theirs_c and names[first] in ("[C7]", "[C10]"):
        floats = _forfeit_wins_as_floats(request)
        if criteria(floats, theirs) >= criteria(floats, mine):
            return prefix + "1.5 forfeit win as a float"
    side = "fork" if ours_c > theirs_c else "ours"
    return prefix + f"new: {side} worse at {names[first]}"


TEAM_CASES = {
    "3.6.2 identifier": 1,
    "2.3.2 [C5]": 2,
    "2.3.2 [C5] (the fork's higher upfloater scores)": 2,
    "1.6.1 board-1 forfeit": 3,
    "forfeited match decided by board 1": 4,
    "3.4.3 forfeits": 5,
    "fork: no valid pairing, ours legal": 6,
    "1.5 forfeit win as a float": 7,
}
"""`classify_team`'s classes -> the case of docs/team_swiss_disputed.md that explains them."""


def team_case(why: str) -> str:
    """A differing round's entry in ``Tally.classes``: ``case K: WHY`` (``case K then J: ...``
    where board-1 forfeits hid another class), or ``new: WHY`` when a part is no documented case.

    >>> team_case("1.6.1 board-1 forfeit, then 3.6.2 identifier")
    'case 3 then 1: 1.6.1 board-1 forfeit, then 3.6.2 identifier'
    >>> team_case("1.6.1 board-1 forfeit, then new: PAB")
    'new: 1.6.1 board-1 forfeit, then new: PAB'
    """
    cases = [TEAM_CASES.get(part) for part in why.split(", then ")]
    if None in cases:
        return why if why.startswith("new: ") else f"new: {why}"
    return f"case {' then '.join(map(str, cases))}: {why}"


def _same_round(output: str, played: Replayed[TeamSwissInput]) -> tuple[bool, list[str]]:
    """Whether the fork's ``-p`` output pairs the round as our file did (a match the file
    gives no colour, forfeited whole, either way round); the boards only one side has."""
    theirs, theirs_plain = _seating(output)
    mine, mine_plain = _seating(format_round(played.played))
    colourless = {frozenset(map(str, pair)) for pair in played.colourless}
    same = theirs_plain == mine_plain and all(
        b in theirs or frozenset(b.split()) in colourless for b in mine
    )
    only = [f"fork {b}" for b in sorted(theirs - mine)]
    only += [f"ours {b}" for b in sorted(mine - theirs)]
    return same, only


def compare_team(
    exe: str,
    fixture: tuple[int, int, int, int],
    folder: Path,
    tally: Tally,
    keep: Path | None,
    extra: str = "",
) -> None:
    """One seeded team tournament: ours generates it, then the fork pairs every round with
    ``-p`` from the file cut before it (each round from the same history as ours). Every
    differing round is classified (`classify_team`, `team_case`) and counted in
    ``tally.classes``; the tournament is identical when every round is.

    The fork's ``-c`` is not used: it colours otherwise than its own ``-p``
    (docs/team_swiss_disputed.md), and ``-p`` on each cut file compares every round."""
    from pipelines.engines.team_from_trf import replay

    teams, rounds, seed, boards = fixture
    lines = f"TeamsNumber={teams}\nRoundsNumber={rounds}\nBoardsNumber={boards}\n{extra}"
    ours = _generated("team", _start(tally, folder, teams, lines), seed, folder, tally)
    if ours is None:
        return
    trf = parse_trf(ours, ours.read_bytes())
    differing = 0
    for played in replay(trf):
        k = played.round
        cut = folder / f"cut-{seed}-{k}.trf"
        cut.write_text(cut_team_file(trf, k))
        code, text = _reference(exe, "--team", str(cut), "-p")
        tally.rounds_compared += 1
        if code != 0:
            tally.reference_failed += 1
            same, only = False, [text.strip()[-80:]]
        else:
            same, only = _same_round(text, played)
        if same:
            tally.rounds_identical += 1
            continue
        differing += 1
        why = classify_team(exe, trf, k, folder)
        label = team_case(why)
        tally.classes[label] = tally.classes.get(label, 0) + 1
        tally.differences.append(
            Difference("reference-p", seed, teams, rounds, k, only[:6], boards, why=label)
        )
    if differing:
        tally.reference_paired_differ += 1
        _keep(keep, ours)
    else:
        tally.reference_paired_agree += 1


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
    config = _start(tally, folder, players, f"PlayersNumber={players}\nRoundsNumber={rounds}\n")
    ours = _generated(system, config, seed, folder, tally)
    if ours is None:
        return
    checked = check_tournament(ours, exe)
    tally.rounds_compared += checked.rounds
    tally.rounds_identical += checked.identical
    for d in checked.differing:
        tally.classes[d.why] = tally.classes.get(d.why, 0) + 1
        tally.differences.append(
            Difference("arbiter-generated", seed, players, rounds, d.round, d.boards, why=d.why)
        )
    if checked.failed is not None:
        tally.reference_failed += 1
        tally.differences.append(
            Difference("arbiter-generated", seed, players, rounds, 0, [checked.failed])
        )
        _keep(keep, ours)
    elif not checked.differing:
        tally.arbiter_generated_agree += 1
    else:
        tally.arbiter_generated_differ += 1
        _keep(keep, ours)


def _keep(keep: Path | None, trf: Path) -> None:
    """A tournament to look at again, copied to ``--keep``."""
    if keep is not None:
        keep.mkdir(parents=True, exist_ok=True)
        (keep / trf.name).write_bytes(trf.read_bytes())


def _record(tally: Tally, direction: str, seed: int, players: int, rounds: int, text: str) -> bool:
    """Count one checked tournament; True when it differs."""
    checked = _rounds_checked(text)
    tally.rounds_compared += checked
    tally.rounds_identical += checked - _rounds_differing(text)
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
    tallies: dict[str, Tally], skipped: dict[str, str], started: float, output: Path = RESULT
) -> None:
    record = {
        "benchmark": "compare",
        "wall_seconds": round(time.perf_counter() - started, 1),
        "systems": {name: asdict(t) for name, t in tallies.items()},
        "skipped": skipped,
    }
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(json.dumps(record, indent=2) + "\n")


def table(tallies: dict[str, Tally]) -> str:
    """One row per system: tournaments compared (each direction counts) and identical in every
    round, rounds compared and identical, and the differing rounds explained by a known class
    (``new: ...`` classes are not)."""
    rows = [
        "| system | tournaments compared | identical | rounds compared | identical "
        "| differing rounds explained |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for name, t in tallies.items():
        agree = t.reference_generated_agree + t.arbiter_generated_agree + t.reference_paired_agree
        compared = agree + (
            t.reference_generated_differ + t.arbiter_generated_differ + t.reference_paired_differ
        )
        differing = t.rounds_compared - t.rounds_identical
        explained = sum(n for why, n in t.classes.items() if not why.startswith("new"))
        rows.append(
            f"| {name} | {compared} | {agree} | {t.rounds_compared} | {t.rounds_identical} "
            f"| {explained if t.classes else '-'} of {differing} |"
        )
    return "\n".join(rows)


def _summary(tallies: dict[str, Tally]) -> str:
    lines = [table(tallies), ""]
    for name, t in tallies.items():
        lines.append(
            f"{name}: {t.tournaments} tournaments (up to {t.players_max} players), "
            f"{t.rounds_compared} rounds; reference-generated {t.reference_generated_agree} "
            f"agree / {t.reference_generated_differ} differ; arbiter-generated "
            f"{t.arbiter_generated_agree} agree / {t.arbiter_generated_differ} differ"
            + (
                f"; fork -p on each round: {t.reference_paired_agree} agree / "
                f"{t.reference_paired_differ} differ"
                if t.reference_paired_agree + t.reference_paired_differ
                else ""
            )
            + f"; unpairable {t.unpairable}; reference failed {t.reference_failed}; "
            f"arbiter failed {t.arbiter_failed}"
        )
        classes = Counter(d.why for d in t.differences if d.why)
        if classes:
            lines.append(f"  classes: {dict(classes.most_common())}")
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
    parser.add_argument(
        "--players",
        default="8-300",
        metavar="MIN-MAX",
        help="players per tournament, log-uniform (8-300; teams keep 8-100)",
    )
    parser.add_argument("--budget", type=float, help="stop after this many seconds")
    parser.add_argument(
        "--from",
        dest="start",
        type=int,
        default=1,
        metavar="K",
        help="begin at the K-th tournament of the smaller-first order (1): resumes a run a "
        "budget stopped; the tournaments are the same as in a run from 1",
    )
    parser.add_argument(
        "--to",
        dest="stop",
        type=int,
        metavar="L",
        help="end with the L-th tournament of that order (-n): runs side by side take "
        "--from K --to L each",
    )
    parser.add_argument(
        "--systems", default=",".join(REFERENCES), help="comma-separated (all with a reference)"
    )
    parser.add_argument("--keep", type=Path, help="copy each differing tournament here")
    parser.add_argument(
        "--team-config",
        default="",
        metavar="LINES",
        help="team: Key=value lines added to every tournament's configuration "
        "(e.g. 'ForfeitRate=0')",
    )
    parser.add_argument(
        "-o", "--output", type=Path, default=RESULT, help=f"the results file ({RESULT.name})"
    )
    args = parser.parse_args(argv)
    started = time.perf_counter()
    wanted = [s for s in args.systems.split(",") if s]
    skipped = {s: f"${REFERENCES[s][0]} not set" for s in wanted if not _reference_exe(s)}
    tallies = {s: Tally() for s in wanted if s not in skipped}
    individual = {s: t for s, t in tallies.items() if s != "team"}
    team = tallies.get("team")
    if not 1 <= args.start <= args.n:
        parser.error(f"--from {args.start}: expected 1..{args.n} (-n)")
    least, _, most = args.players.partition("-")
    if not (least.isdigit() and most.isdigit() and 2 <= int(least) <= int(most)):
        parser.error(f"--players {args.players}: expected MIN-MAX, e.g. 8-200")
    fields = list(
        zip(
            _fields(args.n, args.seed, int(least), int(most)),
            _team_fields(args.n, args.seed),
            strict=True,
        )
    )
    stop = args.n if args.stop is None else args.stop
    if not args.start <= stop <= args.n:
        parser.error(f"--to {stop}: expected {args.start}..{args.n} (--from .. -n)")
    fields = fields[args.start - 1 : stop]
    with tempfile.TemporaryDirectory(prefix="arbiter-compare-") as tmp:
        for fixture, team_fixture in fields:
            if args.budget is not None and time.perf_counter() - started > args.budget:
                break
            for system, tally in individual.items():
                exe = _reference_exe(system)
                assert exe is not None
                one = compare_dubov if system == "dubov" else compare_one
                one(system, exe, fixture, Path(tmp), tally, args.keep)
            if team is not None:
                exe = _reference_exe("team")
                assert exe is not None
                extra = "".join(f"{line}\n" for line in args.team_config.split(",") if line)
                compare_team(exe, team_fixture, Path(tmp), team, args.keep, extra)
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
