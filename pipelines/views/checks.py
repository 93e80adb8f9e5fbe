"""``arbiter check T --for fide|egd``: the tournament and the imported list in force at its
start, read from the store, given to the pure checks (`projections.federation_checks`)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

from events.domain import Game
from events.errors import UserError
from events.imported_lists import FIDE_LISTS, ListedPlayer, latest_list_import, lookup
from projections.federation_checks import Finding, egd_findings, fide_findings

if TYPE_CHECKING:
    from decide.state import TournamentState
    from events.store import Store

__all__ = ["Body", "CheckReport", "check"]


class Body(StrEnum):
    """The rating body a tournament is checked for."""

    FIDE = "fide"
    EGD = "egd"


_GAME = {Body.FIDE: Game.CHESS, Body.EGD: Game.GO}


@dataclass(frozen=True, slots=True)
class CheckReport:
    """The findings, and what the check read: the list (``fide-standard of 2025-11-01``), or
    a note saying none was imported (only what needs no list was checked)."""

    findings: tuple[Finding, ...]
    read: str | None
    note: str | None


def start_of(state: TournamentState) -> dt.date | None:
    """The event's first day: its start date, else its first round's date."""
    settings = state.settings
    if settings.start_date is not None:
        return settings.start_date
    return min(settings.round_dates.values(), default=None)


def check(store: Store, state: TournamentState, body: Body) -> CheckReport:
    """What ``body`` would send back about the tournament, against its list in force at the
    event's start (the latest when the event states no date).

    :raises UserError: a body that does not rate the tournament's game.
    """
    game = _GAME[body]
    if state.game is not game:
        raise UserError(
            f"{state.id}: {body.value.upper()} rates {game.value}; this is a "
            f"{state.game.value} event"
        )
    if body is Body.FIDE:
        name = FIDE_LISTS[state.settings.pairing_params.rating.rating_type or "standard"]
        ids = [p.fide_id for p in state.players.values() if p.fide_id]
    else:
        name = "egd"
        ids = [p.ids["egd_pin"] for p in state.players.values() if p.ids.get("egd_pin")]
    start = start_of(state)
    found = latest_list_import(store, name, start)
    listed: dict[str, ListedPlayer] | None = None
    read = note = None
    if found is None:
        when = "" if start is None else f" dated {start} (the start) or before"
        note = (
            f"{state.id}: no {name} list imported{when} (arbiter ratings import): "
            "checked only what needs no list"
        )
    else:
        read = f"{name} of {found.list_date}"
        listed = {}
        for player_id in ids:
            row = lookup(store, name, player_id, found.list_date)
            if row is not None:
                listed[player_id] = row
    label = f"{name} list" if found is None else f"{name} list of {found.list_date}"
    checks = fide_findings if body is Body.FIDE else egd_findings
    return CheckReport(tuple(checks(state, listed, list_label=label)), read, note)
