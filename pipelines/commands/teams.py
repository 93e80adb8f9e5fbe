"""Director commands of team events: teams, rosters, line-ups, the team pairing of a round.

The service around the team deciders (`decide.teams`): read the stream once (the state and
the team state), decide, append with the version read; every refusal is a `CommandError`
before anything is appended. A team member is registered by the one registration rule
(`decide.players.register`, with the store's lists). The team pairing of a round
(`pair_teams`) decides here, beside the team engines.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from decide import teams as decide
from decide.inputs import PlayerInput
from decide.state import TournamentState
from decide.team_state import TeamInfo, TeamsState, team_state
from events.domain import Board, Colour, System
from events.errors import PairingError
from events.schema import (
    EventBase,
    RoundPaired,
    TeamMatch,
    TeamRoundPaired,
)
from events.store import Store
from pairing.team import (
    ColourType,
    PrimaryScore,
    TeamRound,
    TeamSwissInput,
    board_colours,
    pair,
    pair_team_round_robin,
)
from pipelines.commands.base import CommandError, Loaded, append, decided_again, load
from pipelines.commands.lists import StoreLists
from projections.teams import team_entries

__all__ = [
    "accelerate_teams",
    "add_member",
    "add_team",
    "forbid_teams",
    "forfeit_match",
    "pair_teams",
    "set_lineup",
    "team_bye",
    "teams_of",
]


def teams_of(loaded: Loaded) -> TeamsState:
    return team_state(e.event for e in loaded.events)


@decided_again
def add_team(
    store: Store, tournament_id: str, name: str, federation: str | None, nickname: str | None
) -> int:
    """Register a team (`decide.teams.add_team`); returns its pairing number."""
    loaded = load(store, tournament_id)
    event = decide.add_team(loaded.state, teams_of(loaded), name, federation, nickname)
    append(store, loaded, [event])
    return event.team


@decided_again
def add_member(
    store: Store,
    tournament_id: str,
    team_name: str,
    board: int | None,
    player: PlayerInput | Mapping[str, Any],
    *,
    force: bool = False,
    not_on_list: bool = False,
) -> int:
    """Register a player and put them on a team's roster (`decide.teams.add_member`, with the
    store's lists); returns the player's id."""
    loaded = load(store, tournament_id)
    registered, member = decide.add_member(
        loaded.state,
        teams_of(loaded),
        team_name,
        board,
        player,
        lists=StoreLists(store),
        force=force,
        not_on_list=not_on_list,
    )
    append(store, loaded, [registered, member])
    return registered.player


@decided_again
def set_lineup(
    store: Store, tournament_id: str, team_name: str, round_no: int, positions: list[int]
) -> tuple[list[int], bool]:
    """Set who plays ``round_no`` for a team, by roster position (`decide.teams.set_lineup`).

    Returns the player ids and whether the line-up leaves the roster's board order (allowed,
    but flagged: a player may not play above a player listed before him on the roster).
    """
    loaded = load(store, tournament_id)
    event = decide.set_lineup(loaded.state, teams_of(loaded), team_name, round_no, positions)
    append(store, loaded, [event])
    return list(event.players), event.out_of_order


def _request(state: TournamentState, teams: TeamsState, round_no: int) -> TeamSwissInput:
    settings = state.settings.pairing_params.team
    absent = {t for r in teams.records if r.code == "240" and r.round == round_no for t in r.teams}
    forbidden = {
        frozenset((a, b))
        for r in teams.records
        if r.code == "260" and (r.round or 1) <= round_no <= (r.last_round or r.round or round_no)
        for a in r.teams
        for b in r.teams
        if a < b
    }
    return TeamSwissInput(
        teams=team_entries(state, teams, round_no - 1),
        rounds_played=round_no - 1,
        total_rounds=state.total_rounds,
        initial_colour=state.settings.pairing_params.chess.initial_colour or Colour.WHITE,
        colour_type=ColourType(settings.team_type or "A"),
        primary=PrimaryScore(settings.team_primary or "MP"),
        secondary_for_colour=True if settings.team_secondary is None else settings.team_secondary,
        absent=frozenset(absent),
        forbidden=frozenset(forbidden),
    )


def _lineup(state: TournamentState, team: TeamInfo, round_no: int, boards: int) -> list[int]:
    chosen = team.lineups.get(round_no)
    if chosen is None:
        chosen = tuple(m for m in team.members if state.players[m].active_in(round_no))[:boards]
    if len(chosen) < boards:
        raise CommandError(
            f"{state.id}: {team.name} has {len(chosen)} player(s) for {boards} boards in "
            f"round {round_no}; add members or set a line-up"
        )
    return list(chosen)


def pair_teams(loaded: Loaded, round_no: int) -> list[EventBase]:
    """The boards of ``round_no`` and its team pairing: `RoundPaired` then `TeamRoundPaired`
    (in that order, so that ``undo`` to before the round takes both away)."""
    state = loaded.state
    teams = teams_of(loaded)
    if len(teams.teams) < 2:
        raise CommandError(f"{state.id}: register at least two teams before pairing")
    settings = state.settings.pairing_params.team
    boards = settings.team_boards or 1
    try:
        if state.system is System.TEAM_ROUNDROBIN:
            result: TeamRound = pair_team_round_robin(
                sorted(teams.teams), round_no, state.settings.cycles
            )
        else:
            result = pair(_request(state, teams, round_no))
    except PairingError as exc:
        raise CommandError(f"{state.id}: {exc}") from exc
    matches = tuple(
        TeamMatch(
            match=m,
            white=p.white,
            black=p.black,
            white_players=tuple(_lineup(state, teams.teams[p.white], round_no, boards)),
            black_players=tuple(_lineup(state, teams.teams[p.black], round_no, boards)),
        )
        for m, p in enumerate(result.pairs, start=1)
    )
    colours = board_colours(boards, Colour.WHITE, settings.team_board_colours)
    board_list: list[Board] = []
    for match in matches:
        white, black = match.white_players, match.black_players
        for i, (w, b, colour) in enumerate(zip(white, black, colours, strict=True), start=1):
            first, second = (w, b) if colour is Colour.WHITE else (b, w)
            number = (match.match - 1) * boards + i
            board_list.append(Board(board=number, white=first, black=second))
    return [
        RoundPaired(round=round_no, boards=tuple(board_list)),
        TeamRoundPaired(round=round_no, matches=matches, pab=result.pab, boards=boards),
    ]


@decided_again
def team_bye(store: Store, tournament_id: str, team_name: str, round_no: int, kind: str) -> None:
    """A team's requested bye for a round (`decide.teams.team_bye`, TRF ``240``)."""
    loaded = load(store, tournament_id)
    append(
        store, loaded, [decide.team_bye(loaded.state, teams_of(loaded), team_name, round_no, kind)]
    )


