"""Tournament state: a pure fold of a tournament stream's events.

`project(events)` builds a fresh state and never touches the store; the same events always give
the same state. `at_round=N` replays the tournament as it stood after round N: the stream is cut
at the pairing of round N+1, except that later result corrections of rounds <= N still apply.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Literal

from events.domain import Board, ByeKind, Colour, Game, Outcome, System
from events.go import MIN_RANK, RankError, parse_rank
from events.prizes import PrizeTable
from events.registration import Entry
from events.schema import (
    RATING_CLEARED,
    BoardsSwapped,
    ByeGranted,
    CheckedIn,
    Event,
    PairForbidden,
    PlayerReentered,
    PlayerRegistered,
    PlayerRemoved,
    PlayerUpdated,
    PlayerWithdrawn,
    PrizesSet,
    RegistrationApproved,
    RegistrationDeclined,
    RegistrationRequested,
    ResultCorrected,
    ResultRecorded,
    RoundPaired,
    TiebreaksChanged,
    TournamentCreated,
    TournamentEdited,
)
from events.scoring import Scoring


@dataclass(slots=True)
class PlayerState:
    id: int
    name: str
    rating: int | None = None
    federation: str | None = None
    title: str | None = None
    sex: str | None = None
    birth: str | None = None
    club: str | None = None
    rank: str | None = None
    aga_rating: float | None = None
    fide_id: str | None = None
    ids: dict[str, str] = field(default_factory=dict)
    pairing_number: int | None = None
    withdrawn_from: int | None = None
    late_from: int | None = None
    """A late entry: the first round that was not yet paired when the player registered."""
    paid: bool | None = None
    """Entry fee paid (None: not recorded)."""
    checked_in: bool = False
    """Checked in before round 1 (matters when the event has a check-in window)."""

    def active_in(self, round_no: int) -> bool:
        return self.withdrawn_from is None or round_no < self.withdrawn_from


@dataclass(slots=True)
class BoardState:
    board: int
    white: int
    black: int | None
    handicap: int = 0
    komi: float | None = None
    outcome: Outcome | None = None  # None: no result recorded yet
    white_score: float | None = None
    black_score: float | None = None
    how: str | None = None  # go: won by resignation (R) or on time (T)

    @property
    def is_bye(self) -> bool:
        return self.black is None

    @property
    def has_result(self) -> bool:
        """A bye needs no result; a game needs a known outcome."""
        return self.black is None or (self.outcome is not None and self.outcome.is_known)

    def scores(self, white: bool) -> tuple[float, float] | None:
        """Own and opponent's board score (discs, points, margin) for one side, when recorded."""
        if self.white_score is None or self.black_score is None:
            return None
        if white:
            return self.white_score, self.black_score
        return self.black_score, self.white_score


@dataclass(slots=True)
class RoundState:
    number: int
    boards: list[BoardState]
    by_player: dict[int, BoardState] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.by_player = {}
        for b in self.boards:
            self.by_player[b.white] = b
            if b.black is not None:
                self.by_player[b.black] = b

    def board(self, number: int) -> BoardState | None:
        if 1 <= number <= len(self.boards) and self.boards[number - 1].board == number:
            return self.boards[number - 1]
        return next((b for b in self.boards if b.board == number), None)


def _rank_value(rank: str | None) -> int:
    """Go rank as an integer for ordering (higher is stronger); unranked players last."""
    if rank is None:
        return MIN_RANK - 1
    try:
        return parse_rank(rank)
    except RankError:
        return MIN_RANK - 1


@dataclass(frozen=True, slots=True)
class Pairing:
    """One player's round as seen from that player: a game, a bye, or nothing."""

    round: int
    opponent: int | None
    colour: Colour | None  # None for a bye or absence
    points: float | None  # None while the game has no result
    outcome: Outcome | None = None
    bye: ByeKind | None = None
    board: int | None = None

    @property
    def played(self) -> bool:
        """A game actually played over the board (not a forfeit, bye or absence)."""
        return (
            self.opponent is not None
            and self.outcome is not None
            and self.outcome.is_known
            and not self.outcome.is_forfeit
        )


@dataclass(slots=True)
class RequestState:
    """A self-registration: waiting, approved (as player ``player``) or declined."""

    request: int
    entry: Entry
    status: Literal["waiting", "approved", "declined"] = "waiting"
    player: int | None = None
    reason: str | None = None


