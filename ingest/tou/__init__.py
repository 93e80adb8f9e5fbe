"""The French federation's ``.tou`` result files.

``records`` holds the typed lines, ``reader`` turns a file into them (`parse_tou`) and
``to_events`` into a tournament's events (`tou_to_events`, through ``ingest.go_table``). The
writer is ``projections.exports.tou``.
"""

from ingest.tou.reader import parse_tou
from ingest.tou.records import TouComment, TouEntry, TouFile, TouHeader, TouPlayer, tou_cell
from ingest.tou.to_events import tou_to_events

__all__ = [
    "TouComment",
    "TouEntry",
    "TouFile",
    "TouHeader",
    "TouPlayer",
    "parse_tou",
    "tou_cell",
    "tou_to_events",
]
