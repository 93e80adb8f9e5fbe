"""TRF team records → the team events of a live tournament (`trf_to_events` calls it).

A team file (``310``/``013`` rosters, or ``192 FIDE_TEAM…``) becomes a ``team-swiss``
tournament: its settings carry ``192`` (colour type, primary score), ``362``, ``352`` and
``320``'s points; each roster is a `TeamRegistered`; ``240`` (team byes), ``250``
(acceleration), ``260``, ``299`` and ``330`` are `TeamRecord` events; every paired round gets
its `TeamRoundPaired` (matches with board 1's colours, and the team PAB) from the aggregation
of the member games.
"""

from __future__ import annotations

from events.domain import Colour
from events.params import TeamSettings
from events.schema import Event, TeamMatch, TeamRecord, TeamRegistered, TeamRoundPaired
from events.team_results import MatchKind
from ingest.trf.records import ByesRecord, ForbiddenPairsRecord, TrfFile
from ingest.trf.teams import (
    abnormal_points,
    accelerations_from_trf,
    team_config,
    team_forfeits,
    team_pab,
    team_scoring,
    team_tournament_from_trf,
)

__all__ = ["team_settings_from_trf", "trf_team_events"]


def _text(value: object) -> str:
    return f"{value.normalize():f}" if hasattr(value, "normalize") else str(value)


def team_settings_from_trf(trf: TrfFile) -> TeamSettings:
    """The team part of the tournament's parameters."""
    tournament = team_tournament_from_trf(trf)
    config = team_config(trf)
    scoring = team_scoring(trf)
    pab = team_pab(trf)
    pab_points = None
    if pab is not None and (pab.match_points is not None or pab.game_points is not None):
        mp = "" if pab.match_points is None else _text(pab.match_points)
        gp = "" if pab.game_points is None else _text(pab.game_points)
        pab_points = f"{mp}/{gp}"
    return TeamSettings(
        team_boards=tournament.boards,
        team_match_points="/".join(_text(v) for v in (scoring.win, scoring.draw, scoring.loss)),
        team_type=config.colour_type,
        team_primary=config.primary,
        team_secondary=config.secondary_for_colour,
        team_board_colours=tournament.board_sequence,
        team_pab_points=pab_points,
    )


def trf_team_events(trf: TrfFile) -> list[Event]:
    """Teams, team records and the team pairing of every round the file pairs."""
    tournament = team_tournament_from_trf(trf)
    events: list[Event] = [
        TeamRegistered(
            team=r.number,
            name=r.name or f"Team {r.number}",
            nickname=r.nickname or None,
            members=r.members,
        )
        for r in tournament.rosters
    ]
    for record in trf.records:
        if isinstance(record, ByesRecord):
            events.append(
                TeamRecord(code="240", kind=record.kind, round=record.round, teams=record.players)
            )
        elif isinstance(record, ForbiddenPairsRecord):
            events.append(
                TeamRecord(
                    code="260",
                    round=record.first_round,
                    last_round=record.last_round,
                    teams=record.players,
                )
            )
    for acc in accelerations_from_trf(trf):
        events.append(
            TeamRecord(
                code="250",
                round=acc.first_round,
                last_round=acc.last_round,
                teams=(acc.first_team, acc.last_team),
                match_points=None if acc.match_points is None else float(acc.match_points),
                game_points=float(acc.game_points),
            )
        )
    for a in abnormal_points(trf):
        events.append(
            TeamRecord(
                code="299",
                kind=a.kind,
                round=a.round,
                teams=a.ids,
                match_points=None if a.match_points is None else float(a.match_points),
                game_points=None if a.points is None else float(a.points),
            )
        )
    for f in team_forfeits(trf):
        events.append(TeamRecord(code="330", kind=f.kind, round=f.round, teams=(f.white, f.black)))
    history = {t.number: t.history for t in tournament.teams}
    for k in range(1, tournament.rounds_played + 1):
        matches: list[TeamMatch] = []
        pab = None
        for number in sorted(history):
            h = history[number][k - 1]
            if h.kind is MatchKind.PAB:
                pab = number
            if h.opponent is None or (h.opponent < number and h.opponent in history):
                continue
            other = history.get(h.opponent)
            white_first = h.colour is Colour.WHITE or (
                h.colour is Colour.NONE
                and (other is None or other[k - 1].colour is not Colour.WHITE)
            )
            white, black = (number, h.opponent) if white_first else (h.opponent, number)
            matches.append(TeamMatch(match=len(matches) + 1, white=white, black=black))
        events.append(
            TeamRoundPaired(round=k, matches=tuple(matches), pab=pab, boards=tournament.boards)
        )
    return events
