"""The deciders of a team event's commands: a team registered, a member added (registered by
the one registration rule, `decide.players.register`, the imported lists a required argument),
a line-up, a team's bye, teams kept apart, fictitious points (acceleration), a match forfeited.

Each is pure: the tournament's state, its team state (`decide.team_state.team_state`), the
command; it returns the events or raises a `CommandError` before any exists. (The team pairing
of a round decides beside the engines, in `pipelines.commands.teams.pair_teams`.)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from decide import players
from decide.base import new_event
from decide.errors import CommandError
from decide.inputs import PlayerInput
from decide.lists import Lists
from decide.state import TournamentState
from decide.team_state import TeamInfo, TeamsState, match_boards
from events.domain import Outcome, System
from events.errors import braced
from events.schema import (
    EventBase,
    LineupSet,
    PlayerRegistered,
    ResultCorrected,
    ResultRecorded,
    TeamMemberAdded,
    TeamRecord,
    TeamRegistered,
)

__all__ = [
    "accelerate",
    "add_member",
    "add_team",
    "forbid",
    "forfeit_match",
    "set_lineup",
    "team_bye",
    "team_event",
    "team_named",
]


def team_event(state: TournamentState) -> None:
    """Refuse a team command in an event that is not a team tournament."""
    if not state.system.is_team:
        raise CommandError.naming(
            f"{braced(state.id)}: not a team tournament (system "
            f"{state.system.value}); create it with {{0}} team-swiss or team-roundrobin",
            "system",
        )


def team_named(state: TournamentState, teams: TeamsState, name: str) -> TeamInfo:
    """The team ``name`` names (its name, any case, or its number)."""
    found = teams.by_name(name)
    if found is None:
        known = ", ".join(t.name for t in teams.teams.values()) or "none yet"
        raise CommandError(f"{state.id}: no team '{name}' (teams: {known})")
    return found


def _not_paired(state: TournamentState, round_no: int) -> None:
    if round_no in state.rounds:
        raise CommandError(f"{state.id}: round {round_no} is already paired")
    if round_no > state.total_rounds:
        raise CommandError(f"{state.id}: round {round_no} > {state.total_rounds} rounds")


def add_team(
    state: TournamentState,
    teams: TeamsState,
    name: str,
    federation: str | None,
    nickname: str | None,
) -> TeamRegistered:
    """Register a team under a name no team has; its pairing number is the next free one.
    A team round robin's field is fixed once round 1 is paired."""
    team_event(state)
    if teams.by_name(name) is not None:
        raise CommandError(f"{state.id}: team '{name}' already exists")
    if state.rounds and state.system is System.TEAM_ROUNDROBIN:
        raise CommandError(f"{state.id}: a round robin's field is fixed once round 1 is paired")
    return new_event(
        TeamRegistered,
        state.id,
        team=max(teams.teams, default=0) + 1,
        name=name,
        federation=federation,
        nickname=nickname,
    )


def add_member(
    state: TournamentState,
    teams: TeamsState,
    team_name: str,
    board: int | None,
    player: PlayerInput | Mapping[str, Any],
    *,
    lists: Lists,
    force: bool,
    not_on_list: bool,
) -> tuple[PlayerRegistered, TeamMemberAdded]:
    """Register a player (`decide.players.register`: the imported lists read, as at every
    registration) and put him on a team's roster at ``board`` (1..roster + 1), else last."""
    team_event(state)
    team = team_named(state, teams, team_name)
    if board is not None and not 1 <= board <= len(team.members) + 1:
        raise CommandError(
            f"{state.id}: board {board} is outside 1..{len(team.members) + 1} "
            f"for {team.name}'s roster"
        )
    registered = players.register(
        state, player, lists=lists, force=force, not_on_list=not_on_list
    ).event
    member = new_event(
        TeamMemberAdded, state.id, team=team.number, player=registered.player, board=board
    )
    return registered, member


def set_lineup(
    state: TournamentState, teams: TeamsState, team_name: str, round_no: int, positions: list[int]
) -> LineupSet:
    """Who plays ``round_no`` for a team, by roster position, board 1 first: a round not yet
    paired, one player a board, each once, each on the roster. A line-up that leaves the
    roster's board order is allowed but flagged (``out_of_order``)."""
    team_event(state)
    team = team_named(state, teams, team_name)
    boards = state.settings.pairing_params.team.team_boards or 1
    _not_paired(state, round_no)
    if len(positions) != boards:
        raise CommandError(
            f"{state.id}: {team.name}'s line-up names {len(positions)} players for {boards} boards"
        )
    if len(set(positions)) != len(positions):
        raise CommandError(f"{state.id}: a player appears twice in {team.name}'s line-up")
    for position in positions:
        if not 1 <= position <= len(team.members):
            raise CommandError(
                f"{state.id}: {team.name} has no roster board {position} "
                f"(roster boards 1..{len(team.members)})"
            )
    return new_event(
        LineupSet,
        state.id,
        team=team.number,
        round=round_no,
        players=tuple(team.members[p - 1] for p in positions),
        out_of_order=positions != sorted(positions),
    )


