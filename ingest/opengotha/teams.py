"""The team tournament of an OpenGotha file (``<Teams>``, ``TeamTournamentParameterSet``) →
team events beside the individual games.

OpenGotha seats every team member on a board per round (``<Board roundNumber boardNumber
player>``); a match is the games of two teams' members on the same round. Each team becomes a
`TeamRegistered` (its members in the board order of the first round it is seated in), each
round's seating a `LineupSet`, and each round's matches a `TeamRoundPaired` (the white team is
the one whose board-1 player has White). OpenGotha scores a match 2/1/0 team points by board
wins (``ScoredTeamsSet``), which is arbiter's match-point rule with ``2/1/0`` and game points.

Its team placement criteria map onto the team tie-breaks where one exists: ``TEAMP`` is the
primary score (match points), ``BDW`` game points. ``SOST`` (opponents' team points over the
matches played) is not Buchholz on match points, which counts a round without a match; it, the
upper-board criteria (``BDW1U``…``BDW9U``) and ``MEAN_RATING`` have no counterpart yet and are
left out of the chain. A team without a match in a round scores nothing in it (OpenGotha counts
matches only), recorded as a ``240 Z`` team bye with ``299 Z`` points 0/0, whatever its
members' individual byes.
"""

from __future__ import annotations

from events.params import TeamSettings
from events.schema import (
    Event,
    LineupSet,
    TeamMatch,
    TeamRecord,
    TeamRegistered,
    TeamRoundPaired,
)
from ingest.opengotha.records import OGTeam, OGTournament, RawElement

__all__ = ["team_chain", "team_criteria", "team_events", "team_settings"]

_CHAIN = {"BDW": "GP"}


def _find(element: RawElement | None, tag: str) -> RawElement | None:
    if element is None:
        return None
    if element.tag == tag:
        return element
    for child in element.children:
        found = _find(child, tag)
        if found is not None:
            return found
    return None


def _team_size(t: OGTournament) -> int | None:
    general = _find(t.team_parameters, "TeamGeneralParameterSet")
    size = dict(general.attributes).get("teamSize") if general is not None else None
    if size is not None and size.isdigit() and int(size) >= 1:
        return int(size)
    boards = [b.board for team in t.teams for b in team.boards]
    return max(boards) if boards else None


def team_criteria(t: OGTournament) -> list[str]:
    """The file's team placement criteria, ``NULL`` left out."""
    placement = _find(t.team_parameters, "TeamPlacementParameterSet")
    if placement is None or not placement.children:
        return []
    names = [dict(c.attributes).get("name", "") for c in placement.children[0].children]
    return [n for n in names if n and n != "NULL"]


def team_chain(t: OGTournament) -> str:
    """The tie-breaks after match points that OpenGotha's criteria name (see module)."""
    chain: list[str] = []
    for name in team_criteria(t):
        code = _CHAIN.get(name)
        if code is not None and code not in chain:
            chain.append(code)
    return ",".join(chain)


def team_settings(t: OGTournament) -> TeamSettings | None:
    """Team settings of a file with teams; None without."""
    if not t.teams:
        return None
    return TeamSettings(
        team_boards=_team_size(t),
        team_match_points="2/1/0",
        team_primary="MP",
        team_tiebreaks=team_chain(t) or None,
    )


def _seating(team: OGTeam, round_no: int, number: dict[str, int]) -> tuple[int, ...]:
    boards = sorted((b.board, number[b.player]) for b in team.boards if b.round == round_no)
    return tuple(player for _, player in boards)


def team_events(t: OGTournament, number: dict[str, int], rounds: int) -> list[Event]:
    """Teams, line-ups and team rounds of the file's played rounds (module docstring)."""
    if not t.teams:
        return []
    teams = sorted(t.teams, key=lambda team: team.number)
    events: list[Event] = []
    played_rounds = sorted({g.round for g in t.games if g.round <= rounds})
    for team in teams:
        seated = sorted({b.round for b in team.boards})
        members: list[int] = []
        for r in seated:
            members.extend(p for p in _seating(team, r, number) if p not in members)
        name = team.name.strip() or f"Team {team.number}"
        events.append(TeamRegistered(team=team.number, name=name, members=tuple(members)))
        for r in played_rounds:
            lineup = _seating(team, r, number)
            if lineup:
                order = [members.index(p) for p in lineup]
                events.append(
                    LineupSet(
                        team=team.number,
                        round=r,
                        players=lineup,
                        out_of_order=order != sorted(order),
                    )
                )
    team_of = {
        (b.round, number[b.player]): (team.number, b.board) for team in teams for b in team.boards
    }
    size = _team_size(t) or 1
    for r in played_rounds:
        matches: list[TeamMatch] = []
        for g in sorted((g for g in t.games if g.round == r), key=lambda g: g.table):
            white = team_of.get((r, number[g.white]))
            black = team_of.get((r, number[g.black]))
            if white is None or black is None or white[1] != 1 or white[0] == black[0]:
                continue
            matches.append(TeamMatch(match=len(matches) + 1, white=white[0], black=black[0]))
        if matches:
            events.append(TeamRoundPaired(round=r, matches=tuple(matches), boards=size))
        idle = tuple(
            team.number
            for team in teams
            if not any(team.number in (m.white, m.black) for m in matches)
        )
        if idle:  # no match, no points: members' individual byes do not count for the team
            events.append(TeamRecord(code="240", kind="Z", round=r, teams=idle))
            events.append(
                TeamRecord(code="299", kind="Z", round=r, teams=idle, match_points=0, game_points=0)
            )
    return events
