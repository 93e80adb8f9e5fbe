"""The error of one player's row of a rating list."""

from __future__ import annotations

from ingest.errors import IngestError

__all__ = ["ListRowError"]


class ListRowError(IngestError):
    """One player's row of a rating list is wrong (a rating of 10^9, a shifted column, a
    repeated id). ``arbiter ratings import --skip-bad-lines`` leaves such rows out and imports
    the rest; an error anywhere else (the header, a truncated file) refuses the file whole."""
