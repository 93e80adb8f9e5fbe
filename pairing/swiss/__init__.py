"""Shared core of the Swiss pairing systems (Dutch, Dutch 2017, Burstein, Dubov, team Swiss):
input and output model, errors, and the one matching entry point
(:func:`pairing.swiss.matching.solve`)."""

from pairing.swiss.errors import NoValidPairingError
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
    "NoValidPairingError",
    "Result",
    "Scoring",
    "SwissInput",
    "SwissPlayer",
    "SwissRound",
]
