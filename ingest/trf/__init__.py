"""The FIDE Tournament Report File (TRF16, TRF-2026, JaVaFo's XX* and bbpPairings' BB* lines).

``records`` holds the typed lines, ``reader`` turns a file into them (`parse_trf`) and
``to_events`` replays them as a tournament's events (`trf_to_events`), ``cut`` cuts a file back
to before a round (`cut_before_round`). The writer is ``projections.exports.trf``; the adapters
to the Swiss engines are ``pipelines.engines.swiss_from_trf`` and ``team_from_trf``.
"""

from typing import TYPE_CHECKING, Any

from ingest.trf.cut import cut_before_round
from ingest.trf.reader import parse_trf
from ingest.trf.records import (
    TEAM_CODES,
    AccelerationRecord,
    BbRecord,
    ByesRecord,
    CommentRecord,
    ForbiddenPairsRecord,
    HeaderRecord,
    InitialColourRecord,
    InPlayRecord,
    PlayerRecord,
    RawRecord,
    Record,
    RoundEntry,
    ScoringRecord,
    TieBreakRecord,
    TotalRoundsRecord,
    TrfFile,
    XxaRecord,
    XxcRecord,
    XxpRecord,
    XxsRecord,
    XxzRecord,
    round_block_start,
)

if TYPE_CHECKING:
    from ingest.trf.to_events import trf_scoring, trf_system, trf_to_events

_TO_EVENTS = frozenset({"trf_scoring", "trf_system", "trf_to_events"})


def __getattr__(name: str) -> Any:
    """The replay into events (`to_events`) loads the event schemas, which pairing a file
    (``arbiter-pairings``) never needs: it is imported when first asked for."""
    if name in _TO_EVENTS:
        from ingest.trf import to_events

        return getattr(to_events, name)
    raise AttributeError(f"module 'ingest.trf' has no attribute {name!r}")


__all__ = [
    "TEAM_CODES",
    "AccelerationRecord",
    "BbRecord",
    "ByesRecord",
    "CommentRecord",
    "ForbiddenPairsRecord",
    "HeaderRecord",
    "InPlayRecord",
    "InitialColourRecord",
    "PlayerRecord",
    "RawRecord",
    "Record",
    "RoundEntry",
    "ScoringRecord",
    "TieBreakRecord",
    "TotalRoundsRecord",
    "TrfFile",
    "XxaRecord",
    "XxcRecord",
    "XxpRecord",
    "XxsRecord",
    "XxzRecord",
    "cut_before_round",
    "parse_trf",
    "round_block_start",
    "trf_scoring",
    "trf_system",
    "trf_to_events",
]
