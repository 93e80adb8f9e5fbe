"""The adapter from the live state of a team event to its engines: the team Swiss (C.04.6,
`pairing.team.pair`) and the team round robin (`pairing.team.pair_team_round_robin`), as the
team pairing decider's engine (`decide.teams.TeamEngine`)."""

from __future__ import annotations

from decide.state import TournamentState
from decide.team_state import TeamsState
from decide.teams import TeamProposal
from events.domain import Colour, System
from pairing.team import (
    ColourType,
    PrimaryScore,
    TeamRound,
    TeamSwissInput,
    board_colours,
    pair,
    pair_team_round_robin,
)
from projections.teams import team_entries

__all__ = ["team_engine", "team_request"]


def team_request(state: TournamentState, teams: TeamsState, round_no: int) -> TeamSwissInput:
    """The team Swiss's input for ``round_no``: the teams as they stand after the round before,
    the settings, the teams with a bye asked (TRF ``240``) and the pairs kept apart (``260``)."""
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


def team_engine(state: TournamentState, teams: TeamsState, round_no: int) -> TeamProposal:
    """Round ``round_no`` paired by the event's team system, with the board colours its
    settings give (record 352's sequence, else the default)."""
    settings = state.settings.pairing_params.team
    if state.system is System.TEAM_ROUNDROBIN:
        result: TeamRound = pair_team_round_robin(
            sorted(teams.teams), round_no, state.settings.cycles
        )
    else:
        result = pair(team_request(state, teams, round_no))
    colours = board_colours(settings.team_boards or 1, Colour.WHITE, settings.team_board_colours)
    return TeamProposal(
        pairs=tuple((p.white, p.black) for p in result.pairs),
        pab=result.pab,
        colours=tuple(colours),
    )
