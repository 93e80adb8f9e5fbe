"""A small valid WOF .ELO file (two games of one round) for tests that need one to land."""

from __future__ import annotations

__all__ = ["small_elo"]

_SMALL = """%%Tournament: {name}
%%Country: Netherlands
%%Date: 05/01/2019
%%Sender: Test

% Round 1
  5071 (37)>(27) 120052
  5105 (33)<(31)   4012
"""


def small_elo(name: str) -> str:
    """The file's text, its tournament called ``name``."""
    return _SMALL.format(name=name)
