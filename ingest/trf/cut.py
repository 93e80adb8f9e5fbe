"""A TRF file as it stood before a round was paired: the input a checker re-pairs that round
from (``arbiter-pairings -c``, the reference-corpus tests)."""

from __future__ import annotations

from dataclasses import replace

from events.domain import Colour
from events.result_codes import ResultCode
from ingest.trf.records import (
    InitialColourRecord,
    PlayerRecord,
    Record,
    TotalRoundsRecord,
    TrfFile,
)

__all__ = ["cut_before_round"]

_NOT_PAIRED = frozenset(
    {ResultCode.HALF_BYE, ResultCode.FULL_BYE, ResultCode.ZERO_BYE, ResultCode.BLANK}
)


def cut_before_round(trf: TrfFile, k: int, total_rounds: int, initial_colour: Colour) -> TrfFile:
    """The file as it stood before round ``k`` was paired (formats.md 2.8).

    Player records keep rounds 1..k-1 plus a round-k block only when it is a requested bye
    (``H``, ``F``, ``Z`` or blank without opponent); the points field is dropped (the reader
    treats a blank points field as unchecked); ``XXR`` and ``152`` are appended.
    """
    records: list[Record] = []
    for record in trf.records:
        if isinstance(record, PlayerRecord):
            rounds = list(record.rounds[: k - 1])
            if len(record.rounds) >= k:
                entry = record.rounds[k - 1]
                if entry.opponent is None and entry.result in _NOT_PAIRED:
                    rounds.append(entry)
            records.append(record._replace(rounds=tuple(rounds), points=None))
        elif not isinstance(record, TotalRoundsRecord | InitialColourRecord):
            records.append(record)
    records += [TotalRoundsRecord("XXR", total_rounds), InitialColourRecord(initial_colour)]
    return replace(trf, records=tuple(records))
