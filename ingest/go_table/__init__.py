"""Go cross tables, the part the EGF ``.h9`` and FFG ``.tou`` formats share.

``records``: the result cell and name parts of a row; ``reader``: the cross-table checks;
``to_events``: a table's rows as a tournament's events (`go_table_to_events`).
"""

from ingest.go_table.reader import check_cross_table
from ingest.go_table.records import GameResult, GoCell, name_parts, parse_cell
from ingest.go_table.to_events import GoRow, go_table_to_events

__all__ = [
    "GameResult",
    "GoCell",
    "GoRow",
    "check_cross_table",
    "go_table_to_events",
    "name_parts",
    "parse_cell",
]
