"""Director commands: load a tournament, validate the request against its state, append events.

Each function takes an open store, reads the stream once, and appends with the version it
read, so a concurrent change surfaces as `WrongExpectedVersion` instead of a lost update. A
caller that already holds the tournament's state (the web server's projection cache) passes it
as `known=`: the command decides on it and appends after its version, the same guard.
Every refusal raises `CommandError` (or `UnknownTournament`/`UnknownPlayer`) before anything
is appended; a field the user gave that an event refuses is a `CommandError` naming the field.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from pydantic import ValidationError

from events.domain import Board, ByeKind, Game, Scoring, System
from events.errors import NotFound, PairingError, UserError
from events.names import slugify
from events.params import PairingParams
from events.provenance import current_origin
from events.results import Result
from events.schema import (
    ByeGranted,
    EventBase,
    PlayerReentered,
    PlayerRegistered,
    PlayerWithdrawn,
    ResultCorrected,
    ResultRecorded,
    RoundPaired,
    TiebreaksChanged,
    TournamentCreated,
)
from events.store import AppendResult, NewEvent, RecordedEvent, Store, Truncation
from ingest.limits import LimitError, check_event, check_text
from pipelines.game_checks import check_result, game_fields
from projections.state import TournamentState, project
from projections.tiebreaks import lookup as lookup_tiebreak

STREAM_PREFIX = "tournament-"


class CommandError(UserError):
    """A request the tournament's state does not allow; nothing was appended."""


class UnknownTournament(CommandError, NotFound):
    """No tournament stream has this id."""


class UnknownPlayer(CommandError, NotFound):
    """The tournament has no player with this id."""


E = TypeVar("E", bound=EventBase)


def _event(cls: type[E], context: str, **fields: Any) -> E:
    """An event built from the user's input: a field it refuses, or a text or number beyond
    the limits every input is held to (:mod:`ingest.limits`: a name with a newline, a rating
    of 10^32), is a `CommandError` naming the field."""
    try:
        event = cls(**fields)
    except ValidationError as exc:
        raise CommandError.from_validation(exc, context) from None
    try:
        check_event(event)
    except LimitError as exc:
        raise CommandError(f"{context}: {exc}") from None
    return event


def actor() -> str:
    """Who is acting (see `events.provenance`)."""
    return current_origin().actor


def stream_of(tournament_id: str) -> str:
    return STREAM_PREFIX + tournament_id


@dataclass(frozen=True, slots=True)
class Snapshot:
    """A tournament's state at a stream version: what a command decides on, and the version
    it appends after (`Store.append` refuses the events if the stream has moved on)."""

    stream_id: str
    state: TournamentState
    version: int


@dataclass(frozen=True, slots=True)
class Loaded(Snapshot):
    """A tournament's recorded events and the state they fold into."""

    events: list[RecordedEvent]


def tournament_ids(store: Store) -> list[str]:
    return [s.removeprefix(STREAM_PREFIX) for s in store.streams(STREAM_PREFIX)]


def tournament_summaries(store: Store) -> list[dict[str, Any]]:
    """One row per tournament, read from the log in bulk (no per-tournament replay)."""
    import polars as pl

    frame = store.read_frame(stream_prefix=STREAM_PREFIX).select(
        "stream_id", "event_type", "payload"
    )
    if frame.height == 0:
        return []
    counts = frame.group_by("stream_id").agg(
        players=(pl.col("event_type") == "PlayerRegistered").sum()
        - (pl.col("event_type") == "PlayerRemoved").sum(),
        rounds_paired=(pl.col("event_type") == "RoundPaired").sum(),
    )
    # `tournament edit --name`: the last name given wins (the frame is in log order)
    renamed = (
        frame.filter(pl.col("event_type") == "TournamentEdited")
        .select(
            "stream_id",
            pl.col("payload").str.json_decode(pl.Struct({"name": pl.String})).struct.field("name"),
        )
        .drop_nulls("name")
        .group_by("stream_id")
        .agg(pl.col("name").last().alias("new_name"))
    )
    created = frame.filter(pl.col("event_type") == "TournamentCreated").with_columns(
        pl.col("payload")
        .str.json_decode(
            pl.Struct(
                {
                    "name": pl.String,
                    "game": pl.String,
                    "system": pl.String,
                    "rounds": pl.Int64,
                    "cycles": pl.Int64,
                }
            )
        )
        .alias("t")
    )
    table = (
        created.join(counts, on="stream_id")
        .join(renamed, on="stream_id", how="left")
        .select(
            pl.col("stream_id").str.strip_prefix(STREAM_PREFIX).alias("id"),
            pl.coalesce("new_name", pl.col("t").struct.field("name")).alias("name"),
            pl.col("t").struct.field("game"),
            pl.col("t").struct.field("system"),
            "players",
            "rounds_paired",
            (pl.col("t").struct.field("rounds") * pl.col("t").struct.field("cycles")).alias(
                "rounds"
            ),
        )
        .sort("id")
    )
    return table.to_dicts()


