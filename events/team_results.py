"""Team rounds from board results: the one place that turns member games into team matches.

Per team and round (C.04.6 1.4-1.6 and the TRF-2026 team records):

* the opponent team is the team of any member's opponent; game points are the sum of the
  members' points under the individual scoring (a board won by forfeit inside a match counts
  as a win);
* the match was played when a board was played over the board; its colour is board 1's (the
  first member, in line-up order, with a colour that round);
* match points compare the two teams' game points (record ``362``: 2 / 1 / 0 by default); a
  match without a game is a forfeit (a declared forfeited match says who won, else the game
  points do);
* a round without an opponent is the team PAB (board 1 ``U``, or the round's declared PAB:
  the ``320`` values, default a drawn match), or a full, half or zero-point bye;
* ``299`` overrides the match and game points of a type of round; a blank type adds to them.

Callers (`pipelines.engines.team_from_trf`, the live tournament) fill a `TeamSource`; both
reach the same `TeamEntry` histories, which the team Swiss and the team standings read.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal
from enum import StrEnum

from events.domain import Colour
from events.history import HistoryEntry, entry_points
from events.history import Scoring as BoardScoring
from events.result_codes import ResultCode

__all__ = [
    "DEFAULT_CHAIN",
    "TEAM_TIEBREAKS",
    "Acceleration",
    "Adjustment",
    "BoardScoring",
    "DeclaredForfeit",
    "HistoryEntry",
    "MatchKind",
    "MatchScoring",
    "Roster",
    "TeamEntry",
    "TeamHistory",
    "TeamSource",
    "accelerate",
    "board_points",
    "team_histories",
]


TEAM_TIEBREAKS = ("MP", "GP", "BH:MP", "BH:GP", "EMMSB", "EMGSB", "EGMSB", "EGGSB", "DE", "WON")
DEFAULT_CHAIN = ("GP", "EGGSB", "BH:MP")
"""The team tie-break chain after match points: game points, EGGSB, Buchholz on match points
(as the Greek team events published in chess/real/ rank)."""


class MatchKind(StrEnum):
    """How a team's round went (the `299` type letters where one exists)."""

    WIN = "W"
    DRAW = "D"
    LOSS = "L"
    FORFEIT_WIN = "+"
    FORFEIT_LOSS = "-"
    PAB = "U"
    FULL_BYE = "F"
    HALF_BYE = "H"
    ZERO_BYE = "Z"

    @property
    def played(self) -> bool:
        """Over the board (C.04.6 1.6.1: only these count for colours)."""
        return self in (MatchKind.WIN, MatchKind.DRAW, MatchKind.LOSS)

    @property
    def blocks_pab(self) -> bool:
        """C.04.6 2.1.2 [C2]: a PAB, a forfeit win or a full-point bye bars a further PAB."""
        return self in (MatchKind.PAB, MatchKind.FORFEIT_WIN, MatchKind.FULL_BYE)


@dataclass(frozen=True, slots=True, kw_only=True)
class TeamHistory:
    """One round of a team (a plain frozen dataclass, not a pydantic model: the team Swiss
    reads it from a file without loading pydantic, start-up)."""

    kind: MatchKind
    opponent: int | None = None
    """The opponent's team pairing number (forfeits included); None for byes."""
    colour: Colour = Colour.NONE
    """Board 1's colour, only when the match was played."""
    match_points: Decimal = Decimal(0)
    game_points: Decimal = Decimal(0)


@dataclass(frozen=True, slots=True, kw_only=True)
class TeamEntry:
    """A team: its pairing number (TPN) and its history."""

    number: int
    """1 or more."""
    name: str = ""
    history: tuple[TeamHistory, ...] = ()
    accelerations: tuple[tuple[Decimal, Decimal], ...] = ()
    """Fictitious (match points, game points) per round, index 0 = round 1 (record 250)."""

    def __post_init__(self) -> None:
        if self.number < 1:
            raise ValueError(f"team pairing number {self.number}: must be 1 or more")


_BLANK = HistoryEntry(opponent=None, colour=Colour.NONE, result=ResultCode.BLANK)
_BYE_KIND = {"F": MatchKind.FULL_BYE, "H": MatchKind.HALF_BYE, "Z": MatchKind.ZERO_BYE}


@dataclass(frozen=True)
class Roster:
    """A team's pairing number, name and members in board order; line-ups per round."""

    number: int
    name: str
    members: tuple[int, ...]
    lineups: Mapping[int, tuple[int, ...]] = field(default_factory=dict)

    def order(self, round_no: int) -> tuple[int, ...]:
        """Who counts as board 1, 2, … in a round: its line-up, then the roster."""
        lineup = self.lineups.get(round_no, ())
        return (*lineup, *(m for m in self.members if m not in lineup))


