"""TRF-2026 team records of a team tournament from the log (the writer's half of
`ingest.trf.teams`): ``192``, ``362``, ``352``, ``320``, ``310`` rosters with match points,
game points and rank, ``240``, ``260``, ``299`` and ``330``.

Layouts: docs/formats.md 1.6-1.7. ``parse_trf(write_trf(...))`` reads them back into the same
team tournament (a test).
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from decide.state import TournamentState
from events.schema import Event
from events.team_results import TeamEntry
from ingest.trf.records import (
    AccelerationRecord,
    ByesRecord,
    ForbiddenPairsRecord,
    HeaderRecord,
    RawRecord,
    Record,
)
from projections.team_standings import team_standings
from projections.teams import TeamsState, match_scoring, team_entries, team_state

__all__ = ["roster_310", "rosters_as_013", "team_header", "team_records"]


def _pts(value: Decimal | float | None, width: int) -> str:
    if value is None:
        return " " * width
    return f"{Decimal(str(value)).quantize(Decimal('0.1'))}".rjust(width)


def team_header(state: TournamentState) -> list[Record]:
    """``192`` (type A/B or none, primary and secondary score), ``362``, ``352``."""
    t = state.settings.pairing_params.team
    kind = {"A": "TYPEA_", "B": "TYPEB_"}.get(t.team_type or "A", "")
    primary = t.team_primary or "MP"
    secondary = "" if t.team_secondary is False else "_" + ("GP" if primary == "MP" else "MP")
    records: list[Record] = [HeaderRecord("192", f"FIDE_TEAM_{kind}{primary}{secondary}")]
    ms = match_scoring(t)
    records.append(
        HeaderRecord("362", f"TW {_pts(ms.win, 4)}   TD {_pts(ms.draw, 4)}   TL {_pts(ms.loss, 4)}")
    )
    if t.team_board_colours:
        records.append(HeaderRecord("352", t.team_board_colours))
    return records


def _roster_line(
    number: int,
    name: str,
    nickname: str,
    entry: TeamEntry | None,
    rank: int | None,
    members: Sequence[int],
) -> RawRecord:
    mp = sum((h.match_points for h in entry.history), Decimal(0)) if entry else None
    gp = sum((h.game_points for h in entry.history), Decimal(0)) if entry else None
    text = (
        f"310 {number:>3} {name[:32]:<32} {nickname[:5]:<5} {'':>6} {_pts(mp, 6)} "
        f"{_pts(gp, 6)} {'' if rank is None else rank:>3}  " + " ".join(f"{m:>4}" for m in members)
    )
    return RawRecord(text.rstrip())


def team_records(
    events: Sequence[Event], state: TournamentState, numbers: dict[int, int]
) -> list[Record]:
    """The team records after the ``001`` lines (``numbers``: player id → TRF number)."""
    teams: TeamsState = team_state(events)
    through = state.last_round
    entries = {e.number: e for e in team_entries(state, teams, through)}
    ranks = {
        r.number: r.rank
        for r in team_standings(
            list(entries.values()), (), state.settings.pairing_params.team.team_primary or "MP"
        )
    }
    t = state.settings.pairing_params.team
    records: list[Record] = []
    pabs = [teams.rounds[r].pab if r in teams.rounds else None for r in range(1, through + 1)]
    if t.team_pab_points or any(p is not None for p in pabs):
        mp, _, gp = (t.team_pab_points or "/").partition("/")
        head = f"320 {_pts(Decimal(mp) if mp else None, 4)} {_pts(Decimal(gp) if gp else None, 4)}"
        records.append(RawRecord((head + " " + " ".join(f"{p or '':>3}" for p in pabs)).rstrip()))
    for team in sorted(teams.teams.values(), key=lambda t: t.number):
        records.append(
            _roster_line(
                team.number,
                team.name,
                team.nickname or "",
                entries.get(team.number),
                ranks.get(team.number),
                [numbers[m] for m in team.members if m in numbers],
            )
        )
    for r in teams.records:
        if r.code == "240":
            records.append(ByesRecord(r.kind, r.round or 1, r.teams))
        elif r.code == "250" and r.teams:
            records.append(
                AccelerationRecord(
                    None if r.match_points is None else Decimal(str(r.match_points)),
                    Decimal(str(r.game_points or 0)),
                    r.round or 1,
                    r.last_round or r.round or 1,
                    r.teams[0],
                    r.teams[-1],
                )
            )
        elif r.code == "260":
            records.append(
                ForbiddenPairsRecord(r.round or 1, r.last_round or r.round or 1, r.teams)
            )
        elif r.code == "299":
            ids = "".join(f" {i:>4}" for i in r.teams)
            records.append(
                RawRecord(
                    f"299 {r.kind or ' '}  {_pts(r.match_points, 4)}  {_pts(r.game_points, 4)}"
                    f"  {r.round or 0:>3}{ids}".rstrip()
                )
            )
        elif len(r.teams) == 2:
            records.append(
                RawRecord(f"330 {r.kind:<2} {r.round or 0:>3} {r.teams[0]:>3} {r.teams[1]:>3}")
            )
    return records


def _roster_lines(trf_records: Sequence[Record], to_code: str) -> list[Record]:
    """The records with every team line rewritten as ``to_code`` (``013`` ↔ ``310``), in team
    pairing-number order, where the first team line was."""
    from ingest.trf.records import TrfFile
    from ingest.trf.teams import rosters

    rows = rosters(TrfFile(tuple(trf_records)))
    lines: list[Record] = []
    for r in rows:
        members = " ".join(f"{m:>4}" for m in r.members)
        if to_code == "013":
            lines.append(RawRecord(f"013 {r.name[:32]:<32}{members}".rstrip()))
        else:
            lines.append(roster_310(r.number, r.name, r.members, r.nickname))
    out: list[Record] = []
    for record in trf_records:
        if isinstance(record, RawRecord) and record.code in ("013", "310"):
            out.extend(lines)
            lines = []
        else:
            out.append(record)
    return out


def roster_310(number: int, name: str, members: Sequence[int], nickname: str = "") -> RawRecord:
    """A ``310`` team line: pairing number 5-7, name 9-40, nickname 42-46, members from 74
    (4 columns each, one apart).

    >>> roster_310(2, "Bravo", (3, 4)).text[73:]
    '   3    4'
    """
    members_text = " ".join(f"{m:>4}" for m in members)
    return RawRecord(f"310 {number:>3} {name[:32]:<32} {nickname[:5]:<5}{'':>27}{members_text}")


def rosters_as_013(records: Sequence[Record]) -> list[Record]:
    """TRF-2026 ``310`` team lines as TRF16 ``013`` lines (name, members)."""
    return _roster_lines(records, "013")
