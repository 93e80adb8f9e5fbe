"""World Othello Federation result files (``.ELO``).

``records`` holds the typed entries, ``reader`` turns a file into them (`parse_elo`) and
``to_events`` turns them into a tournament's events (`elo_to_events`). The writer is
``projections.exports.elo``.
"""

from ingest.elo.reader import parse_elo, parse_elo_date, parse_file_name
from ingest.elo.records import (
    ANONYMOUS,
    HEADER_KEYS,
    UNKNOWN_ID,
    EloComment,
    EloEntry,
    EloFile,
    EloGame,
    EloHeader,
    EloPlayer,
    Outcome,
)
from ingest.elo.to_events import elo_to_events

__all__ = [
    "ANONYMOUS",
    "HEADER_KEYS",
    "UNKNOWN_ID",
    "EloComment",
    "EloEntry",
    "EloFile",
    "EloGame",
    "EloHeader",
    "EloPlayer",
    "Outcome",
    "elo_to_events",
    "parse_elo",
    "parse_elo_date",
    "parse_file_name",
]
