"""TRF file → events: ``ingest.trf_events`` does the replay; this adds the points check.

The ``001`` points column must equal the sum of the player's results under the file's scoring
(formats.md §1.3); real files break the rule (Bunratty byes written without a code), so a
difference is a warning, or an error in strict mode.
"""

from __future__ import annotations

from decimal import Decimal

from events.schema import ResultRecorded
from ingest.events_common import Conversion, PointsCheck, check_points
from ingest.trf import TrfFile
from ingest.trf_events import trf_to_events
from projections.state import project

__all__ = ["trf_file_to_events"]

_POINTS_COLUMN = 81


def trf_file_to_events(trf: TrfFile, *, strict: bool = False) -> Conversion:
    """The tournament stream of a parsed TRF, with its points column checked.

    :raises IngestError: an unknown opponent, or ``strict`` and a points column that differs.
    """
    events = trf_to_events(trf)
    state = project(events)
    checks = []
    for p in trf.players:
        if p.points is None or p.number not in state.players:
            continue
        computed = Decimal(str(state.points(p.number)))
        if computed != p.points:
            checks.append(PointsCheck(p.line, _POINTS_COLUMN, p.name, p.points, computed))
    warnings = list(trf.warnings) + check_points(trf.path, checks, strict=strict)
    games = sum(1 for e in events if isinstance(e, ResultRecorded))
    return Conversion(list(events), {}, warnings, games=games)