def load(store: Store, tournament_id: str, at_round: int | None = None) -> Loaded:
    stream = stream_of(tournament_id)
    events = store.read_stream(stream)
    if not events:
        known = ", ".join(tournament_ids(store)) or "none yet"
        raise UnknownTournament(f"unknown tournament '{tournament_id}' (known: {known})")
    state = project((e.event for e in events), at_round=at_round)
    if at_round is not None and not 0 <= at_round <= state.last_round:
        raise CommandError(
            f"{tournament_id}: --at-round {at_round} is outside 0..{state.last_round}"
        )
    return Loaded(stream, state, events[-1].version, events)


def _snapshot(store: Store, tournament_id: str, known: Snapshot | None) -> Snapshot:
    """`known` when the caller holds the tournament's state, else the stream read and folded."""
    return known if known is not None else load(store, tournament_id)


def _append(
    store: Store, loaded: Snapshot, events: Sequence[EventBase], **meta: Any
) -> AppendResult:
    metadata = current_origin().metadata(**meta)
    return store.append(
        loaded.stream_id, [NewEvent(e, metadata=metadata) for e in events], loaded.version
    )


# ------------------------------------------------------------------ tournaments


def create_tournament(
    store: Store,
    *,
    name: str,
    game: Game,
    system: System,
    rounds: int,
    cycles: int = 1,
    scoring: Scoring | None = None,
    tiebreaks: Sequence[str] = (),
    pairing_params: PairingParams | None = None,
    tournament_id: str | None = None,
    event_data: dict[str, Any] | None = None,
) -> str:
    """Create a tournament stream; returns its id (a slug of the name, made unique).

    `event_data`: dates, place, federation, arbiters, time control, round dates
    (`pipelines.director.EventData.created_fields`).
    """
    try:
        check_text("--name", name)
        if tournament_id is not None:
            check_text("--id", tournament_id)
    except LimitError as exc:
        raise CommandError(str(exc)) from None
    for code in tiebreaks:
        _check_tiebreak(system, code)
    base = tournament_id or slugify(name)
    tid, n = base, 1
    while store.stream_version(stream_of(tid)) >= 0:
        if tournament_id is not None:
            raise CommandError(f"tournament '{tid}' already exists")
        n += 1
        tid = f"{base}-{n}"
    event = _event(
        TournamentCreated,
        tid,
        tournament_id=tid,
        name=name,
        game=game,
        system=system,
        rounds=rounds,
        cycles=cycles,
        scoring=scoring or Scoring.for_game_kind(game),
        tiebreaks=tuple(tiebreaks) or default_tiebreaks(game, system),
        pairing_params=pairing_params or PairingParams(),
        **(event_data or {}),
    )
    store.append(stream_of(tid), [NewEvent(event, metadata=current_origin().metadata())], -1)
    return tid


def _check_tiebreak(system: System, code: str) -> None:
    if system.is_team:
        from events.team_results import TEAM_TIEBREAKS

        if code.upper() not in TEAM_TIEBREAKS:
            raise CommandError(
                f"unknown team tie-break '{code}' (known: {', '.join(TEAM_TIEBREAKS)})"
            )
        return
    lookup_tiebreak(code)


