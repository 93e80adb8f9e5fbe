"""A team tournament's team events, folded (`team_state`): the teams, their rosters in board
order, line-ups, the team pairing of each round and the TRF team records; the state the team
deciders (`decide.teams`) and the team views (`projections.teams`) read, beside the board-level
`decide.state.TournamentState`."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from decide.state import BoardState, TournamentState
from events.schema import (
    Event,
    LineupSet,
    TeamMemberAdded,
    TeamRecord,
    TeamRegistered,
    TeamRoundPaired,
)

__all__ = ["TeamInfo", "TeamsState", "board_order", "match_boards", "team_state"]


@dataclass(slots=True)
class TeamInfo:
    """A team as registered: number, name, federation, roster in board order, line-ups."""

    number: int
    name: str
    federation: str | None = None
    nickname: str | None = None
    members: list[int] = field(default_factory=list)
    lineups: dict[int, tuple[int, ...]] = field(default_factory=dict)
    out_of_order: dict[int, bool] = field(default_factory=dict)


@dataclass(slots=True)
class TeamsState:
    """Every team event of a tournament, folded."""

    teams: dict[int, TeamInfo] = field(default_factory=dict)
    rounds: dict[int, TeamRoundPaired] = field(default_factory=dict)
    records: list[TeamRecord] = field(default_factory=list)

    def team_of(self, player: int) -> int | None:
        """The team whose roster holds ``player``."""
        return next((t.number for t in self.teams.values() if player in t.members), None)

    def by_name(self, name: str) -> TeamInfo | None:
        """A team by name (case-insensitive) or by its pairing number."""
        wanted = name.strip().casefold()
        for team in self.teams.values():
            if team.name.casefold() == wanted or str(team.number) == wanted:
                return team
        return None


def team_state(events: Iterable[Event], at_round: int | None = None) -> TeamsState:
    """Fold the team events of one tournament stream (as it stood after ``at_round``)."""
    state = TeamsState()
    for event in events:
        if at_round is not None and isinstance(event, TeamRoundPaired) and event.round > at_round:
            continue
        match event:
            case TeamRegistered():
                state.teams[event.team] = TeamInfo(
                    event.team, event.name, event.federation, event.nickname, list(event.members)
                )
            case TeamMemberAdded(team=team, player=player, board=board):
                members = state.teams[team].members
                if player in members:
                    members.remove(player)
                members.insert(len(members) if board is None else board - 1, player)
            case LineupSet(team=team, round=r, players=players, out_of_order=flag):
                state.teams[team].lineups[r] = players
                state.teams[team].out_of_order[r] = flag
            case TeamRoundPaired(round=r):
                state.rounds[r] = event
            case TeamRecord():
                state.records.append(event)
    return state


def board_order(teams: TeamsState, team: int, r: int) -> tuple[int, ...]:
    """Who played board 1, 2, … for ``team`` in round ``r``: the line-up the pairing used,
    else the round's line-up, else the roster's order."""
    paired = teams.rounds.get(r)
    for match in paired.matches if paired is not None else ():
        if match.white == team and match.white_players:
            return match.white_players
        if match.black == team and match.black_players:
            return match.black_players
    info = teams.teams[team]
    lineup = info.lineups.get(r, ())
    return (*lineup, *(m for m in info.members if m not in lineup))


def match_boards(
    state: TournamentState, teams: TeamsState, round_no: int, match_no: int
) -> tuple[BoardState, ...] | None:
    """The boards of match ``match_no`` of team round ``round_no``, its board 1 first; None
    when the round has no such match.

    A match's boards are the round's boards with a player of either team, in the team's
    board order for the round (the line-up paired, else the round's line-up, else the
    roster's order). A round arbiter paired numbers them match after match, but a round
    read from a file keeps the file's board numbers, which need not follow the matches."""
    paired = teams.rounds.get(round_no)
    played = state.rounds.get(round_no)
    match = next((m for m in paired.matches if m.match == match_no), None) if paired else None
    if match is None or played is None:
        return None
    place: dict[int, tuple[int, int]] = {}
    for side, team in enumerate((match.white, match.black)):
        for position, player in enumerate(board_order(teams, team, round_no)):
            place.setdefault(player, (position, side))
    boards = [b for b in played.boards if b.white in place or b.black in place]
    return tuple(
        sorted(boards, key=lambda b: min(place[p] for p in (b.white, b.black) if p in place))
    )
