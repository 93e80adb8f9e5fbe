"""The prize list's decider: set a tournament's prize list (`PrizesSet`, replacing any earlier
one), and the one rule it is held to, which the allocation applies again (`check_year`)."""

from __future__ import annotations

import datetime as dt

from decide.base import new_event
from decide.state import TournamentState
from events.errors import UserError
from events.prizes import PrizeTable
from events.schema import PrizesSet

__all__ = ["PrizeError", "check_year", "event_year", "set_prizes"]


class PrizeError(UserError):
    """A prize list that cannot be applied to this tournament (an age category without the
    event's year)."""


def event_year(state: TournamentState) -> int | None:
    """The year age categories count from: the start date's, else the first round date's."""
    s = state.settings
    first: dt.date | None = s.start_date or s.end_date or min(s.round_dates.values(), default=None)
    return first.year if first is not None else None


def check_year(table: PrizeTable, year: int | None) -> None:
    """Refuse a list with an age category (``under``) for an event without a year."""
    aged = next((c.name for c in table.category if c.under is not None), None)
    if aged is not None and year is None:
        raise PrizeError(
            f"category '{aged}' counts ages ('under'), which needs the event's year: "
            "set the start date (tournament edit T --start DATE) or use born_min"
        )


def set_prizes(state: TournamentState, table: PrizeTable) -> list[PrizesSet]:
    """The tournament's prize list (a `PrizeTable`, validated where it was read): an age
    category needs the event's year."""
    check_year(table, event_year(state))
    return [new_event(PrizesSet, state.id, prizes=table)]