def default_tiebreaks(game: Game, system: System) -> tuple[str, ...]:
    """The usual chain of each game and system (C.07 recommendations; OpenGotha's defaults)."""
    if system.is_team:
        from events.team_results import DEFAULT_CHAIN

        return DEFAULT_CHAIN
    if game is Game.GO:
        if system is System.MACMAHON:
            return ("MMS", "SOSM", "SOSOSM")
        return ("NBW", "SOSW", "SOSOSW")
    if game is Game.CARROM:
        # SoL's ranking: Swiss by bucholz, net and total score; round robin by net and total
        # score; a knockout by the bracket alone.
        return {
            System.SWISS: ("BUCHOLZ", "NETSCORE", "TOTSCORE"),
            System.ROUNDROBIN: ("NETSCORE", "TOTSCORE"),
        }.get(system, ())
    if game is Game.OTHELLO and system is not System.ROUNDROBIN:
        return ("BQ", "DISCS")
    if system is System.ROUNDROBIN:
        return ("DE", "SB", "WIN")
    if game is Game.CHESS:
        return ("BH/C1", "BH", "SB")
    return ("BH",)


def set_tiebreaks(store: Store, tournament_id: str, codes: Sequence[str]) -> None:
    for code in codes:
        lookup_tiebreak(code)
    loaded = load(store, tournament_id)
    _append(store, loaded, [TiebreaksChanged(tiebreaks=tuple(codes))])


# ------------------------------------------------------------------ players


def add_player(
    store: Store, tournament_id: str, *, known: Snapshot | None = None, **fields: Any
) -> int:
    loaded = _snapshot(store, tournament_id, known)
    state = loaded.state
    if state.system is System.ROUNDROBIN and state.rounds:
        raise CommandError(
            f"{tournament_id}: a round robin's field is fixed once round 1 is paired"
        )
    fide_id = fields.get("fide_id")
    if fide_id:
        for p in state.players.values():
            if p.fide_id == fide_id:
                raise CommandError(
                    f"{tournament_id}: FIDE id {fide_id} is already registered as "
                    f"player {p.id} ({p.name})"
                )
    fields = game_fields(state, fields)
    player = max(state.players.keys() | state.removed, default=0) + 1
    _append(store, loaded, [_event(PlayerRegistered, tournament_id, player=player, **fields)])
    return player


def _player(state: TournamentState, player: int) -> None:
    if player not in state.players:
        raise UnknownPlayer(f"{state.id}: no player {player} (players are 1..{len(state.players)})")


def withdraw(store: Store, tournament_id: str, player: int, from_round: int | None) -> int:
    loaded = load(store, tournament_id)
    _player(loaded.state, player)
    first = from_round or loaded.state.last_round + 1
    _append(
        store, loaded, [_event(PlayerWithdrawn, tournament_id, player=player, from_round=first)]
    )
    return first


def reenter(store: Store, tournament_id: str, player: int, from_round: int | None) -> int:
    loaded = load(store, tournament_id)
    _player(loaded.state, player)
    if loaded.state.players[player].withdrawn_from is None:
        raise CommandError(f"{tournament_id}: player {player} has not withdrawn")
    first = from_round or loaded.state.last_round + 1
    _append(
        store, loaded, [_event(PlayerReentered, tournament_id, player=player, from_round=first)]
    )
    return first


def grant_bye(store: Store, tournament_id: str, player: int, round_no: int, kind: ByeKind) -> None:
    loaded = load(store, tournament_id)
    state = loaded.state
    _player(state, player)
    if kind is ByeKind.PAIRING:
        raise CommandError("the pairing-allocated bye is given by the pairing, not by hand")
    if round_no in state.rounds:
        raise CommandError(f"{tournament_id}: round {round_no} is already paired")
    if round_no > state.total_rounds:
        raise CommandError(f"{tournament_id}: round {round_no} > {state.total_rounds} rounds")
    bye = _event(ByeGranted, tournament_id, player=player, round=round_no, kind=kind)
    _append(store, loaded, [bye])


# ------------------------------------------------------------------ rounds


