"""The late-report decision (:func:`ratings.late_reports.late_reports`) at its edges: the
positions decide, not the dates of recording; a late tournament needs the list in force at
its start."""

from __future__ import annotations

import datetime as dt

import pytest

from ratings.late_reports import ListEntered, RecordedTournament, late_reports
from ratings.lists import ListRequestError

SEPT = ListEntered(dt.date(2026, 9, 1), position=50, earliest=dt.date(2026, 8, 1))


def _t(event: str, start: str, end: str, recorded: int) -> RecordedTournament:
    return RecordedTournament(
        event, dt.date.fromisoformat(start), dt.date.fromisoformat(end), recorded
    )


def test_log_order_decides() -> None:
    """Recorded at the list's own position or before: in the list; after: late. A tournament
    of the run's period is never late, whenever recorded."""
    found = [
        _t("before", "2026-08-10", "2026-08-12", 49),
        _t("at", "2026-08-10", "2026-08-12", 50),
        _t("after", "2026-08-10", "2026-08-31", 51),
        _t("current", "2026-09-01", "2026-09-03", 99),
    ]
    reports = late_reports(found, in_force=SEPT, late=(), not_late=())
    assert [(r.event, r.end, r.reason) for r in reports] == [("after", dt.date(2026, 8, 31), "log")]


def test_a_late_tournament_needs_the_list_of_its_start() -> None:
    """Recorded after the list, started before the earliest imported list: refused, naming
    the way out; --not-late lets the run go on."""
    old = [_t("old", "2026-07-30", "2026-08-02", 60)]
    with pytest.raises(ListRequestError) as refused:
        late_reports(old, in_force=SEPT, late=(), not_late=())
    assert str(refused.value) == (
        "tournament 'old' (ended 2026-08-02) was reported after the list of 2026-09-01: rated "
        "late, from the list in force at its start (2026-07-30), but the earliest imported "
        "list is of 2026-08-01; import the list of its start, or give not_late 'old'"
    )
    assert late_reports(old, in_force=SEPT, late=(), not_late=["old"]) == ()