@dataclass(slots=True)
class TournamentState:
    settings: TournamentCreated
    tiebreaks: tuple[str, ...]
    players: dict[int, PlayerState] = field(default_factory=dict)
    rounds: dict[int, RoundState] = field(default_factory=dict)
    byes: dict[int, dict[int, ByeKind]] = field(default_factory=dict)  # round -> player -> kind
    removed: set[int] = field(default_factory=set)
    """Ids of registrations taken back (never given again)."""
    forbidden: dict[frozenset[int], int] = field(default_factory=dict)
    """Pairs of players who must never meet (`arbiter forbid`) -> first round it applies to."""
    prizes: PrizeTable | None = None
    """The prize list (`arbiter prizes T set`), the latest one set; immutable."""
    requests: dict[int, RequestState] = field(default_factory=dict)
    """Self-registrations by request number (`RegistrationRequested`)."""
    version: int = -1

    def detached_copy(self) -> TournamentState:
        """A copy that later `evolve` calls on this state leave alone (they replace or mutate
        players, boards, bye maps and the removed and forbidden sets; settings and tie-breaks
        are immutable): ~20x cheaper than deepcopy. A field added above is copied here."""
        return TournamentState(
            settings=self.settings,
            tiebreaks=self.tiebreaks,
            players={pid: copy.copy(p) for pid, p in self.players.items()},
            rounds={
                r: RoundState(r, [copy.copy(b) for b in rs.boards]) for r, rs in self.rounds.items()
            },
            byes={r: dict(kinds) for r, kinds in self.byes.items()},
            removed=set(self.removed),
            forbidden=dict(self.forbidden),
            prizes=self.prizes,
            requests={n: copy.copy(r) for n, r in self.requests.items()},
            version=self.version,
        )

    @property
    def id(self) -> str:
        return self.settings.tournament_id

    @property
    def game(self) -> Game:
        return self.settings.game

    @property
    def system(self) -> System:
        return self.settings.system

    @property
    def has_teams(self) -> bool:
        """Teams take part: a team system, or an individual event with teams (OpenGotha)."""
        return self.system.is_team or self.settings.pairing_params.team.team_boards is not None

    @property
    def scoring(self) -> Scoring:
        return self.settings.scoring

    @property
    def total_rounds(self) -> int:
        return self.settings.rounds * self.settings.cycles

    @property
    def last_round(self) -> int:
        return max(self.rounds, default=0)

    @property
    def complete_round(self) -> int:
        """The last round whose boards, and those of every paired round before it, all have
        their result: what standings are computed after (0 before any round is complete).

        A paired round still lacking a result is *in play*; C.07 reads a round's unplayed
        games only once it is over, so nothing of it may count yet.
        """
        for r in sorted(self.rounds):
            if not all(b.has_result for b in self.rounds[r].boards):
                return r - 1
        return self.last_round

    def start_ranks(self) -> dict[int, int]:
        """Start rank (pairing number) of each player.

        Fixed pairing numbers when every player has one (imported files); else rating
        (descending, go rank first), then name. In chess a late entry (registered after round 1
        was paired) takes the next free number, in order of registration, so that no number
        given out ever changes: the FIDE colour rules read the parity of pairing numbers, and
        a TRF written at the end must re-pair every earlier round as it was paired.
        """
        players = list(self.players.values())
        if players and all(p.pairing_number is not None for p in players):
            ordered = sorted(players, key=lambda p: (p.pairing_number, p.id))
        else:
            late = self.game is Game.CHESS
            ordered = sorted(
                players,
                key=lambda p: (
                    (p.late_from or 0, p.id) if late and p.late_from is not None else (0, 0),
                    -_rank_value(p.rank),
                    -(p.rating or 0),
                    p.name.casefold(),
                    p.id,
                ),
            )
        return {p.id: i for i, p in enumerate(ordered, start=1)}

    def pairings(self, player: int, through_round: int | None = None) -> list[Pairing]:
        """The player's rounds 1..through_round (default: every paired round)."""
        last = self.last_round if through_round is None else through_round
        return [self.pairing(player, r) for r in range(1, last + 1)]

    def pairing(self, player: int, round_no: int) -> Pairing:
        rnd = self.rounds.get(round_no)
        if rnd is not None:
            b = rnd.by_player.get(player)
            if b is not None:
                return self._board_pairing(player, round_no, b)
        kind = self.byes.get(round_no, {}).get(player)
        if kind is not None:
            return Pairing(round_no, None, None, self.scoring.for_bye(kind), bye=kind)
        # Not paired and no bye: absent (counts as a zero-point bye).
        return Pairing(round_no, None, None, 0.0 if rnd is not None else None, bye=ByeKind.ZERO)

    def _board_pairing(self, player: int, round_no: int, b: BoardState) -> Pairing:
        if b.black is None:
            return Pairing(
                round_no,
                None,
                None,
                self.scoring.for_bye(ByeKind.PAIRING),
                bye=ByeKind.PAIRING,
                board=b.board,
            )
        is_white = b.white == player
        points = None
        if b.outcome is not None:
            pts = self.scoring.for_game(b.outcome)
            if pts is not None:
                points = pts[0] if is_white else pts[1]
        return Pairing(
            round_no,
            b.black if is_white else b.white,
            Colour.WHITE if is_white else Colour.BLACK,
            points,
            outcome=b.outcome,
            board=b.board,
        )

    def points(self, player: int, through_round: int | None = None) -> float:
        return sum(p.points or 0.0 for p in self.pairings(player, through_round))


def _apply_result(state: TournamentState, e: ResultRecorded | ResultCorrected) -> None:
    rnd = state.rounds.get(e.round)
    board = rnd.board(e.board) if rnd is not None else None
    if board is None:
        return  # validated by the command that appended it; ignore on replay of odd imports
    board.outcome = e.outcome
    board.white_score = e.white_score
    board.black_score = e.black_score
    board.how = e.how