def pair(
    store: Store, tournament_id: str, notes: list[str] | None = None, *, bye: int | None = None
) -> RoundPaired:
    """Pair the next round with the tournament's system; `notes` collects the explanation;
    `bye`: the player the director gives the bye (gopair)."""
    loaded = load(store, tournament_id)
    state = loaded.state
    next_round = state.last_round + 1
    if next_round > state.total_rounds:
        raise CommandError(f"{tournament_id}: all {state.total_rounds} rounds are paired")
    if state.last_round:
        rnd = state.rounds[state.last_round]
        missing = [b.board for b in rnd.boards if not b.has_result]
        if missing:
            shown = ", ".join(map(str, missing[:10])) + (" ..." if len(missing) > 10 else "")
            raise CommandError(
                f"{tournament_id}: round {state.last_round} still lacks results on board(s) {shown}"
            )
    if len(state.players) < 2:
        raise CommandError(f"{tournament_id}: register at least two players before pairing")
    if state.system.is_team:
        from pipelines.team_commands import pair_teams

        team_events = pair_teams(loaded, next_round)
        _append(store, loaded, team_events, command="pair")
        return next(e for e in team_events if isinstance(e, RoundPaired))
    from pipelines.engines.pair import pair_next_round

    try:
        if bye is not None:
            _player(state, bye)
        boards: list[Board] = pair_next_round(state, next_round, notes, bye)
    except (UserError, PairingError) as exc:
        raise CommandError(f"{tournament_id}: {exc}") from exc
    event = RoundPaired(round=next_round, boards=tuple(boards))
    _append(store, loaded, [event], command="pair")
    return event


def record_result(
    store: Store,
    tournament_id: str,
    round_no: int,
    board_no: int,
    text: str,
    *,
    correct: bool,
    known: Snapshot | None = None,
) -> ResultRecorded | ResultCorrected:
    loaded = _snapshot(store, tournament_id, known)
    state = loaded.state
    rnd = state.rounds.get(round_no)
    if rnd is None:
        raise CommandError(
            f"{tournament_id}: round {round_no} is not paired yet "
            f"(last paired round: {state.last_round or 'none'})"
        )
    board = rnd.board(board_no)
    if board is None:
        raise CommandError(
            f"{tournament_id}: round {round_no} has no board {board_no} "
            f"(boards 1..{len(rnd.boards)})"
        )
    if board.black is None:
        raise CommandError(f"{tournament_id}: round {round_no} board {board_no} is a bye")
    try:
        parsed = Result.parse(text, state.game)
        check_result(state.game, parsed, board.komi, text)
    except UserError as exc:
        raise CommandError(f"{tournament_id}: {exc}") from exc
    entered = board.outcome if board.outcome is not None and board.outcome.is_known else None
    if entered is not None and not correct:
        raise CommandError(
            f"{tournament_id}: round {round_no} board {board_no} already has result "
            f"{entered.value}; use --correct to change it"
        )
    kind = ResultRecorded if entered is None else ResultCorrected
    event = kind(
        round=round_no,
        board=board_no,
        outcome=parsed.outcome,
        white_score=parsed.white_score,
        black_score=parsed.black_score,
    )
    _append(store, loaded, [event])
    return event


# ------------------------------------------------------------------ undo


def undo(store: Store, tournament_id: str, round_no: int, reason: str | None) -> Truncation:
    """Archive the stream back to just before round `round_no` was paired."""
    if reason is not None:
        try:
            check_text("--reason", reason)
        except LimitError as exc:
            raise CommandError(f"{tournament_id}: {exc}") from None
    loaded = load(store, tournament_id)
    paired_at = next(
        (
            e.version
            for e in loaded.events
            if e.event_type == "RoundPaired"
            and isinstance(e.event, RoundPaired)
            and e.event.round == round_no
        ),
        None,
    )
    if paired_at is None:
        raise CommandError(
            f"{tournament_id}: round {round_no} is not paired "
            f"(last paired round: {loaded.state.last_round or 'none'})"
        )
    return store.truncate(
        loaded.stream_id,
        paired_at - 1,
        loaded.version,
        actor(),
        reason or f"undo to before round {round_no}",
    )


def restore(store: Store, tournament_id: str) -> Truncation:
    load(store, tournament_id)
    return store.restore(stream_of(tournament_id), actor())
