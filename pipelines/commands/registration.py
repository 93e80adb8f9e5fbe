"""Players who enter themselves, and check-in before round 1: the service around the deciders
of `decide.registration` (read the stream, decide with the store's lists and the clock, append).

Every door (the event's page, the API, the CLI's director commands) goes through these
functions, so an entry is checked by the rules of every registration
(`decide.players.register`, with `PlayerInput`) and the event's own settings decide what is
allowed:

* ``tournament edit --registration open|approval|closed``: an entry is registered at once,
  waits for the director, or is refused;
* ``tournament edit --check-in FROM/TO``: players check themselves in inside the window (the
  director at any time before round 1 is paired); round 1 then leaves out every player not
  checked in, as a zero-point absence whose reason the log and the round's list say
  (`left_out`).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from decide import registration as decide
from decide.registration import (
    ENTRY_FIELDS,
    NOT_CHECKED_IN,
    left_out,
    missed_check_in,
    window,
)
from events.schema import PlayerRegistered, RegistrationRequested
from events.store import Store
from pipelines.commands.base import append, decided_again, load
from pipelines.commands.lists import StoreLists

__all__ = [
    "ENTRY_FIELDS",
    "NOT_CHECKED_IN",
    "Registered",
    "approve",
    "check_in",
    "decline",
    "left_out",
    "missed_check_in",
    "request",
    "window",
]


def _now() -> dt.datetime:
    """The server's local wall-clock time: the window is typed in the venue's time."""
    return dt.datetime.now(dt.UTC).astimezone().replace(tzinfo=None, microsecond=0)


@dataclass(frozen=True, slots=True)
class Registered:
    """What a request came to: its number, and the player id when it was registered at once."""

    request: int
    player: int | None
    name: str


@decided_again
def request(store: Store, tournament_id: str, entry: Mapping[str, Any]) -> Registered:
    """A player's own entry (`decide.registration.request`): registered at once when
    registration is open, else waiting for the director's approval."""
    loaded = load(store, tournament_id)
    events = decide.request(loaded.state, entry, lists=StoreLists(store))
    append(store, loaded, events)
    asked = next(e for e in events if isinstance(e, RegistrationRequested))
    player = next((e.player for e in events if isinstance(e, PlayerRegistered)), None)
    return Registered(asked.request, player, asked.entry.name)


@decided_again
def approve(
    store: Store,
    tournament_id: str,
    number: int,
    *,
    force: bool = False,
    not_on_list: bool = False,
) -> int:
    """Register the waiting request ``number`` (`decide.registration.approve`); the new
    player's id. Its federation id is checked against the lists imported now
    (``not_on_list``: a player new to that body)."""
    loaded = load(store, tournament_id)
    events = decide.approve(
        loaded.state, number, lists=StoreLists(store), force=force, not_on_list=not_on_list
    )
    append(store, loaded, events)
    return next(e.player for e in events if isinstance(e, PlayerRegistered))


@decided_again
def decline(store: Store, tournament_id: str, number: int, reason: str | None = None) -> str:
    """Decline the waiting request ``number`` (`decide.registration.decline`); the name it
    gave."""
    loaded = load(store, tournament_id)
    events = decide.decline(loaded.state, number, reason)
    append(store, loaded, events)
    return loaded.state.requests[number].entry.name


@decided_again
def check_in(
    store: Store,
    tournament_id: str,
    player: int,
    *,
    by_director: bool,
    now: dt.datetime | None = None,
) -> bool:
    """Check ``player`` in (`decide.registration.check_in`, at ``now``, default the server's
    clock); False when he already was (nothing appended)."""
    loaded = load(store, tournament_id)
    events = decide.check_in(loaded.state, player, by_director=by_director, now=now or _now())
    if not events:
        return False
    append(store, loaded, events)
    return True