def _edited(settings: TournamentCreated, e: TournamentEdited) -> TournamentCreated:
    """The event's data after an edit: the fields given replace, round dates merge."""
    update: dict[str, object] = {
        name: value
        for name, value in e.model_dump(exclude={"type", "round_dates", "rating_type"}).items()
        if value is not None
    }
    if e.deputy_arbiters is not None:
        update["deputy_arbiters"] = e.deputy_arbiters
    if e.round_dates:
        update["round_dates"] = {**settings.round_dates, **e.round_dates}
    if e.rating_type is not None:
        params = settings.pairing_params
        rating = params.rating.model_copy(update={"rating_type": e.rating_type})
        update["pairing_params"] = params.model_copy(update={"rating": rating})
    return settings.model_copy(update=update)


def _swap(state: TournamentState, round_no: int, first: int, second: int) -> None:
    """Boards ``first`` and ``second`` exchange their players (white with white)."""
    rnd = state.rounds.get(round_no)
    a = rnd.board(first) if rnd is not None else None
    b = rnd.board(second) if rnd is not None else None
    if rnd is None or a is None or b is None:
        return  # validated by the command that appended it
    a.white, b.white = b.white, a.white
    a.black, b.black = b.black, a.black
    a.handicap, b.handicap = b.handicap, a.handicap
    a.komi, b.komi = b.komi, a.komi
    rnd.__post_init__()


def _board_state(b: Board) -> BoardState:
    return BoardState(b.board, b.white, b.black, b.handicap, b.komi)


def evolve(state: TournamentState | None, event: Event) -> TournamentState:
    """Apply one event. The state is built fresh by `project`, so mutation stays local."""
    if state is None:
        if not isinstance(event, TournamentCreated):
            raise ValueError(f"a tournament stream must start with TournamentCreated: {event.type}")
        return TournamentState(settings=event, tiebreaks=event.tiebreaks, version=0)
    match event:
        case TournamentCreated():
            raise ValueError("TournamentCreated may appear only once in a stream")
        case TiebreaksChanged(tiebreaks=codes):
            state.tiebreaks = codes
        case PlayerRegistered():
            data = event.model_dump(exclude={"type", "player"})
            late = state.last_round + 1 if state.rounds else None
            state.players[event.player] = PlayerState(id=event.player, late_from=late, **data)
        case TournamentEdited():
            state.settings = _edited(state.settings, event)
        case PlayerUpdated():
            p = state.players[event.player]
            for name, value in event.model_dump(exclude={"type", "player", "ids"}).items():
                if value is not None:
                    cleared = value == "" or (name == "rating" and value == RATING_CLEARED)
                    setattr(p, name, None if cleared else value)
            if event.ids:
                p.ids = {**p.ids, **event.ids}
        case PlayerRemoved(player=pid):
            state.players.pop(pid, None)
            state.removed.add(pid)
            for byes in state.byes.values():
                byes.pop(pid, None)
            state.forbidden = {k: r for k, r in state.forbidden.items() if pid not in k}
        case PrizesSet(prizes=table):
            state.prizes = table
        case PairForbidden(players=(a, b), from_round=first):
            state.forbidden.setdefault(frozenset((a, b)), first)
        case BoardsSwapped(round=r, boards=(first, second)):
            _swap(state, r, first, second)
        case PlayerWithdrawn(player=pid, from_round=r):
            state.players[pid].withdrawn_from = r
        case PlayerReentered(player=pid):
            state.players[pid].withdrawn_from = None
        case RegistrationRequested(request=n, entry=entry):
            state.requests[n] = RequestState(n, entry)
        case RegistrationApproved(request=n, player=pid):
            state.requests[n].status, state.requests[n].player = "approved", pid
        case RegistrationDeclined(request=n, reason=reason):
            state.requests[n].status, state.requests[n].reason = "declined", reason
        case CheckedIn(player=pid):
            state.players[pid].checked_in = True
        case ByeGranted(player=pid, round=r, kind=kind):
            state.byes.setdefault(r, {})[pid] = kind
        case RoundPaired(round=r, boards=boards):
            state.rounds[r] = RoundState(r, [_board_state(b) for b in boards])
        case ResultRecorded() | ResultCorrected():
            _apply_result(state, event)
    state.version += 1
    return state


def _round_of(event: Event) -> int | None:
    if isinstance(
        event, RoundPaired | ResultRecorded | ResultCorrected | ByeGranted | BoardsSwapped
    ):
        return event.round
    return None


def project(events: Iterable[Event], at_round: int | None = None) -> TournamentState:
    """Fold a tournament stream into its state, optionally as it stood after `at_round`."""
    state: TournamentState | None = None
    cut = False
    for event in events:
        if at_round is not None:
            r = _round_of(event)
            if isinstance(event, RoundPaired) and event.round > at_round:
                cut = True
            if r is not None and r > at_round:
                continue
            if cut and not isinstance(event, ResultRecorded | ResultCorrected):
                continue
        state = evolve(state, event)
    if state is None:
        raise ValueError("empty tournament stream")
    return state
