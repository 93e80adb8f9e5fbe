"""OpenGotha tournament XML files.

``records`` holds the typed elements, ``reader`` turns a file into them (`read_opengotha`) and
``to_events`` into a tournament's events (`opengotha_to_events`). The writer is
``projections.exports.opengotha``; the adapter to the Mac-Mahon engine is
``pipelines.engines.macmahon_from_opengotha``.
"""

from ingest.opengotha.reader import read_opengotha, read_opengotha_bytes
from ingest.opengotha.records import (
    ClubsGroup,
    GeneralParameters,
    GoResult,
    HandicapParameters,
    OGBoard,
    OGBye,
    OGGame,
    OGPlayer,
    OGTeam,
    OGTournament,
    PairingParameters,
    RawElement,
    player_key,
    rating_from_rank,
)
from ingest.opengotha.to_events import opengotha_to_events

__all__ = [
    "ClubsGroup",
    "GeneralParameters",
    "GoResult",
    "HandicapParameters",
    "OGBoard",
    "OGBye",
    "OGGame",
    "OGPlayer",
    "OGTeam",
    "OGTournament",
    "PairingParameters",
    "RawElement",
    "opengotha_to_events",
    "player_key",
    "rating_from_rank",
    "read_opengotha",
    "read_opengotha_bytes",
]
