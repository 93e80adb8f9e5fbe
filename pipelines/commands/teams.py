"""Director commands of team events: teams, rosters, line-ups, the team pairing of a round.

The service around the team deciders (`decide.teams`): read the stream once (the state and
the team state), decide, append with the version read; every refusal is a `CommandError`
before anything is appended. A team member is registered by the one registration rule
(`decide.players.register`, with the store's lists). The team pairing of a round is
decided by `decide.teams.pair_round` (its service: `pipelines.commands.rounds.pair`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from decide import teams as decide
from decide.inputs import PlayerInput
from decide.team_state import TeamsState, team_state
from events.store import Store
from pipelines.commands.base import Loaded, append, decided_again, load
from pipelines.commands.lists import StoreLists

__all__ = [
    "accelerate_teams",
    "add_member",
    "add_team",
    "forbid_teams",
    "forfeit_match",
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
