"""The errors the Swiss engines share (Dutch, Dutch 2017, Burstein)."""

from __future__ import annotations

from events.errors import PairingError

__all__ = ["NoValidPairingError"]


class NoValidPairingError(PairingError):
    """No pairing of the round satisfies the absolute criteria."""
