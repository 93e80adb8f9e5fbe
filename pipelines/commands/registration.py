"""Players who enter themselves, and check-in before round 1.

Every door (the event's page, the API, the CLI's director commands) goes through these
functions, so an entry is checked by the rules of every registration (`Registrar`, with
`PlayerInput`) and the event's own settings decide what is allowed:

* ``tournament edit --registration open|approval|closed``: an entry is registered at once,
  waits for the director, or is refused;
* ``tournament edit --check-in FROM/TO``: players check themselves in inside the window (the
  director at any time before round 1 is paired); round 1 then leaves out every player not
  checked in, as a zero-point absence whose reason the log and the round's list say
  (`left_out`).

A player checks himself in with his check-in code (`check_in_code`): shown in his registration's
confirmation and printed for the director (``arbiter print T check-in-codes``). It is derived
from the installation's secret (`pipelines.process.secret`), never kept in the log, so nobody
who reads the log, the pages or the exports can check another player in.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from events.domain import ByeKind
from events.registration import Entry, Registration
from events.schema import (
    ByeGranted,
    CheckedIn,
    EventBase,
    PlayerRegistered,
    RegistrationApproved,
    RegistrationDeclined,
    RegistrationRequested,
)
from events.store import Store
from events.validate import InvalidField
from pipelines.commands.base import (
    CommandError,
    append,
    decided_again,
    known_player,
    load,
    new_event,
)
from pipelines.commands.players import Registrar
from pipelines.process.secret import secret
from projections.state import RequestState, TournamentState

__all__ = [
    "ENTRY_FIELDS",
    "NOT_CHECKED_IN",
    "Registered",
    "approve",
    "check_in",
    "check_in_code",
    "decline",
    "left_out",
    "missed_check_in",
    "request",
]

ENTRY_FIELDS: tuple[str, ...] = tuple(Entry.model_fields)
"""What a player may give about himself (the registration form's fields)."""
NOT_CHECKED_IN = "not checked in"


def _now() -> dt.datetime:
    """The server's local wall-clock time: the window is typed in the venue's time."""
    return dt.datetime.now(dt.UTC).astimezone().replace(tzinfo=None, microsecond=0)


def _entry_of(event: PlayerRegistered) -> Entry:
    return Entry(**{k: getattr(event, k) for k in ENTRY_FIELDS})


def _fields(entry: Mapping[str, Any]) -> dict[str, Any]:
    """The entry's given fields; a field a player cannot give himself is refused by name."""
    for key in entry:
        if key not in ENTRY_FIELDS:
            raise InvalidField(key, "is not a field of a player's own entry")
    return {k: v for k, v in entry.items() if v not in (None, "")}


CODE_SYMBOLS = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"
"""The 32 symbols of a check-in code (no 0/O, 1/I: it is read from paper and typed)."""
CODE_LENGTH = 6


def check_in_code(tournament_id: str, player: int) -> str:
    """The check-in code of ``player`` in the event: 6 symbols (30 bits) of
    HMAC-SHA256(the installation's secret, event and player). The same on every server and
    printout that shares the secret; a public write tries a few a minute (the rate limit)."""
    message = f"check-in\0{tournament_id}\0{player}".encode()
    value = int.from_bytes(hmac.new(secret(), message, hashlib.sha256).digest()[:4]) >> 2
    return "".join(CODE_SYMBOLS[(value >> (5 * i)) & 31] for i in reversed(range(CODE_LENGTH)))


def _code_ok(tournament_id: str, player: int, code: str | None) -> bool:
    given = "".join((code or "").split()).upper()
    return hmac.compare_digest(given.encode(), check_in_code(tournament_id, player).encode())


@dataclass(frozen=True, slots=True)
class Registered:
    """What a request came to: its number, and the player id when it was registered at once
    (with his check-in code)."""

    request: int
    player: int | None
    name: str
    tournament: str

    @property
    def code(self) -> str | None:
        """The player's check-in code (None while the entry waits for the director)."""
        return None if self.player is None else check_in_code(self.tournament, self.player)


def _open(state: TournamentState) -> None:
    mode = state.settings.registration
    if mode is Registration.CLOSED:
        raise CommandError(f"{state.id}: registration is closed (the director registers players)")
    if state.rounds:
        raise CommandError(f"{state.id}: registration is over (round 1 is paired)")


@decided_again
def request(store: Store, tournament_id: str, entry: Mapping[str, Any]) -> Registered:
    """A player's own entry: registered at once when registration is open, else waiting for
    the director's approval."""
    loaded = load(store, tournament_id)
    state = loaded.state
    _open(state)
    registered = Registrar(state).register(_fields(entry))
    number = max(state.requests, default=0) + 1
    checked = _entry_of(registered)
    events: list[EventBase] = [
        new_event(RegistrationRequested, tournament_id, request=number, entry=checked)
    ]
    player = None
    if state.settings.registration is Registration.OPEN:
        events += [registered, RegistrationApproved(request=number, player=registered.player)]
        player = registered.player
    append(store, loaded, events)
    return Registered(number, player, checked.name, tournament_id)


def _waiting(state: TournamentState, number: int) -> RequestState:
    found = state.requests.get(number)
    if found is None:
        raise CommandError(f"{state.id}: no registration request {number}")
    if found.status != "waiting":
        raise CommandError(f"{state.id}: request {number} ({found.entry.name}) is {found.status}")
    return found


@decided_again
def approve(store: Store, tournament_id: str, number: int, *, force: bool = False) -> int:
    """Register the waiting request ``number``; the new player's id."""
    loaded = load(store, tournament_id)
    state = loaded.state
    waiting = _waiting(state, number)
    registered = Registrar(state, force).register(waiting.entry.model_dump(exclude_none=True))
    append(
        store,
        loaded,
        [registered, RegistrationApproved(request=number, player=registered.player)],
    )
    return registered.player


@decided_again
def decline(store: Store, tournament_id: str, number: int, reason: str | None = None) -> str:
    """Decline the waiting request ``number``; the name it gave."""
    loaded = load(store, tournament_id)
    waiting = _waiting(loaded.state, number)
    event = new_event(RegistrationDeclined, tournament_id, request=number, reason=reason)
    append(store, loaded, [event])
    return waiting.entry.name


def window(state: TournamentState) -> tuple[dt.datetime, dt.datetime] | None:
    opens, closes = state.settings.check_in_opens, state.settings.check_in_closes
    return None if opens is None or closes is None else (opens, closes)


@decided_again
def check_in(
    store: Store,
    tournament_id: str,
    player: int,
    *,
    by_director: bool,
    code: str | None = None,
    now: dt.datetime | None = None,
) -> bool:
    """Check ``player`` in; False when he already was (nothing appended). A player checks in
    inside the window with his check-in ``code``; the director at any time before round 1 is
    paired."""
    loaded = load(store, tournament_id)
    state = loaded.state
    known_player(state, player)
    span = window(state)
    if span is None:
        raise CommandError(
            f"{tournament_id}: the event has no check-in (tournament edit --check-in FROM/TO)"
        )
    if state.rounds:
        raise CommandError(f"{tournament_id}: check-in is over (round 1 is paired)")
    if not by_director:
        if not _code_ok(tournament_id, player, code):
            raise CommandError(
                f"{tournament_id}: player {player}: missing or wrong check-in code (given at "
                "registration; ask the director)"
            )
        at = now or _now()
        if at < span[0]:
            raise CommandError(f"{tournament_id}: check-in opens at {span[0]:%Y-%m-%d %H:%M}")
        if at > span[1]:
            raise CommandError(
                f"{tournament_id}: check-in closed at {span[1]:%Y-%m-%d %H:%M}; ask the director"
            )
    if state.players[player].checked_in:
        return False
    append(store, loaded, [CheckedIn(player=player, by_director=by_director)])
    return True


def missed_check_in(state: TournamentState, player: int) -> bool:
    """The event has a check-in and ``player`` did not check in."""
    return window(state) is not None and not state.players[player].checked_in


def left_out(state: TournamentState, round_no: int) -> list[ByeGranted]:
    """Round 1 of an event with a check-in: a zero-point absence for every player not checked
    in (and not otherwise absent), appended with the round's pairing."""
    if round_no != 1 or window(state) is None:
        return []
    absent = state.byes.get(1, {})
    return [
        ByeGranted(player=pid, round=1, kind=ByeKind.ZERO, reason=NOT_CHECKED_IN)
        for pid, p in sorted(state.players.items())
        if not p.checked_in and pid not in absent and p.active_in(1)
    ]