@dataclass(frozen=True)
class MatchScoring:
    """Match points of a won, drawn, lost match (``362``) and of the team PAB (``320``)."""

    win: Decimal = Decimal(2)
    draw: Decimal = Decimal(1)
    loss: Decimal = Decimal(0)
    pab_match_points: Decimal | None = None
    """None: a drawn match (C.04.6 1.4)."""
    pab_game_points: Decimal | None = None
    """None: every board drawn."""


@dataclass(frozen=True)
class DeclaredForfeit:
    """A forfeited match (``330``): ``+-`` the white team wins, ``-+``, ``--``."""

    kind: str
    round: int
    white: int
    black: int


@dataclass(frozen=True)
class Acceleration:
    """Fictitious points (``250``) for teams ``first_team..last_team`` in rounds
    ``first_round..last_round``; match points None counts as 0."""

    match_points: Decimal | None
    game_points: Decimal
    first_round: int
    last_round: int
    first_team: int
    last_team: int


def accelerate(
    teams: Sequence[TeamEntry], accelerations: Sequence[Acceleration], total_rounds: int
) -> tuple[TeamEntry, ...]:
    """The teams with their fictitious points per round; a later record of the same round and
    team replaces an earlier one.

    >>> a = Acceleration(Decimal(1), Decimal("0.5"), 1, 2, 1, 1)
    >>> first, second = accelerate([TeamEntry(number=1), TeamEntry(number=2)], [a], 3)
    >>> first.accelerations[1:], second.accelerations
    (((Decimal('1'), Decimal('0.5')), (Decimal('0'), Decimal('0'))), ())
    """
    if not accelerations:
        return tuple(teams)
    out = []
    for team in teams:
        points = [(Decimal(0), Decimal(0))] * total_rounds
        touched = False
        for a in accelerations:
            if a.first_team <= team.number <= a.last_team:
                for k in range(a.first_round, min(a.last_round, total_rounds) + 1):
                    points[k - 1] = (a.match_points or Decimal(0), a.game_points)
                    touched = True
        out.append(replace(team, accelerations=tuple(points)) if touched else team)
    return tuple(out)


@dataclass(frozen=True)
class Adjustment:
    """Abnormal points (``299``): a type letter (blank: added), values, round, teams."""

    kind: str
    match_points: Decimal | None
    game_points: Decimal | None
    round: int | None = None
    teams: tuple[int, ...] = ()


@dataclass(frozen=True)
class TeamSource:
    """What the aggregation reads: rosters, every member's rounds, and the team records."""

    rosters: Sequence[Roster]
    rounds_of: Mapping[int, Sequence[HistoryEntry]]
    """Member player number → its rounds (index 0 = round 1)."""
    rounds_played: int
    boards: int
    scoring: BoardScoring = field(default_factory=BoardScoring)
    match_scoring: MatchScoring = field(default_factory=MatchScoring)
    pab_teams: Mapping[int, int] = field(default_factory=dict)
    """Round → the team that had the PAB (``320``)."""
    forfeits: Sequence[DeclaredForfeit] = ()
    byes: Mapping[tuple[int, int], str] = field(default_factory=dict)
    """(round, team) → requested bye type ``F``/``H``/``Z`` (``240``)."""
    adjustments: Sequence[Adjustment] = ()


def board_points(entry: HistoryEntry, scoring: BoardScoring, in_match: bool) -> Decimal:
    """A member's points in a round; a board won without an opponent inside a match is a win.

    >>> entry = HistoryEntry(opponent=None, result=ResultCode.FORFEIT_WIN)
    >>> board_points(entry, BoardScoring(), True)
    Decimal('1')
    """
    if entry.result is ResultCode.BLANK:
        return Decimal(0)
    if in_match and entry.opponent is None and entry.result in _WON_WITHOUT_GAME:
        return scoring.win
    return entry_points(entry, scoring)


_WON_WITHOUT_GAME = (ResultCode.FORFEIT_WIN, ResultCode.FULL_BYE, ResultCode.PAB)


@dataclass(frozen=True)
class _Raw:
    opponent: int | None
    game_points: Decimal
    played: bool
    colour: Colour
    code: ResultCode


def team_histories(source: TeamSource) -> tuple[TeamEntry, ...]:
    """Every team's rounds 1..``rounds_played`` (module docstring)."""
    return _Aggregation(source).entries()


