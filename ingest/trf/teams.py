"""TRF team records (TRF16 ``013``, TRF-2026 ``310 320 330 352 362 299`` and ``192`` codes).

The line reader keeps these lines verbatim (`RawRecord`, so that a written file reproduces
them); this module reads their fields (docs/formats.md 1.7) into typed values, with an
`IngestError` naming line and column when a field is malformed.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation

from events.result_codes import ResultCode
from events.team_results import (
    Acceleration,
    Adjustment,
    DeclaredForfeit,
    HistoryEntry,
    MatchScoring,
    Roster,
    TeamEntry,
    TeamSource,
    team_histories,
)
from ingest.errors import IngestError
from ingest.trf.records import (
    AccelerationRecord,
    ByesRecord,
    HeaderRecord,
    PlayerRecord,
    RawRecord,
    TrfFile,
)

__all__ = [
    "AbnormalPoints",
    "TeamConfig",
    "TeamForfeit",
    "TeamPabRecord",
    "TeamRoster",
    "TeamScoring",
    "TeamTournament",
    "abnormal_points",
    "accelerations_from_trf",
    "board_sequence",
    "is_team_file",
    "rosters",
    "team_config",
    "team_forfeits",
    "team_pab",
    "team_scoring",
    "team_source_from_trf",
    "team_tournament_from_trf",
]


@dataclass(frozen=True, slots=True)
class TeamRoster:
    """A team: pairing number, name, nickname and members (player pairing numbers) in board
    order. From ``310`` (TPN in columns 5-7) or ``013`` (TPN = order of the lines)."""

    number: int
    name: str
    members: tuple[int, ...]
    nickname: str = ""
    code: str = "310"
    line: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class TeamScoring:
    """``362``: match points for a won, drawn and lost match (default 2 / 1 / 0)."""

    win: Decimal = Decimal(2)
    draw: Decimal = Decimal(1)
    loss: Decimal = Decimal(0)


@dataclass(frozen=True, slots=True)
class TeamPabRecord:
    """``320``: match and game points of the team PAB, and the PAB team of each round."""

    match_points: Decimal | None
    game_points: Decimal | None
    teams: tuple[int | None, ...]


@dataclass(frozen=True, slots=True)
class TeamForfeit:
    """``330``: a forfeited match: ``+-`` (white team wins), ``-+`` or ``--``."""

    kind: str
    round: int
    white: int
    black: int


@dataclass(frozen=True, slots=True)
class AbnormalPoints:
    """``299``: points that differ from the result: type (blank = bonus/penalty added)."""

    kind: str
    match_points: Decimal | None
    points: Decimal | None
    round: int | None
    """None: every round."""
    ids: tuple[int, ...]
    """Teams (in a team file) it applies to; empty: every team."""


@dataclass(frozen=True, slots=True)
class TeamConfig:
    """What ``192 FIDE_TEAM_…`` says: colour preference type, primary score, secondary."""

    code: str
    colour_type: str = "A"
    primary: str = "MP"
    secondary_for_colour: bool = True
    baku: bool = False


def _team_type(trf: TrfFile) -> str | None:
    """The last ``192``/``092`` type that names a team system (``FIDE_TEAM_GP_MP``): a
    ``092`` naming an individual system beside it does not hide it."""
    texts = [
        r.text.strip().upper()
        for r in trf.records
        if isinstance(r, HeaderRecord) and r.code in ("192", "092")
    ]
    return next((t for t in reversed(texts) if "_TEAM" in t), None)


def is_team_file(trf: TrfFile) -> bool:
    """A team tournament: ``310``/``013`` rosters or a ``FIDE_TEAM``/``CUSTOM_TEAM`` type."""
    return _team_type(trf) is not None or any(
        isinstance(r, RawRecord) and r.code in ("310", "013") for r in trf.records
    )


def _raw(trf: TrfFile, code: str) -> list[RawRecord]:
    return [r for r in trf.records if isinstance(r, RawRecord) and r.code == code]


def _error(trf: TrfFile, record: RawRecord, column: int, what: str, found: str) -> IngestError:
    return IngestError(trf.path, record.line, column, f"bad {what}", found=found, expected="")


def _cols(text: str, first: int, last: int) -> str:
    return text[first - 1 : last]


def _number(trf: TrfFile, record: RawRecord, first: int, last: int, what: str) -> int | None:
    raw = _cols(record.text, first, last).strip()
    if not raw:
        return None
    if not raw.isdecimal():
        raise IngestError(trf.path, record.line, first, f"bad {what}", found=raw, expected="digits")
    return int(raw)


def _decimal(trf: TrfFile, record: RawRecord, first: int, last: int, what: str) -> Decimal | None:
    raw = _cols(record.text, first, last).strip()
    if not raw:
        return None
    try:
        value = Decimal(raw.replace(",", "."))
    except InvalidOperation:
        raise IngestError(
            trf.path, record.line, first, f"bad {what}", found=raw, expected="a number like 1.5"
        ) from None
    if not value.is_finite():
        raise IngestError(trf.path, record.line, first, f"bad {what}", found=raw, expected="")
    return value


def _ids(trf: TrfFile, record: RawRecord, start: int, what: str) -> tuple[int, ...]:
    out: list[int] = []
    for match in re.finditer(r"\S+", record.text[start - 1 :]):
        token = match.group()
        if not token.isdecimal():
            raise IngestError(
                trf.path,
                record.line,
                start + match.start(),
                f"bad {what}",
                found=token,
                expected="a pairing number",
            )
        out.append(int(token))
    return tuple(out)


def rosters(trf: TrfFile) -> list[TeamRoster]:
    """The teams, by pairing number: ``310`` records, else ``013`` in file order."""
    found = [
        TeamRoster(
            number=_number(trf, r, 5, 7, "team pairing number") or 0,
            name=_cols(r.text, 9, 40).strip(),
            nickname=_cols(r.text, 42, 46).strip(),
            members=_ids(trf, r, 74, "team member"),
            code="310",
            line=r.line,
        )
        for r in _raw(trf, "310")
    ]
    for roster, record in zip(found, _raw(trf, "310"), strict=True):
        if roster.number == 0:
            raise IngestError(
                trf.path, record.line, 5, "missing team pairing number", found="", expected="1..999"
            )
    if found:
        return sorted(found, key=lambda t: t.number)
    return [
        TeamRoster(
            number=i + 1,
            name=_cols(r.text, 5, 36).strip(),
            members=_ids(trf, r, 37, "team member"),
            code="013",
            line=r.line,
        )
        for i, r in enumerate(_raw(trf, "013"))
    ]


def team_scoring(trf: TrfFile) -> TeamScoring:
    """``362 TW 2.0 TD 1.0 TL 0.0`` (any subset, any order)."""
    values: dict[str, Decimal] = {}
    text = trf.header("362") or ""
    for match in re.finditer(r"(T[WDL])\s*(-?[0-9]+(?:[.,][0-9]+)?)", text):
        values[match.group(1)] = Decimal(match.group(2).replace(",", "."))
    default = TeamScoring()
    return TeamScoring(
        win=values.get("TW", default.win),
        draw=values.get("TD", default.draw),
        loss=values.get("TL", default.loss),
    )


def team_pab(trf: TrfFile) -> TeamPabRecord | None:
    """``320``: 5-8 match points, 10-13 game points, then the PAB team of each round."""
    records = _raw(trf, "320")
    if not records:
        return None
    record = records[-1]
    teams: list[int | None] = []
    column = 15
    while column <= len(record.text):
        teams.append(_number(trf, record, column, column + 2, "PAB team"))
        column += 4
    return TeamPabRecord(
        _decimal(trf, record, 5, 8, "PAB match points"),
        _decimal(trf, record, 10, 13, "PAB game points"),
        tuple(teams),
    )


def team_forfeits(trf: TrfFile) -> list[TeamForfeit]:
    """``330``: 5-6 type, 8-10 round, 12-14 white team, 16-18 black team."""
    out = []
    for record in _raw(trf, "330"):
        kind = _cols(record.text, 5, 6)
        if kind not in ("+-", "-+", "--"):
            raise IngestError(
                trf.path, record.line, 5, "bad team forfeit type", found=kind, expected="+- -+ --"
            )
        numbers = [
            _number(trf, record, a, b, what)
            for a, b, what in ((8, 10, "round"), (12, 14, "white team"), (16, 18, "black team"))
        ]
        if any(n is None for n in numbers):
            raise IngestError(
                trf.path,
                record.line,
                8,
                "incomplete team forfeit",
                found=record.text[4:],
                expected="'330 +- RRR TTT TTT'",
            )
        out.append(
            TeamForfeit(kind, int(numbers[0] or 0), int(numbers[1] or 0), int(numbers[2] or 0))
        )
    return out


def accelerations_from_trf(trf: TrfFile) -> list[Acceleration]:
    """``250`` records of a team file: their player range is a range of team numbers."""
    return [
        Acceleration(
            r.match_points,
            r.game_points,
            r.first_round,
            r.last_round,
            r.first_player,
            r.last_player,
        )
        for r in trf.records
        if isinstance(r, AccelerationRecord)
    ]


def abnormal_points(trf: TrfFile) -> list[AbnormalPoints]:
    """``299``: 5 type, 8-11 match points, 14-17 points, 20-22 round, ids from 24."""
    out = []
    for record in _raw(trf, "299"):
        kind = _cols(record.text, 5, 5) or " "
        if kind not in " WDLFHZ+-":
            raise IngestError(
                trf.path,
                record.line,
                5,
                "bad abnormal-points type",
                found=kind,
                expected="W D L F H Z + - or blank",
            )
        round_no = _number(trf, record, 20, 22, "round")
        out.append(
            AbnormalPoints(
                kind=kind,
                match_points=_decimal(trf, record, 8, 11, "match points"),
                points=_decimal(trf, record, 14, 17, "points"),
                round=round_no or None,
                ids=_ids(trf, record, 24, "team"),
            )
        )
    return out


def board_sequence(trf: TrfFile) -> str | None:
    """``352``: the board colour sequence of the team with White on board 1 (``WBWB``)."""
    text = trf.header("352")
    return text.strip().upper() if text and text.strip() else None


def team_config(trf: TrfFile) -> TeamConfig:
    """Read ``192 FIDE_TEAM[_TYPEA|_TYPEB][_MP|_GP][_GP|_MP][_BAKU]`` (default Type A, MP, GP)."""
    code = _team_type(trf) or "FIDE_TEAM"
    parts = code.split("_")
    baku = "BAKU" in parts
    colour = "B" if "TYPEB" in parts else "A" if "TYPEA" in parts else None
    scores = [p for p in parts if p in ("MP", "GP")]
    if colour is None:
        colour = "A" if not scores else "none"
    primary = scores[0] if scores else "MP"
    secondary = len(scores) != 1
    return TeamConfig(code, colour, primary, secondary, baku)


@dataclass(frozen=True)
class TeamTournament:
    """A TRF file read as a team tournament."""

    teams: tuple[TeamEntry, ...]
    rosters: tuple[TeamRoster, ...]
    rounds_played: int
    total_rounds: int
    boards: int
    board_sequence: str | None


def _history(player: PlayerRecord) -> tuple[HistoryEntry, ...]:
    return tuple(
        HistoryEntry(opponent=e.opponent, colour=e.colour, result=e.result) for e in player.rounds
    )


def team_source_from_trf(trf: TrfFile) -> tuple[TeamSource, list[TeamRoster]]:
    """The aggregation's input from the file's records."""
    teams = rosters(trf)
    if not teams:
        raise IngestError(
            trf.path,
            1,
            1,
            "not a team tournament",
            found="no 310 or 013 record",
            expected="team rosters",
        )
    players = {p.number: p for p in trf.players}
    played = _played_rounds(trf, players)
    sequence = board_sequence(trf)
    boards = len(sequence) if sequence else _boards(teams, players, played)
    ms = team_scoring(trf)
    pab = team_pab(trf)
    source = TeamSource(
        rosters=[Roster(t.number, t.name, t.members) for t in teams],
        rounds_of={n: _history(p) for n, p in players.items()},
        rounds_played=played,
        boards=boards,
        scoring=trf.board_scoring,
        match_scoring=MatchScoring(
            ms.win,
            ms.draw,
            ms.loss,
            pab.match_points if pab else None,
            pab.game_points if pab else None,
        ),
        pab_teams=(
            {k: t for k, t in enumerate(pab.teams, start=1) if t}
            if pab is not None
            else _inferred_pabs(teams, players, played)
        ),
        forfeits=[DeclaredForfeit(f.kind, f.round, f.white, f.black) for f in team_forfeits(trf)],
        byes={
            (r.round, team): r.kind
            for r in trf.records
            if isinstance(r, ByesRecord)
            for team in r.players
        },
        adjustments=[
            Adjustment(a.kind, a.match_points, a.points, a.round, a.ids)
            for a in abnormal_points(trf)
        ],
    )
    return source, teams


def team_tournament_from_trf(trf: TrfFile) -> TeamTournament:
    """Aggregate the member games of ``trf`` into team rounds."""
    source, teams = team_source_from_trf(trf)
    entries = team_histories(source)
    total = max(trf.total_rounds or 0, source.rounds_played + 1)
    return TeamTournament(
        entries, tuple(teams), source.rounds_played, total, source.boards, board_sequence(trf)
    )


def _played_rounds(trf: TrfFile, players: dict[int, PlayerRecord]) -> int:
    """The last round in which some member has an opponent or a PAB (or a 330 forfeit)."""
    last = 0
    for player in players.values():
        for k, entry in enumerate(player.rounds, start=1):
            if entry.opponent is not None or entry.result is ResultCode.PAB:
                last = max(last, k)
    for forfeit in team_forfeits(trf):
        last = max(last, forfeit.round)
    pab = team_pab(trf)
    if pab is not None:
        for k, team in enumerate(pab.teams, start=1):
            if team is not None:
                last = max(last, k)
    return last


def _inferred_pabs(
    teams: Sequence[TeamRoster], players: dict[int, PlayerRecord], rounds: int
) -> dict[int, int]:
    """Without ``320``: the team PAB of a round is the one team nobody paired when the
    teams are odd in number (TRF16 files write its members as ``0000 - -``)."""
    found: dict[int, int] = {}
    if len(teams) % 2 == 0:
        return found
    for k in range(1, rounds + 1):
        unpaired = [
            t.number
            for t in teams
            if not any(
                m in players
                and len(players[m].rounds) >= k
                and players[m].rounds[k - 1].opponent is not None
                for m in t.members
            )
        ]
        if len(unpaired) == 1:
            found[k] = unpaired[0]
    return found


def _boards(teams: Sequence[TeamRoster], players: dict[int, PlayerRecord], rounds: int) -> int:
    """Boards per match: the most members of a team with a game in one round (else 1)."""
    most = 0
    for team in teams:
        for k in range(1, rounds + 1):
            count = sum(
                1
                for m in team.members
                if m in players
                and len(players[m].rounds) >= k
                and players[m].rounds[k - 1].opponent is not None
            )
            most = max(most, count)
    return most or max((len(t.members) for t in teams), default=1)
