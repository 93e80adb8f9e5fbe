"""The team Swiss request of a TRF file (``arbiter-pairings --team``): the team tournament read
by `ingest.trf.teams` (aggregated by `events.team_results`, where the rules are written).

The round to pair is the first no team was paired in; ``240`` records of that round are
requested byes (their ids are team numbers), ``260`` prohibited pairs, ``250`` acceleration.
The checker (``--team -c``) re-pairs every played round from the same teams cut back to the
rounds before it (`replay`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from events.domain import Colour
from events.team_results import MatchKind, TeamEntry, accelerate
from ingest.trf import ByesRecord, ForbiddenPairsRecord, TrfFile
from ingest.trf.teams import (
    TeamTournament,
    accelerations_from_trf,
    team_config,
    team_tournament_from_trf,
)
from pairing.contract import PairedRound, boards_of
from pairing.team.model import ColourType, PrimaryScore, TeamSwissInput
from pipelines.engines.adapters import Replayed

__all__ = ["replay", "team_input_from_trf"]


def team_input_from_trf(trf: TrfFile) -> TeamSwissInput:
    """The team Swiss request for the round after the last one the file pairs."""
    tournament = team_tournament_from_trf(trf)
    to_pair = tournament.rounds_played + 1
    absent = frozenset(
        team
        for r in trf.records
        if isinstance(r, ByesRecord) and r.round == to_pair
        for team in r.players
    )
    entries = _accelerate(trf, tournament.teams, tournament.total_rounds)
    return _request(trf, entries, to_pair, tournament.total_rounds, absent, trf.initial_colour)


def _request(
    trf: TrfFile,
    teams: tuple[TeamEntry, ...],
    to_pair: int,
    total: int,
    absent: frozenset[int],
    initial: Colour | None,
) -> TeamSwissInput:
    """The request to pair round ``to_pair`` of ``teams`` (their histories up to the round
    before it), with the ``192`` settings and the ``260`` pairs that apply to that round."""
    config = team_config(trf)
    forbidden: set[frozenset[int]] = set()
    for record in trf.records:
        if (
            isinstance(record, ForbiddenPairsRecord)
            and record.first_round <= to_pair <= record.last_round
        ):
            for i, a in enumerate(record.players):
                for b in record.players[i + 1 :]:
                    forbidden.add(frozenset((a, b)))
    return TeamSwissInput(
        teams=teams,
        rounds_played=to_pair - 1,
        total_rounds=total,
        initial_colour=initial or Colour.WHITE,
        colour_type=ColourType(config.colour_type),
        primary=PrimaryScore(config.primary),
        secondary_for_colour=config.secondary_for_colour,
        absent=absent,
        forbidden=frozenset(forbidden),
    )


def _accelerate(trf: TrfFile, teams: Sequence[TeamEntry], total: int) -> tuple[TeamEntry, ...]:
    return accelerate(teams, accelerations_from_trf(trf), total)


def replay(trf: TrfFile) -> list[Replayed[TeamSwissInput]]:
    """Every round the file pairs, each with the request the file stood at before it.

    As bbpPairings' checker reads a file: a team the file did not pair in a round (no
    opponent, no PAB) was absent from it; the total of rounds is the ``142`` record's, else
    the rounds played; without ``152``, the initial colour is read back from round 1.
    """
    tournament = team_tournament_from_trf(trf)
    played = tournament.rounds_played
    total = max(trf.total_rounds or played, played)
    teams = _accelerate(trf, tournament.teams, total)
    initial = trf.initial_colour or _initial_colour(tournament)
    out: list[Replayed[TeamSwissInput]] = []
    for k in range(1, played + 1):
        paired = {
            t.number
            for t in teams
            if t.history[k - 1].opponent is not None or t.history[k - 1].kind is MatchKind.PAB
        }
        before = tuple(replace(t, history=t.history[: k - 1]) for t in teams)
        absent = frozenset(t.number for t in teams if t.number not in paired)
        request = _request(trf, before, k, total, absent, initial)
        out.append(Replayed(k, request, *_played(teams, k)))
    return out


def _played(teams: Sequence[TeamEntry], k: int) -> tuple[PairedRound, frozenset[frozenset[int]]]:
    """Round ``k`` as the file paired it: (board-1 White team, other team), the PAB."""
    matches: list[tuple[int, int]] = []
    colourless: set[frozenset[int]] = set()
    pab = None
    for team in teams:
        entry = team.history[k - 1]
        if entry.kind is MatchKind.PAB:
            pab = team.number
        elif entry.opponent is None:
            continue
        elif entry.colour is Colour.WHITE:
            matches.append((team.number, entry.opponent))
        elif entry.colour is Colour.NONE:
            colourless.add(frozenset((team.number, entry.opponent)))
            if team.number < entry.opponent:
                matches.append((team.number, entry.opponent))
    return PairedRound(boards_of(matches, pab)), frozenset(colourless)


def _initial_colour(tournament: TeamTournament) -> Colour:
    """C.04.6 4.3.1 read back: in round 1 the first team of a match (the smaller TPN) has the
    initial colour when its TPN is odd."""
    for team in tournament.teams:
        first = team.history[0] if team.history else None
        if first and first.colour is not Colour.NONE and team.number < (first.opponent or 0):
            return first.colour if team.number % 2 else first.colour.invert()
    return Colour.WHITE
