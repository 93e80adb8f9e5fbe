"""The deciders of players who enter themselves, and of check-in before round 1.

The event's settings decide what is allowed: ``registration open`` registers an entry at once
(by `decide.players.register`, the rule of every registration: the lists read), ``approval``
keeps it waiting for the director, ``closed`` refuses it; a check-in window lets players
check themselves in inside it (the director at any time before round 1 is paired), and round
1 then leaves out every player not checked in (`left_out`). The clock is a value (``now``).
"""

from __future__ import annotations

import datetime as dt
import hmac
from collections.abc import Callable, Mapping
from typing import Any

from decide.base import known_player, new_event
from decide.errors import CommandError
from decide.lists import Lists
from decide.players import register
from decide.state import RequestState, TournamentState
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
from events.validate import InvalidField

__all__ = [
    "ENTRY_FIELDS",
    "NOT_CHECKED_IN",
    "approve",
    "check_in",
    "decline",
    "left_out",
    "missed_check_in",
    "request",
    "window",
]

ENTRY_FIELDS: tuple[str, ...] = tuple(Entry.model_fields)
"""What a player may give about himself (the registration form's fields)."""
NOT_CHECKED_IN = "not checked in"


def _entry_of(event: PlayerRegistered) -> Entry:
    return Entry(**{k: getattr(event, k) for k in ENTRY_FIELDS})


def _fields(entry: Mapping[str, Any]) -> dict[str, Any]:
    """The entry's given fields; a field a player cannot give himself is refused by name."""
    for key in entry:
        if key not in ENTRY_FIELDS:
            raise InvalidField(key, "is not a field of a player's own entry")
    return {k: v for k, v in entry.items() if v not in (None, "")}


def _open(state: TournamentState) -> None:
    mode = state.settings.registration
    if mode is Registration.CLOSED:
        raise CommandError(f"{state.id}: registration is closed (the director registers players)")
    if state.rounds:
        raise CommandError(f"{state.id}: registration is over (round 1 is paired)")


def request(state: TournamentState, entry: Mapping[str, Any], *, lists: Lists) -> list[EventBase]:
    """A player's own entry, checked as every registration is (an id on no list is refused:
    a player cannot say he is new to FIDE): `RegistrationRequested`, and when registration is
    open the player registered and the request approved."""
    _open(state)
    registered = register(state, _fields(entry), lists=lists, force=False, not_on_list=False).event
    number = max(state.requests, default=0) + 1
    events: list[EventBase] = [
        new_event(RegistrationRequested, state.id, request=number, entry=_entry_of(registered))
    ]
    if state.settings.registration is Registration.OPEN:
        events += [registered, RegistrationApproved(request=number, player=registered.player)]
    return events


def waiting(state: TournamentState, number: int) -> RequestState:
    """The waiting request ``number``, else the reason there is none."""
    found = state.requests.get(number)
    if found is None:
        raise CommandError(f"{state.id}: no registration request {number}")
    if found.status != "waiting":
        raise CommandError(f"{state.id}: request {number} ({found.entry.name}) is {found.status}")
    return found


def approve(
    state: TournamentState, number: int, *, lists: Lists, force: bool, not_on_list: bool
) -> list[EventBase]:
    """Register the waiting request ``number``, checked against the lists as they are now."""
    entry = waiting(state, number).entry.model_dump(exclude_none=True)
    registered = register(state, entry, lists=lists, force=force, not_on_list=not_on_list).event
    return [registered, RegistrationApproved(request=number, player=registered.player)]


def decline(state: TournamentState, number: int, reason: str | None) -> list[EventBase]:
    """Decline the waiting request ``number``."""
    waiting(state, number)
    return [new_event(RegistrationDeclined, state.id, request=number, reason=reason)]


def window(state: TournamentState) -> tuple[dt.datetime, dt.datetime] | None:
    """The check-in window, when the event has one."""
    opens, closes = state.settings.check_in_opens, state.settings.check_in_closes
    return None if opens is None or closes is None else (opens, closes)


def check_in(
    state: TournamentState,
    player: int,
    *,
    by_director: bool,
    code: str | None,
    code_of: Callable[[str, int], str],
    now: dt.datetime,
) -> list[CheckedIn]:
    """Check ``player`` in (nothing when he already was). A player checks in inside the
    window, at ``now`` (the venue's wall-clock time), with his check-in ``code`` (``code_of``
    gives the event's code of a player); the director at any time before round 1 is paired."""
    known_player(state, player)
    span = window(state)
    if span is None:
        raise CommandError(
            f"{state.id}: the event has no check-in (tournament edit --check-in FROM/TO)"
        )
    if state.rounds:
        raise CommandError(f"{state.id}: check-in is over (round 1 is paired)")
    if not by_director:
        given = "".join((code or "").split()).upper()
        if not hmac.compare_digest(given.encode(), code_of(state.id, player).encode()):
            raise CommandError(
                f"{state.id}: player No. {state.start_ranks()[player]}: missing or wrong "
                "check-in code (given at registration; ask the director)"
            )
        if now < span[0]:
            raise CommandError(f"{state.id}: check-in opens at {span[0]:%Y-%m-%d %H:%M}")
        if now > span[1]:
            raise CommandError(
                f"{state.id}: check-in closed at {span[1]:%Y-%m-%d %H:%M}; ask the director"
            )
    if state.players[player].checked_in:
        return []
    return [CheckedIn(player=player, by_director=by_director)]


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
