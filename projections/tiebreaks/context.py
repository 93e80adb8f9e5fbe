"""Per-player round data that every tie-break reads, built once per standings computation.

A tie-break never walks the state itself: `build_context` turns each player's rounds into
`RoundView`s (what happened, against whom, with which colour, for how many points) and the
tie-break functions only read those, so a chain of five tie-breaks over 1,200 players costs one
pass over the state.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Literal

from decide.state import Pairing, TournamentState
from events.domain import ByeKind, Colour, Outcome, System
from events.scoring import Scoring


class RoundKind(Enum):
    """What a round was for one player (C.07 art. 16.2 categories, plus a played game)."""

    GAME = "game"  # played over the board (also games of less than one move)
    PENDING = "pending"  # paired, no result yet
    FORFEIT_WIN = "forfeit_win"
    FORFEIT_LOSS = "forfeit_loss"  # also each side of a double forfeit
    PAB = "pab"  # pairing-allocated bye
    FULL_BYE = "full_bye"
    HALF_BYE = "half_bye"
    ZERO_BYE = "zero_bye"  # also absence, rounds after withdrawal or before a late entry


_BYE_KINDS = {
    ByeKind.PAIRING: RoundKind.PAB,
    ByeKind.FULL: RoundKind.FULL_BYE,
    ByeKind.HALF: RoundKind.HALF_BYE,
    ByeKind.ZERO: RoundKind.ZERO_BYE,
}

# Rounds a participant did not play by his own doing (C.07 16.2.5): they count as draws for his
# opponents once nothing but such rounds follow, and are cut first.
_VOLUNTARY = frozenset(
    {RoundKind.HALF_BYE, RoundKind.ZERO_BYE, RoundKind.FORFEIT_LOSS, RoundKind.PENDING}
)

VirtualOpponent = Literal["c07", "kallithea"]
Retirements = Literal["none", "trend", "trend70"]


@dataclass(frozen=True, slots=True)
class GoParams:
    """OpenGotha placement parameters (pairing.md 4.1, 4.10); ranks as 30k = -30 ... 1d = 0.

    Bye and absence values are in points (OpenGotha keeps them doubled); `round_down` rounds
    the cumulative bye/absence bonus down to a whole point. `smms_correction` holds per-player
    manual offsets such as a super bar.
    """

    floor: int = -20  # 20k
    bar: int = 3  # 4d
    nbw_bye: float = 1.0
    nbw_absent: float = 0.0
    mms_bye: float = 1.0
    mms_absent: float = 0.5
    round_down: bool = True
    smms_correction: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True, slots=True)
class CarromParams:
    """SoL's bucholz treatment of players who retired (pairing.md 6.3)."""

    retirements: Retirements = "none"
    phantom_score: float = 25.0  # netscore of a win against the phantom (the PAB)


@dataclass(frozen=True, slots=True)
class TiebreakOptions:
    """Tunables of the tie-break computation.

    `unrated_rating` is the rating given to unrated players in rating-based tie-breaks (a
    `/Unnnn` modifier overrides it); with None, those tie-breaks are undefined for everyone as
    soon as one participant is unrated. `virtual_opponent` chooses how a participant's own
    unplayed rounds enter Buchholz-type sums: "c07" (C.07 2023: a dummy opponent with the
    participant's own final score) or "kallithea" (FIDE 2009: a virtual opponent with the
    participant's score before the round, the reverse result, and a draw in each later round).
    """

    unrated_rating: int | None = None
    virtual_opponent: VirtualOpponent = "c07"
    go: GoParams = field(default_factory=GoParams)
    carrom: CarromParams = field(default_factory=CarromParams)


@dataclass(frozen=True, slots=True)
class RoundView:
    round: int
    kind: RoundKind
    opponent: int | None  # also set for forfeits: the scheduled opponent
    colour: Colour | None  # None for a round without a game
    points: float
    handicap: int = 0  # go: stones black received on this board
    scores: tuple[float, float] | None = None  # own and opponent's discs / points / margin

    @property
    def played(self) -> bool:
        return self.kind is RoundKind.GAME

    @property
    def voluntary(self) -> bool:
        """A voluntarily unplayed round (VUR)."""
        return self.kind in _VOLUNTARY


@dataclass(slots=True)
class PlayerRounds:
    player: int
    rating: int | None
    rank: str | None  # go rank such as "3d" or "15k"
    rounds: list[RoundView]
    points: float
    last_not_voluntary: int = 0  # last round that is not a VUR (C.07 16.3)
    withdrawn_from: int | None = None


@dataclass(slots=True)
class TiebreakContext:
    """Everything the tie-break functions read, for standings after round `through`."""

    through: int
    total_rounds: int
    scoring: Scoring
    round_robin: bool
    options: TiebreakOptions
    players: dict[int, PlayerRounds]
    cache: dict[str, dict[int, float]] = field(default_factory=dict)

    @property
    def win(self) -> float:
        return self.scoring.win

    @property
    def draw(self) -> float:
        return self.scoring.draw


def _view(state: TournamentState, p: Pairing) -> RoundView:
    points = p.points or 0.0
    if p.opponent is None:
        kind = _BYE_KINDS[p.bye or ByeKind.ZERO]
        return RoundView(p.round, kind, None, None, points)
    colour = p.colour
    outcome = p.outcome
    if outcome is None or not outcome.is_known:
        kind = RoundKind.PENDING
    elif outcome is Outcome.DOUBLE_FORFEIT:
        kind = RoundKind.FORFEIT_LOSS
    elif outcome.is_forfeit:
        white_won = outcome is Outcome.WHITE_WINS_FORFEIT
        kind = (
            RoundKind.FORFEIT_WIN
            if white_won == (colour is Colour.WHITE)
            else RoundKind.FORFEIT_LOSS
        )
    else:
        kind = RoundKind.GAME
    board = state.rounds[p.round].board(p.board) if p.board is not None else None
    if board is None:
        return RoundView(p.round, kind, p.opponent, colour, points)
    scores = board.scores(colour is Colour.WHITE)
    return RoundView(p.round, kind, p.opponent, colour, points, board.handicap, scores)


def options_for(state: TournamentState) -> TiebreakOptions:
    """Default options, with the Mac-Mahon floor and bar the tournament was created with."""
    settings = state.settings.pairing_params.go
    floor, bar = settings.mm_floor, settings.mm_bar
    if floor is None and bar is None:
        return TiebreakOptions()
    default = GoParams()
    go = GoParams(
        floor=default.floor if floor is None else floor,
        bar=default.bar if bar is None else bar,
    )
    return TiebreakOptions(go=go)


def build_context(
    state: TournamentState, through: int, options: TiebreakOptions | None = None
) -> TiebreakContext:
    players: dict[int, PlayerRounds] = {}
    for pid, player in state.players.items():
        views = [_view(state, p) for p in state.pairings(pid, through)]
        last = max((v.round for v in views if not v.voluntary), default=0)
        players[pid] = PlayerRounds(
            pid,
            player.rating,
            player.rank,
            views,
            sum(v.points for v in views),
            last_not_voluntary=last,
            withdrawn_from=player.withdrawn_from,
        )
    return TiebreakContext(
        through=through,
        total_rounds=max(state.total_rounds, through),
        scoring=state.scoring,
        round_robin=state.system is System.ROUNDROBIN,
        options=options or options_for(state),
        players=players,
    )
