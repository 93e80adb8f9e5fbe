"""Shared input and output model of the Swiss pairing systems (Dutch, Burstein)."""

from pairing.swiss.model import (
    Colour,
    HistoryEntry,
    Result,
    Scoring,
    SwissInput,
    SwissPlayer,
    SwissRound,
)

__all__ = [
    "Colour",
    "HistoryEntry",
    "Result",
    "Scoring",
    "SwissInput",
    "SwissPlayer",
    "SwissRound",
]
