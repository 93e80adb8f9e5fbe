"""The team Swiss request of a TRF file (``arbiter-pairings --team``): the team tournament read
by `ingest.trf.teams` (aggregated by `events.team_results`, where the rules are written).

The round to pair is the first no team was paired in; ``240`` records of that round are
requested byes (their ids are team numbers), ``260`` prohibited pairs, ``250`` acceleration.
"""

from __future__ import annotations

from collections.abc import Sequence

from events.domain import Colour
from events.team_results import TeamEntry, accelerate
from ingest.trf import ByesRecord, ForbiddenPairsRecord, TrfFile
from ingest.trf.teams import accelerations_from_trf, team_config, team_tournament_from_trf
from pairing.team.model import ColourType, PrimaryScore, TeamSwissInput

__all__ = ["team_input_from_trf"]


def team_input_from_trf(trf: TrfFile) -> TeamSwissInput:
    """The team Swiss request for the round after the last one the file pairs."""
    tournament = team_tournament_from_trf(trf)
    played = tournament.rounds_played
    config = team_config(trf)
    to_pair = played + 1
    absent = frozenset(
        team
        for r in trf.records
        if isinstance(r, ByesRecord) and r.round == to_pair
        for team in r.players
    )
    forbidden: set[frozenset[int]] = set()
    for record in trf.records:
        if (
            isinstance(record, ForbiddenPairsRecord)
            and record.first_round <= to_pair <= record.last_round
        ):
            for i, a in enumerate(record.players):
                for b in record.players[i + 1 :]:
                    forbidden.add(frozenset((a, b)))
    entries = _accelerate(trf, tournament.teams, tournament.total_rounds)
    return TeamSwissInput(
        teams=entries,
        rounds_played=played,
        total_rounds=tournament.total_rounds,
        initial_colour=trf.initial_colour or Colour.WHITE,
        colour_type=ColourType(config.colour_type),
        primary=PrimaryScore(config.primary),
        secondary_for_colour=config.secondary_for_colour,
        absent=absent,
        forbidden=frozenset(forbidden),
    )


def _accelerate(trf: TrfFile, teams: Sequence[TeamEntry], total: int) -> tuple[TeamEntry, ...]:
    return accelerate(teams, accelerations_from_trf(trf), total)
