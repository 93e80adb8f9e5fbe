"""TRF team records (TRF16 ``013``, TRF-2026 ``310 320 330 352 362 299`` and ``192`` codes).

The line reader keeps these lines verbatim (`RawRecord`, so that a written file reproduces
them); this module reads their fields (docs/formats.md 1.7) into typed values, with an
`IngestError` naming line and column when a field is malformed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from ingest.errors import IngestError
from ingest.trf.records import RawRecord, TrfFile

__all__ = [
    "AbnormalPoints",
    "TeamConfig",
    "TeamForfeit",
    "TeamPabRecord",
    "TeamRoster",
    "TeamScoring",
    "abnormal_points",
    "board_sequence",
    "is_team_file",
    "rosters",
    "team_config",
    "team_forfeits",
    "team_pab",
    "team_scoring",
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
    line: int = 0


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


def is_team_file(trf: TrfFile) -> bool:
    """A team tournament: ``310``/``013`` rosters or a ``FIDE_TEAM``/``CUSTOM_TEAM`` type."""
    system = (trf.system or "").upper()
    return "_TEAM" in system or any(
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
    code = (trf.system or "FIDE_TEAM").upper()
    parts = code.split("_")
    baku = "BAKU" in parts
    colour = "B" if "TYPEB" in parts else "A" if "TYPEA" in parts else None
    scores = [p for p in parts if p in ("MP", "GP")]
    if colour is None:
        colour = "A" if not scores else "none"
    primary = scores[0] if scores else "MP"
    secondary = len(scores) != 1
    return TeamConfig(code, colour, primary, secondary, baku)
