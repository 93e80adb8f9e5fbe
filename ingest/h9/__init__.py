"""EGF/EGD tournament tables (``.h9``).

``records`` holds the typed lines, ``reader`` turns a file into them (`parse_h9`) and
``to_events`` into a tournament's events (`h9_to_events`). The result cells, name parts and
cross-table checks are shared with ``.tou`` in ``ingest.go_table``. The writer is
``projections.exports.h9``.
"""

from ingest.h9.reader import parse_h9
from ingest.h9.records import H9Comment, H9Entry, H9File, H9Player, H9Tag
from ingest.h9.to_events import h9_to_events

__all__ = [
    "H9Comment",
    "H9Entry",
    "H9File",
    "H9Player",
    "H9Tag",
    "h9_to_events",
    "parse_h9",
]