@decided_again
def forbid_teams(
    store: Store, tournament_id: str, names: list[str], first: int, last: int | None
) -> tuple[int, ...]:
    """Teams that must not meet from round ``first`` to ``last`` (`decide.teams.forbid`, TRF
    ``260``); their numbers."""
    loaded = load(store, tournament_id)
    event = decide.forbid(loaded.state, teams_of(loaded), names, first, last)
    append(store, loaded, [event])
    return event.teams


@decided_again
def accelerate_teams(
    store: Store,
    tournament_id: str,
    names: list[str],
    first: int,
    last: int | None,
    match_points: float | None,
    game_points: float,
) -> tuple[int, ...]:
    """Fictitious points for teams in rounds ``first..last`` (`decide.teams.accelerate`, TRF
    ``250``); the teams' numbers."""
    loaded = load(store, tournament_id)
    events = decide.accelerate(
        loaded.state, teams_of(loaded), names, first, last, match_points, game_points
    )
    append(store, loaded, events)
    return tuple(e.teams[0] for e in events)


@decided_again
def forfeit_match(
    store: Store, tournament_id: str, round_no: int, match_no: int, kind: str
) -> None:
    """A whole match forfeited (`decide.teams.forfeit_match`, TRF ``330``)."""
    loaded = load(store, tournament_id)
    events = decide.forfeit_match(loaded.state, teams_of(loaded), round_no, match_no, kind)
    append(store, loaded, events)
