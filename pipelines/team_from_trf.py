"""Read a TRF file as a team tournament: its team records into a `TeamSource`, aggregated by
`pairing.team.aggregate` (the rules are written there), and the team Swiss request.

The round to pair is the first no team was paired in; ``240`` records of that round are
requested byes (their ids are team numbers), ``260`` prohibited pairs, ``250`` acceleration.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from events.domain import Colour
from events.result_codes import ResultCode
from events.team_results import (
    Adjustment,
    BoardScoring,
    DeclaredForfeit,
    HistoryEntry,
    MatchScoring,
    Roster,
    TeamSource,
    team_histories,
)
from ingest.errors import IngestError
from ingest.trf import (
    AccelerationRecord,
    ByesRecord,
    ForbiddenPairsRecord,
    PlayerRecord,
    TrfFile,
)
from ingest.trf.teams import (
    TeamRoster,
    abnormal_points,
    board_sequence,
    rosters,
    team_config,
    team_forfeits,
    team_pab,
    team_scoring,
)
from pairing.team.model import ColourType, PrimaryScore, TeamEntry, TeamSwissInput
from pipelines.swiss_from_trf import _scoring

__all__ = [
    "TeamTournament",
    "team_input_from_trf",
    "team_source_from_trf",
    "team_tournament_from_trf",
]


@dataclass(frozen=True)
class TeamTournament:
    """A TRF file read as a team tournament."""

    teams: tuple[TeamEntry, ...]
    rosters: tuple[TeamRoster, ...]
    rounds_played: int
    total_rounds: int
    boards: int
    board_sequence: str | None


def _history(player: PlayerRecord) -> tuple[HistoryEntry, ...]:
    return tuple(
        HistoryEntry(opponent=e.opponent, colour=e.colour, result=e.result) for e in player.rounds
    )


def team_source_from_trf(trf: TrfFile) -> tuple[TeamSource, list[TeamRoster]]:
    """The aggregation's input from the file's records."""
    teams = rosters(trf)
    if not teams:
        raise IngestError(
            trf.path,
            1,
            1,
            "not a team tournament",
            found="no 310 or 013 record",
            expected="team rosters",
        )
    players = {p.number: p for p in trf.players}
    played = _played_rounds(trf, players)
    sequence = board_sequence(trf)
    boards = len(sequence) if sequence else _boards(teams, players, played)
    ms = team_scoring(trf)
    pab = team_pab(trf)
    source = TeamSource(
        rosters=[Roster(t.number, t.name, t.members) for t in teams],
        rounds_of={n: _history(p) for n, p in players.items()},
        rounds_played=played,
        boards=boards,
        scoring=BoardScoring.model_validate(_scoring(trf).model_dump()),
        match_scoring=MatchScoring(
            ms.win,
            ms.draw,
            ms.loss,
            pab.match_points if pab else None,
            pab.game_points if pab else None,
        ),
        pab_teams=(
            {k: t for k, t in enumerate(pab.teams, start=1) if t}
            if pab is not None
            else _inferred_pabs(teams, players, played)
        ),
        forfeits=[DeclaredForfeit(f.kind, f.round, f.white, f.black) for f in team_forfeits(trf)],
        byes={
            (r.round, team): r.kind
            for r in trf.records
            if isinstance(r, ByesRecord)
            for team in r.players
        },
        adjustments=[
            Adjustment(a.kind, a.match_points, a.points, a.round, a.ids)
            for a in abnormal_points(trf)
        ],
    )
    return source, teams


def team_tournament_from_trf(trf: TrfFile) -> TeamTournament:
    """Aggregate the member games of ``trf`` into team rounds."""
    source, teams = team_source_from_trf(trf)
    entries = team_histories(source)
    total = max(trf.total_rounds or 0, source.rounds_played + 1)
    return TeamTournament(
        entries, tuple(teams), source.rounds_played, total, source.boards, board_sequence(trf)
    )


def _played_rounds(trf: TrfFile, players: dict[int, PlayerRecord]) -> int:
    """The last round in which some member has an opponent or a PAB (or a 330 forfeit)."""
    last = 0
    for player in players.values():
        for k, entry in enumerate(player.rounds, start=1):
            if entry.opponent is not None or entry.result is ResultCode.PAB:
                last = max(last, k)
    for forfeit in team_forfeits(trf):
        last = max(last, forfeit.round)
    pab = team_pab(trf)
    if pab is not None:
        for k, team in enumerate(pab.teams, start=1):
            if team is not None:
                last = max(last, k)
    return last


def _inferred_pabs(
    teams: Sequence[TeamRoster], players: dict[int, PlayerRecord], rounds: int
) -> dict[int, int]:
    """Without ``320``: the team PAB of a round is the one team nobody paired when the
    teams are odd in number (TRF16 files write its members as ``0000 - -``)."""
    found: dict[int, int] = {}
    if len(teams) % 2 == 0:
        return found
    for k in range(1, rounds + 1):
        unpaired = [
            t.number
            for t in teams
            if not any(
                m in players
                and len(players[m].rounds) >= k
                and players[m].rounds[k - 1].opponent is not None
                for m in t.members
            )
        ]
        if len(unpaired) == 1:
            found[k] = unpaired[0]
    return found


def _boards(teams: Sequence[TeamRoster], players: dict[int, PlayerRecord], rounds: int) -> int:
    """Boards per match: the most members of a team with a game in one round (else 1)."""
    most = 0
    for team in teams:
        for k in range(1, rounds + 1):
            count = sum(
                1
                for m in team.members
                if m in players
                and len(players[m].rounds) >= k
                and players[m].rounds[k - 1].opponent is not None
            )
            most = max(most, count)
    return most or max((len(t.members) for t in teams), default=1)


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
    records = [r for r in trf.records if isinstance(r, AccelerationRecord)]
    if not records:
        return tuple(teams)
    out = []
    for team in teams:
        accelerations = [(Decimal(0), Decimal(0))] * total
        for r in records:
            if r.first_player <= team.number <= r.last_player:
                for k in range(r.first_round, min(r.last_round, total) + 1):
                    accelerations[k - 1] = (r.match_points or Decimal(0), r.game_points)
        out.append(team.model_copy(update={"accelerations": tuple(accelerations)}))
    return tuple(out)
