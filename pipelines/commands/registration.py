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
from pipelines.process.secret import secret

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
    "window",
]


def _now() -> dt.datetime:
    """The server's local wall-clock time: the window is typed in the venue's time."""
    return dt.datetime.now(dt.UTC).astimezone().replace(tzinfo=None, microsecond=0)


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


@decided_again
def request(store: Store, tournament_id: str, entry: Mapping[str, Any]) -> Registered:
    """A player's own entry (`decide.registration.request`): registered at once when
    registration is open, else waiting for the director's approval."""
    loaded = load(store, tournament_id)
    events = decide.request(loaded.state, entry, lists=StoreLists(store))
    append(store, loaded, events)
    asked = next(e for e in events if isinstance(e, RegistrationRequested))
    player = next((e.player for e in events if isinstance(e, PlayerRegistered)), None)
    return Registered(asked.request, player, asked.entry.name, tournament_id)


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
    code: str | None = None,
    now: dt.datetime | None = None,
) -> bool:
    """Check ``player`` in (`decide.registration.check_in`, at ``now``, default the server's
    clock); False when he already was (nothing appended). A player gives his check-in
    ``code``; the director needs none."""
    loaded = load(store, tournament_id)
    events = decide.check_in(
        loaded.state,
        player,
        by_director=by_director,
        code=code,
        code_of=check_in_code,
        now=now or _now(),
    )
    if not events:
        return False
    append(store, loaded, events)
    return True
