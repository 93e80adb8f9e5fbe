"""Go ranks as integers, shared by readers, projections and the go pairing engines.

Ranks are integers as OpenGotha keeps them: 30k = -30 ... 1k = -1, 1d = 0 ... 9d = 8.
"""

from __future__ import annotations

import re

from events.errors import UserError

__all__ = [
    "MAX_RANK",
    "MIN_RANK",
    "RankError",
    "format_rank",
    "parse_rank",
]

MIN_RANK = -30
MAX_RANK = 8


class RankError(UserError):
    """Text that is not a go rank, or a rank outside 30k..9d."""


_RANK = re.compile(r"\s*(\d{1,2})\s*([kKdD])\s*")


def parse_rank(text: str) -> int:
    """The integer rank of ``"3d"``, ``"20K"`` ...; ``ValueError`` when out of 30k..9d.

    >>> parse_rank("1d"), parse_rank("1k"), parse_rank("30K"), parse_rank("9D")
    (0, -1, -30, 8)
    """
    match = _RANK.fullmatch(text)
    if match is None:
        raise RankError(f"not a go rank: {text!r} (expected 30k..1k or 1d..9d)")
    number = int(match.group(1))
    kyu = match.group(2) in "kK"
    rank = -number if kyu else number - 1
    if number < 1 or not MIN_RANK <= rank <= MAX_RANK:
        raise RankError(f"go rank out of range: {text!r} (expected 30k..1k or 1d..9d)")
    return rank


def format_rank(rank: int) -> str:
    """OpenGotha's spelling of a rank: ``"3D"``, ``"20K"``.

    >>> format_rank(2), format_rank(-20)
    ('3D', '20K')
    """
    if not MIN_RANK <= rank <= MAX_RANK:
        raise RankError(f"go rank out of range: {rank} (expected {MIN_RANK}..{MAX_RANK})")
    return f"{rank + 1}D" if rank >= 0 else f"{-rank}K"
