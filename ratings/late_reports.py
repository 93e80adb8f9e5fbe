"""Which tournaments a FIDE list run rates late: decided from the order of the log.

FIDE rates a tournament in the period after it ended when it is reported in time; one reported
after the list of its period was made is rated on the first list made after the report, every
rating in it from the list in force when it started (the F-P05 record,
``../shared/testdata/chess/fide_ratings/README.md``). The log knows what arrived after which
list: a tournament is *recorded* at the log position of its first rated result, a list at the
position where it entered the log (imported, or published by a run, whichever came first).

:func:`late_reports` is the one decision, called by every run (`arbiter ratings run`, the
scheduled job): a tournament that ended before the list the run updates and was recorded after
that list entered the log is rated late, now. One recorded before it is taken as already in it
(a federation that ingests its history first never re-rates it). The officer's overrides:
``late`` names a tournament the list did not take although it was recorded before it (never
sent to FIDE in time), ``not_late`` one it did take although recorded after it.

Pure: the state of the log (positions), the overrides; no store, no clock.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from typing import Literal

from events.errors import braced
from ratings.lists import ListRequestError

__all__ = ["LateReport", "ListEntered", "RecordedTournament", "late_reports"]


@dataclass(frozen=True, slots=True)
class RecordedTournament:
    """A tournament as the log holds it: its first and last day, and the log position of its
    first rated result."""

    event: str
    start: dt.date
    end: dt.date
    recorded: int


@dataclass(frozen=True, slots=True)
class ListEntered:
    """The list a run updates (the list in force at the run): its date, the log position where
    it entered the log (imported or published), and the date of the earliest list imported."""

    date: dt.date
    position: int
    earliest: dt.date


@dataclass(frozen=True, slots=True)
class LateReport:
    """A tournament the run rates late, and why: recorded after the list (``log``) or named by
    the officer (``named``)."""

    event: str
    end: dt.date
    reason: Literal["log", "named"]


def _checked_names(
    option: str, names: Collection[str], by_event: dict[str, RecordedTournament], before: dt.date
) -> None:
    for event in sorted(names):
        found = by_event.get(event)
        if found is None:
            raise ListRequestError.naming(
                "{0}: " + braced(f"found tournament {event!r}, expected a tournament of the run"),
                option,
            )
        if found.end >= before:
            raise ListRequestError.naming(
                "{0}: "
                + braced(
                    f"tournament {event!r} ended on {found.end}, in the period of a list this "
                    f"run computes; expected a tournament that ended before {before}"
                ),
                option,
            )


def late_reports(
    tournaments: Iterable[RecordedTournament],
    *,
    in_force: ListEntered,
    late: Collection[str],
    not_late: Collection[str],
) -> tuple[LateReport, ...]:
    """The tournaments a run that updates the list ``in_force`` rates late, by event name.

    A tournament that ended before ``in_force.date`` is late when it was recorded after that
    list entered the log (``recorded > in_force.position``), or when named in ``late``; not
    when named in ``not_late``.

    >>> sept = ListEntered(dt.date(2026, 9, 1), position=10, earliest=dt.date(2026, 8, 1))
    >>> day = dt.date
    >>> history = RecordedTournament("history", day(2026, 8, 2), day(2026, 8, 9), recorded=4)
    >>> reported = RecordedTournament("reported", day(2026, 8, 21), day(2026, 8, 30), 12)
    >>> current = RecordedTournament("current", day(2026, 9, 5), day(2026, 9, 12), recorded=13)
    >>> found = [history, reported, current]
    >>> [r.event for r in late_reports(found, in_force=sept, late=(), not_late=())]
    ['reported']
    >>> [r.reason for r in late_reports(found, in_force=sept, late=["history"], not_late=())]
    ['named', 'log']
    >>> late_reports(found, in_force=sept, late=(), not_late=["reported"])
    ()

    :raises ListRequestError: a name that is not a tournament of the run, or one that ended in
        the run's own period; a name given both ways; a late tournament that started before
        the earliest imported list (no list in force at its start).
    """
    by_event = {t.event: t for t in tournaments}
    both = sorted(set(late) & set(not_late))
    if both:
        raise ListRequestError.naming(
            "{0}, {1}: " + braced(f"found tournament {both[0]!r} in both, expected one"),
            "late",
            "not_late",
        )
    _checked_names("late", late, by_event, in_force.date)
    _checked_names("not_late", not_late, by_event, in_force.date)
    found: list[LateReport] = []
    for event in sorted(by_event):
        t = by_event[event]
        if t.end >= in_force.date or event in not_late:
            continue
        if event in late:
            found.append(LateReport(event, t.end, "named"))
        elif t.recorded > in_force.position:
            found.append(LateReport(event, t.end, "log"))
        else:
            continue
        if t.start < in_force.earliest:
            raise ListRequestError.naming(
                braced(
                    f"tournament {event!r} (ended {t.end}) was reported after the list of "
                    f"{in_force.date}: rated late, from the list in force at its start "
                    f"({t.start}), but the earliest imported list is of {in_force.earliest}; "
                    "import the list of its start, or give "
                )
                + "{0} "
                + braced(repr(event)),
                "not_late",
            )
    return tuple(found)