class _Aggregation:
    def __init__(self, source: TeamSource) -> None:
        self.source = source
        self.rosters = {r.number: r for r in source.rosters}
        self.team_of = {m: r.number for r in source.rosters for m in r.members}
        self.forfeits = {(f.round, f.white): f for f in source.forfeits} | {
            (f.round, f.black): f for f in source.forfeits
        }
        self._raw: dict[tuple[int, int], _Raw] = {}

    def entries(self) -> tuple[TeamEntry, ...]:
        played = self.source.rounds_played
        return tuple(
            TeamEntry(
                number=r.number,
                name=r.name,
                history=tuple(self.round(r.number, k) for k in range(1, played + 1)),
            )
            for r in sorted(self.source.rosters, key=lambda r: r.number)
        )

    def member_entry(self, member: int, k: int) -> HistoryEntry:
        rounds = self.source.rounds_of.get(member, ())
        return rounds[k - 1] if len(rounds) >= k else _BLANK

    def raw(self, team: int, k: int) -> _Raw:
        key = (team, k)
        if key not in self._raw:
            self._raw[key] = self._aggregate(team, k)
        return self._raw[key]

    def _aggregate(self, team: int, k: int) -> _Raw:
        entries = [self.member_entry(m, k) for m in self.rosters[team].order(k)]
        opponent = next(
            (self.team_of[e.opponent] for e in entries if e.opponent in self.team_of), None
        )
        points = sum(
            (board_points(e, self.source.scoring, opponent is not None) for e in entries),
            Decimal(0),
        )
        played = any(e.result.is_played_game and e.opponent is not None for e in entries)
        first = next((e for e in entries if e.colour is not Colour.NONE), None)
        if first is None:
            first = next((e for e in entries if e.result is not ResultCode.BLANK), _BLANK)
        colour = first.colour if played else Colour.NONE
        return _Raw(opponent, points, played, colour, first.result)

    def round(self, team: int, k: int) -> TeamHistory:
        raw = self.raw(team, k)
        ms = self.source.match_scoring
        forfeit = self.forfeits.get((k, team))
        bye = self.source.byes.get((k, team))
        if forfeit is not None:
            white = forfeit.white == team
            won = forfeit.kind[0 if white else 1] == "+"
            other = forfeit.black if white else forfeit.white
            gp = self.source.scoring.win * self.source.boards if won else raw.game_points
            record = TeamHistory(
                kind=MatchKind.FORFEIT_WIN if won else MatchKind.FORFEIT_LOSS,
                opponent=other if other in self.rosters else None,
                match_points=ms.win if won else ms.loss,
                game_points=gp,
            )
        elif bye in _BYE_KIND:
            kind = _BYE_KIND[bye]
            mp = {MatchKind.FULL_BYE: ms.win, MatchKind.HALF_BYE: ms.draw}.get(kind, ms.loss)
            record = TeamHistory(kind=kind, match_points=mp, game_points=raw.game_points)
        elif raw.opponent is None:
            record = self._bye(team, k, raw)
        else:
            record = self._match(raw, self.raw(raw.opponent, k))
        return self._adjust(record, team, k)

    def _match(self, mine: _Raw, theirs: _Raw) -> TeamHistory:
        ms = self.source.match_scoring
        gp, other = mine.game_points, theirs.game_points
        if mine.played:
            kind = MatchKind.WIN if gp > other else MatchKind.LOSS if gp < other else MatchKind.DRAW
        else:
            kind = MatchKind.FORFEIT_WIN if gp > other else MatchKind.FORFEIT_LOSS
        mp = {
            MatchKind.WIN: ms.win,
            MatchKind.DRAW: ms.draw,
            MatchKind.FORFEIT_WIN: ms.win,
        }.get(kind, ms.loss)
        return TeamHistory(
            kind=kind, opponent=mine.opponent, colour=mine.colour, match_points=mp, game_points=gp
        )

    def _bye(self, team: int, k: int, raw: _Raw) -> TeamHistory:
        ms = self.source.match_scoring
        if raw.code is ResultCode.PAB or self.source.pab_teams.get(k) == team:
            mp = ms.draw if ms.pab_match_points is None else ms.pab_match_points
            gp = ms.pab_game_points
            if gp is None:
                gp = self.source.scoring.draw * self.source.boards
            return TeamHistory(kind=MatchKind.PAB, match_points=mp, game_points=gp)
        if raw.code in (ResultCode.FULL_BYE, ResultCode.FORFEIT_WIN):
            kind, mp = MatchKind.FULL_BYE, ms.win
        elif raw.code in (ResultCode.HALF_BYE, ResultCode.DRAW):
            kind, mp = MatchKind.HALF_BYE, ms.draw
        else:
            kind, mp = MatchKind.ZERO_BYE, ms.loss
        return TeamHistory(kind=kind, match_points=mp, game_points=raw.game_points)

    def _adjust(self, record: TeamHistory, team: int, k: int) -> TeamHistory:
        def applies(a: Adjustment) -> bool:
            return (a.round is None or a.round == k) and (not a.teams or team in a.teams)

        mp, gp = record.match_points, record.game_points
        best = -1
        for a in self.source.adjustments:
            if a.kind != record.kind.value or not applies(a):
                continue
            specificity = (2 if a.teams else 0) + (1 if a.round is not None else 0)
            if specificity >= best:
                best = specificity
                mp = a.match_points if a.match_points is not None else mp
                gp = a.game_points if a.game_points is not None else gp
        for a in self.source.adjustments:
            if a.kind == " " and applies(a):
                mp += a.match_points or 0
                gp += a.game_points or 0
        if (mp, gp) == (record.match_points, record.game_points):
            return record
        return replace(record, match_points=mp, game_points=gp)