def team_bye(
    state: TournamentState, teams: TeamsState, team_name: str, round_no: int, kind: str
) -> TeamRecord:
    """A team's requested bye for a round not yet paired (TRF ``240``): ``F``ull, ``H``alf or
    ``Z``ero."""
    team_event(state)
    team = team_named(state, teams, team_name)
    _not_paired(state, round_no)
    return new_event(
        TeamRecord, state.id, code="240", kind=kind, round=round_no, teams=(team.number,)
    )


def forbid(
    state: TournamentState, teams: TeamsState, names: list[str], first: int, last: int | None
) -> TeamRecord:
    """Teams (two or more) that must not meet from round ``first`` to ``last`` (default: the
    last round; TRF ``260``)."""
    team_event(state)
    numbers = tuple(team_named(state, teams, n).number for n in names)
    if len(set(numbers)) < 2:
        raise CommandError(f"{state.id}: name at least two different teams")
    return new_event(
        TeamRecord,
        state.id,
        code="260",
        round=first,
        last_round=last or state.total_rounds,
        teams=numbers,
    )


def accelerate(
    state: TournamentState,
    teams: TeamsState,
    names: list[str],
    first: int,
    last: int | None,
    match_points: float | None,
    game_points: float,
) -> list[TeamRecord]:
    """Fictitious points for teams in rounds ``first..last`` (TRF ``250``, C.04.6
    acceleration), rounds not yet paired, the points not negative: counted for pairing only,
    never in the standings. One record per team."""
    team_event(state)
    numbers = tuple(sorted({team_named(state, teams, n).number for n in names}))
    last = first if last is None else last
    total = state.total_rounds
    if not first <= last <= total:
        raise CommandError(f"{state.id}: rounds {first}..{last} are not within 1..{total}")
    paired = state.last_round
    if first <= paired:
        raise CommandError(
            f"{state.id}: round {paired} is already paired; accelerate from round {paired + 1} on"
        )
    if game_points < 0 or (match_points is not None and match_points < 0):
        raise CommandError(f"{state.id}: fictitious points cannot be negative")
    return [
        new_event(
            TeamRecord,
            state.id,
            code="250",
            round=first,
            last_round=last,
            teams=(n, n),
            match_points=match_points,
            game_points=game_points,
        )
        for n in numbers
    ]


FORFEITS = ("+-", "-+", "--")
"""A forfeited match (TRF ``330``): the team with White on board 1 wins, the other, neither."""


def forfeit_match(
    state: TournamentState, teams: TeamsState, round_no: int, match_no: int, kind: str
) -> list[EventBase]:
    """A whole match forfeited (TRF ``330``): ``+-`` the team with White on board 1 wins,
    ``-+`` the other, ``--`` both lose. Every board of the match gets the forfeit result (a
    correction where it had one)."""
    team_event(state)
    paired = teams.rounds.get(round_no)
    if paired is None:
        raise CommandError(f"{state.id}: round {round_no} is not paired")
    match = next((m for m in paired.matches if m.match == match_no), None)
    if match is None:
        raise CommandError(
            f"{state.id}: round {round_no} has no match {match_no} "
            f"(matches 1..{len(paired.matches)})"
        )
    if kind not in FORFEITS:
        raise CommandError(f"bad forfeit '{kind}': white, black or none (the team that wins)")
    events: list[EventBase] = [
        new_event(
            TeamRecord,
            state.id,
            code="330",
            kind=kind,
            round=round_no,
            teams=(match.white, match.black),
        )
    ]
    white_team = set(teams.teams[match.white].members)
    for board in match_boards(state, teams, round_no, match_no) or ():
        if board.black is None:
            continue
        white_side_won = kind == "+-" if board.white in white_team else kind == "-+"
        outcome = (
            Outcome.DOUBLE_FORFEIT
            if kind == "--"
            else Outcome.WHITE_WINS_FORFEIT
            if white_side_won
            else Outcome.BLACK_WINS_FORFEIT
        )
        known = board.outcome is not None and board.outcome.is_known
        cls = ResultCorrected if known else ResultRecorded
        events.append(cls(round=round_no, board=board.board, outcome=outcome))
    return events
