"""What every command shares: loading a tournament, its state at a version, the append.

A command reads the stream once (`load`), checks the request against the state, and appends
with the version it read (`append`), so a concurrent change surfaces as `WrongExpectedVersion`
instead of a lost update. A caller that already holds the tournament's state (the web server's
projection cache) passes it as ``known=``: the command decides on it and appends after its
version, the same guard. Every refusal raises before anything is appended.

A command holds its stream while it decides (`Store.deciding`: on PostgreSQL an advisory lock
every process takes, so the writers of one stream through several servers take turns). A
command that lost the race anyway (it decided on a state the caller held, and another process
appended before it held the stream) decides again (`decided_again`): it reads the stream as it
now is, checks the request against that state and appends, a bounded number of times. Two
writers on different boards or players both land; a request the new state refuses (the same
board entered twice) is refused as if it had come second, and only a stream that keeps moving
ends in `WrongExpectedVersion` (exit 3).
"""

from __future__ import annotations

import functools
import random
import time
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from typing import Any, ParamSpec, TypeVar

from pydantic import ValidationError

from decide.base import known_player, next_player_id
from decide.errors import CommandError, UnknownPlayer, UnknownTournament
from decide.state import TournamentState, project
from events.errors import UserError
from events.provenance import current_origin
from events.schema import TOURNAMENT_STREAM, EventBase
from events.store import AppendResult, NewEvent, RecordedEvent, Store, WrongExpectedVersion
from events.validate import InvalidField
from ingest.limits import LimitError, check_event, check_text

__all__ = [
    "STREAM_PREFIX",
    "CommandError",
    "Loaded",
    "Snapshot",
    "UnknownPlayer",
    "UnknownTournament",
    "actor",
    "append",
    "checked_text",
    "decided_again",
    "known_player",
    "load",
    "new_event",
    "next_player_id",
    "player_named",
    "snapshot",
    "stream_of",
    "tournament_ids",
    "within_limits",
]

STREAM_PREFIX = TOURNAMENT_STREAM


E = TypeVar("E", bound=EventBase)
P = ParamSpec("P")
R = TypeVar("R")

DECISIONS = 8
"""How many times a command decides on the stream before a concurrent writer's
`WrongExpectedVersion` reaches the user."""


def decided_again(command: Callable[P, R]) -> Callable[P, R]:
    """``command``, holding its stream (`Store.deciding`; every decided command is
    ``(store, tournament_id, ...)``, but `tournaments.create`, whose stream is new), run again
    on the stream as stored when another writer appended between its read and its append (up
    to `DECISIONS` times, a short random pause between, longer each time). A ``known=`` state
    given by the caller is used for the first decision only."""

    @functools.wraps(command)
    def decide(*args: P.args, **kwargs: P.kwargs) -> R:
        for attempt in range(1, DECISIONS + 1):
            try:
                with _held(args):
                    return command(*args, **kwargs)
            except WrongExpectedVersion:
                if attempt == DECISIONS:
                    raise
                kwargs.pop("known", None)
                time.sleep(random.uniform(0.005, 0.03) * attempt)
        raise AssertionError("unreachable")

    return decide


def _held(args: tuple[Any, ...]) -> AbstractContextManager[None]:
    if len(args) >= 2 and isinstance(args[1], str):
        store: Store = args[0]
        return store.deciding(stream_of(args[1]))
    return nullcontext()


def new_event(cls: type[E], context: str, **fields: Any) -> E:
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


def checked_text(field: str, value: str, context: str | None = None) -> str:
    """Free text within the limits (:func:`ingest.limits.check_text`), else `InvalidField`."""
    try:
        return check_text(field, value)
    except LimitError as exc:
        problem = str(exc).removeprefix(field).lstrip()
        error = InvalidField(field, problem, sep=" ")
        raise (error if context is None else error.within(context)) from None


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


def load(store: Store, tournament_id: str, at_round: int | None = None) -> Loaded:
    stream = stream_of(tournament_id)
    events = store.read_stream(stream)
    if not events:
        known = ", ".join(tournament_ids(store)) or "none yet"
        raise UnknownTournament(f"unknown tournament '{tournament_id}' (known: {known})")
    state = project((e.event for e in events), at_round=at_round)
    if at_round is not None and not 0 <= at_round <= state.last_round:
        raise InvalidField(
            "at_round", f"{at_round} is outside 0..{state.last_round}", sep=" "
        ).within(tournament_id)
    return Loaded(stream, state, events[-1].version, events)


def snapshot(store: Store, tournament_id: str, known: Snapshot | None) -> Snapshot:
    """`known` when the caller holds the tournament's state, else the stream read and folded."""
    return known if known is not None else load(store, tournament_id)


def append(
    store: Store, loaded: Snapshot, events: Sequence[EventBase], **meta: Any
) -> AppendResult:
    """Append after the version the command decided on; ``meta`` joins the provenance. Each
    event is first held to the limits every input is (:mod:`ingest.limits`: a name with a
    newline, a rating of 10^32): beyond them, a `CommandError` and nothing appended."""
    within_limits(loaded.stream_id.removeprefix(STREAM_PREFIX), events)
    metadata = current_origin().metadata(**meta)
    return store.append(
        loaded.stream_id, [NewEvent(e, metadata=metadata) for e in events], loaded.version
    )


def within_limits(context: str, events: Sequence[EventBase]) -> None:
    """Each event held to the limits every input is (:mod:`ingest.limits`), else a
    `CommandError` naming ``context`` (the tournament)."""
    for event in events:
        try:
            check_event(event)
        except LimitError as exc:
            raise CommandError(f"{context}: {exc}") from None


def player_named(state: TournamentState, text: str) -> int:
    """The id of the player a user names as ``text``: his pairing number (start rank), the
    number every page, printout and listing calls him by (``14``, or ``#14``), or his id where
    it is marked as such (``id:7``, the API's stable id). Before round 1 is paired the numbers
    follow the field's order as it stands (rating, then name) and change as players are added;
    from round 1 on they are fixed (a late entry takes the next free number).

    :raises UserError: ``text`` is neither, or no player has that pairing number.
    """
    written = text.strip()
    number = written.removeprefix("#")
    if number.isdigit():
        wanted = int(number)
        for pid, rank in state.start_ranks().items():
            if rank == wanted:
                return pid
        raise UnknownPlayer(f"{state.id}: no player {wanted}")  # as the API's ids: one row
    marked = written[3:].strip() if written[:3].lower() == "id:" else ""
    if marked.isdigit():
        return int(marked)
    raise UserError(
        f"PLAYER: '{text}' is neither a pairing number (such as 14) nor a player id marked "
        "as such (id:7)"
    )
