"""Build the team tournament of a TRF file: each team's rounds aggregated from its boards.

Per team and round (C.04.6 1.6.1 and the TRF-2026 team records):

* the opponent team is the team of any member's opponent; game points are the sum of the
  members' points under the file's individual scoring (``162``);
* the match was played when a board was played over the board; its colour is board 1's (the
  first member, in roster order, with a game that round);
* match points compare the two teams' game points (``362``: 2 / 1 / 0 by default); a match
  without a game is a forfeit (``330`` says which side won, else the game points do);
* a round without an opponent is the team PAB (board 1 ``U``; ``320`` values, default a drawn
  match), or a full, half or zero-point bye (``240`` for the teams, else board 1's code);
* ``299`` overrides the match and game points of a type of round, a blank type adds to them.

The round to pair is the first no team was paired in; ``240`` records of that round are
requested byes, ``260`` prohibited pairs (team numbers), ``250`` acceleration.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from events.domain import Colour
from events.result_codes import ResultCode
from ingest.errors import IngestError
from ingest.trf import (
    AccelerationRecord,
    ByesRecord,
    ForbiddenPairsRecord,
    PlayerRecord,
    RoundEntry,
    TrfFile,
)
from ingest.trf.teams import (
    AbnormalPoints,
    TeamRoster,
    abnormal_points,
    board_sequence,
    rosters,
    team_config,
    team_forfeits,
    team_pab,
    team_scoring,
)
from pairing.swiss.model import HistoryEntry
from pairing.team.model import (
    ColourType,
    MatchKind,
    PrimaryScore,
    TeamEntry,
    TeamHistory,
    TeamSwissInput,
)
from pipelines.swiss_from_trf import _scoring, entry_points

__all__ = ["TeamTournament", "team_input_from_trf", "team_tournament_from_trf"]

_BLANK = RoundEntry(None, Colour.NONE, ResultCode.BLANK)
_BYE_KIND = {"F": MatchKind.FULL_BYE, "H": MatchKind.HALF_BYE, "Z": MatchKind.ZERO_BYE}


@dataclass(frozen=True)
class TeamTournament:
    """A TRF file read as a team tournament."""

    teams: tuple[TeamEntry, ...]
    rosters: tuple[TeamRoster, ...]
    rounds_played: int
    total_rounds: int
    boards: int
    board_sequence: str | None


def _entry(player: PlayerRecord | None, round_no: int) -> RoundEntry:
    if player is None or len(player.rounds) < round_no:
        return _BLANK
    return player.rounds[round_no - 1]


def _has_entry(entry: RoundEntry) -> bool:
    return entry.opponent is not None or entry.result is not ResultCode.BLANK


def team_tournament_from_trf(trf: TrfFile) -> TeamTournament:
    """Aggregate the member games of ``trf`` into team rounds (module docstring)."""
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
    team_of: dict[int, int] = {}
    for team in teams:
        for member in team.members:
            team_of[member] = team.number
    played_rounds = _played_rounds(trf, players)
    sequence = board_sequence(trf)
    boards = len(sequence) if sequence else _boards(teams, players, played_rounds)
    builder = _Builder(trf, teams, players, team_of, boards)
    entries = tuple(builder.team(t, played_rounds) for t in teams)
    total = max(trf.total_rounds or 0, played_rounds + 1)
    return TeamTournament(entries, tuple(teams), played_rounds, total, boards, sequence)


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


def _boards(teams: Sequence[TeamRoster], players: dict[int, PlayerRecord], rounds: int) -> int:
    """Boards per match: the most members of a team with a game in one round (else 1)."""
    most = 0
    for team in teams:
        for k in range(1, rounds + 1):
            count = sum(1 for m in team.members if _entry(players.get(m), k).opponent is not None)
            most = max(most, count)
    return most or max((len(t.members) for t in teams), default=1)


class _Builder:
    def __init__(
        self,
        trf: TrfFile,
        teams: Sequence[TeamRoster],
        players: dict[int, PlayerRecord],
        team_of: dict[int, int],
        boards: int,
    ) -> None:
        self.trf = trf
        self.players = players
        self.team_of = team_of
        self.boards = boards
        self.rosters = {t.number: t for t in teams}
        self.scoring = _scoring(trf)
        self.match_scoring = team_scoring(trf)
        self.pab = team_pab(trf)
        self.forfeits = {(f.round, f.white): f for f in team_forfeits(trf)} | {
            (f.round, f.black): f for f in team_forfeits(trf)
        }
        self.byes = {
            (r.round, team): r.kind
            for r in trf.records
            if isinstance(r, ByesRecord)
            for team in r.players
        }
        self.abnormal = abnormal_points(trf)
        self._raw: dict[tuple[int, int], tuple[int | None, Decimal, bool, Colour, str]] = {}

    def raw(self, team: int, k: int) -> tuple[int | None, Decimal, bool, Colour, str]:
        """(opponent team, game points, played over the board, board-1 colour, board-1 code)."""
        key = (team, k)
        if key not in self._raw:
            self._raw[key] = self._aggregate(team, k)
        return self._raw[key]

    def _aggregate(self, team: int, k: int) -> tuple[int | None, Decimal, bool, Colour, str]:
        members = self.rosters[team].members
        entries = [_entry(self.players.get(m), k) for m in members]
        opponent = next(
            (self.team_of[e.opponent] for e in entries if e.opponent in self.team_of), None
        )
        points = Decimal(0)
        for entry in entries:
            if (
                opponent is not None
                and entry.opponent is None
                and entry.result in (ResultCode.FORFEIT_WIN, ResultCode.PAB, ResultCode.FULL_BYE)
            ):
                points += self.scoring.win  # a board won by forfeit inside a match
            elif _has_entry(entry):
                history = HistoryEntry(
                    opponent=entry.opponent, colour=entry.colour, result=entry.result
                )
                points += entry_points(history, self.scoring)
        played = any(e.result.is_played_game and e.opponent is not None for e in entries)
        first = next((e for e in entries if e.colour is not Colour.NONE), None)
        if first is None:
            first = next((e for e in entries if _has_entry(e)), _BLANK)
        colour = first.colour if played else Colour.NONE
        return opponent, points, played, colour, first.result.value

    def team(self, roster: TeamRoster, rounds: int) -> TeamEntry:
        history = tuple(self.round(roster.number, k) for k in range(1, rounds + 1))
        return TeamEntry(number=roster.number, name=roster.name, history=history)

    def round(self, team: int, k: int) -> TeamHistory:
        opponent, gp, played, colour, code = self.raw(team, k)
        ms = self.match_scoring
        forfeit = self.forfeits.get((k, team))
        bye = self.byes.get((k, team))
        if forfeit is not None:
            white = forfeit.white == team
            won = forfeit.kind[0 if white else 1] == "+"
            other = forfeit.black if white else forfeit.white
            kind = MatchKind.FORFEIT_WIN if won else MatchKind.FORFEIT_LOSS
            opponent = other if other in self.rosters else None
            if won:
                gp = self.scoring.win * self.boards
            record = TeamHistory(
                kind=kind,
                opponent=opponent,
                match_points=ms.win if won else ms.loss,
                game_points=gp,
            )
        elif bye in _BYE_KIND:
            kind = _BYE_KIND[bye]
            mp = {MatchKind.FULL_BYE: ms.win, MatchKind.HALF_BYE: ms.draw}.get(kind, ms.loss)
            record = TeamHistory(kind=kind, match_points=mp, game_points=gp)
        elif opponent is None:
            record = self._bye(team, k, code, gp)
        else:
            _, their_gp, _, _, _ = self.raw(opponent, k)
            if played:
                kind = (
                    MatchKind.WIN
                    if gp > their_gp
                    else MatchKind.LOSS
                    if gp < their_gp
                    else MatchKind.DRAW
                )
                mp = {MatchKind.WIN: ms.win, MatchKind.DRAW: ms.draw}.get(kind, ms.loss)
            else:
                won = gp > their_gp
                kind = MatchKind.FORFEIT_WIN if won else MatchKind.FORFEIT_LOSS
                mp = ms.win if won else ms.loss
            record = TeamHistory(
                kind=kind, opponent=opponent, colour=colour, match_points=mp, game_points=gp
            )
        return self._abnormal(record, team, k)

    def _bye(self, team: int, k: int, code: str, gp: Decimal) -> TeamHistory:
        ms = self.match_scoring
        pab_round = (
            self.pab is not None and len(self.pab.teams) >= k and self.pab.teams[k - 1] == team
        )
        if code == ResultCode.PAB.value or pab_round:
            mp = ms.draw
            pab_gp = self.scoring.draw * self.boards
            if self.pab is not None:
                mp = self.pab.match_points if self.pab.match_points is not None else mp
                pab_gp = self.pab.game_points if self.pab.game_points is not None else pab_gp
            return TeamHistory(kind=MatchKind.PAB, match_points=mp, game_points=pab_gp)
        if code in (ResultCode.FULL_BYE.value, ResultCode.FORFEIT_WIN.value):
            return TeamHistory(kind=MatchKind.FULL_BYE, match_points=ms.win, game_points=gp)
        if code in (ResultCode.HALF_BYE.value, ResultCode.DRAW.value):
            return TeamHistory(kind=MatchKind.HALF_BYE, match_points=ms.draw, game_points=gp)
        return TeamHistory(kind=MatchKind.ZERO_BYE, match_points=ms.loss, game_points=gp)

    def _abnormal(self, record: TeamHistory, team: int, k: int) -> TeamHistory:
        def applies(a: AbnormalPoints) -> bool:
            return (a.round is None or a.round == k) and (not a.ids or team in a.ids)

        mp, gp = record.match_points, record.game_points
        best = -1
        for a in self.abnormal:
            if a.kind != record.kind.value or not applies(a):
                continue
            specificity = (2 if a.ids else 0) + (1 if a.round is not None else 0)
            if specificity >= best:
                best = specificity
                mp = a.match_points if a.match_points is not None else mp
                gp = a.points if a.points is not None else gp
        for a in self.abnormal:
            if a.kind == " " and applies(a):
                mp += a.match_points or 0
                gp += a.points or 0
        return record.model_copy(update={"match_points": mp, "game_points": gp})


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
