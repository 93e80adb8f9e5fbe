"""The limits a published rating list is held to, beside those of every input
(`ingest.limits`: free text, ids, ratings).

A list is no result file: FIDE's combined XML is about a gigabyte, so a list has its own size
limit, and it is read as a stream, never whole.
"""

from __future__ import annotations

from events.go import AGA_RATING_RANGE
from ingest.limits import MAX_ID_LENGTH, MAX_TEXT

__all__ = [
    "AGA_RATING",
    "BIRTH_YEARS",
    "GOR_RANGE",
    "MAX_ELEMENT_BYTES",
    "MAX_GAMES",
    "MAX_ID_LENGTH",
    "MAX_K",
    "MAX_LINE_BYTES",
    "MAX_LIST_BYTES",
    "MAX_LIST_PLAYERS",
    "MAX_RATING",
    "MAX_TEXT",
]

MAX_RATING = 4000
"""A rating on a published list (FIDE's highest ever is 2882, a GoR about 3000): a value
beyond it (10^9) is a shifted or broken column, refused naming the column."""
MAX_LIST_BYTES = 4 * 1024 * 1024 * 1024
"""A list file: FIDE's combined XML of every player is about 1 GB uncompressed."""
MAX_LIST_PLAYERS = 5_000_000
"""Players of one list (FIDE's combined list holds about 1.2 million)."""
MAX_GAMES = 1000
"""Games a player played in one rating period."""
MAX_K = 100
"""A development coefficient (FIDE's are 10, 20 and 40)."""
BIRTH_YEARS = (1850, 2100)
"""A birth year a list may carry (FIDE writes 0 or nothing for an unknown one)."""
GOR_RANGE = (-1000, MAX_RATING)
"""An EGF GoR: 30 kyu is -900, a top professional about 3000."""
AGA_RATING = AGA_RATING_RANGE
"""An AGA rating in stones, as `events.schema.PlayerRegistered.aga_rating` takes it
(`events.go.AGA_RATING_RANGE`)."""
MAX_LINE_BYTES = 64 * 1024
"""A line of a line-based list (FIDE TXT, EGD, AGA, CSV): a player's row is at most a few hundred
bytes (eleven fields, texts of 200 characters); a longer line is no row, refused where it starts
to be too long, so that a gigabyte without a line end is never held in memory."""
MAX_ELEMENT_BYTES = 64 * 1024
"""A ``<player>`` of FIDE's XML list (about 600 bytes as FIDE writes it), or anything else
between two players (white space, a comment): a longer one (a 150 MB attribute) is refused at
its start once that many bytes of it are read, never parsed."""
