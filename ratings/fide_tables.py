"""FIDE rating tables (Rating Regulations 8.1): score percentage ↔ rating difference.

The one copy of both tables, in hundredths and whole rating points, for every layer that
needs them: the FIDE rating arithmetic (:mod:`ratings.fide_run`) and the rating-based tie-breaks
(``projections.tiebreaks.performance``). Both are built from the published band limits
instead of being typed out in full (ratings.md §3.3).
"""

from __future__ import annotations

from bisect import bisect_left

__all__ = ["dp_for_percent", "expected_percent", "expected_score_percent"]

# Table 8.1b: upper rating difference D of each expected-score band PD = .50, .51, …, .99;
# a difference above the last limit gives 1.00.
_PD_UPPER = (
    3, 10, 17, 25, 32, 39, 46, 53, 61, 68,
    76, 83, 91, 98, 106, 113, 121, 129, 137, 145,
    153, 162, 170, 179, 188, 197, 206, 215, 225, 235,
    245, 256, 267, 278, 290, 302, 315, 328, 344, 357,
    374, 391, 411, 432, 456, 484, 517, 559, 619, 735,
)  # fmt: skip

# Table 8.1a: rating difference dp for a fractional score p = .50, .51, …, 1.00 (p below .50
# is symmetric, negative).
_DP_FROM_HALF = (
    0, 7, 14, 21, 29, 36, 43, 50, 57, 65,
    72, 80, 87, 95, 102, 110, 117, 125, 133, 141,
    149, 158, 166, 175, 184, 193, 202, 211, 220, 230,
    240, 251, 262, 273, 284, 296, 309, 322, 336, 351,
    366, 383, 401, 422, 444, 470, 501, 538, 589, 677,
    800,
)  # fmt: skip


def expected_percent(diff: int) -> int:
    """Table 8.1b: expected score in hundredths of the higher-rated side of a ``diff`` gap.

    >>> expected_percent(0), expected_percent(-4), expected_percent(100), expected_percent(736)
    (50, 51, 64, 100)
    """
    return 50 + bisect_left(_PD_UPPER, abs(diff))


def expected_score_percent(own: int, opponent: int) -> int:
    """Expected score (hundredths) of a player rated ``own`` against ``opponent``.

    >>> expected_score_percent(1600, 2000), expected_score_percent(2000, 1600)
    (8, 92)
    """
    pd = expected_percent(own - opponent)
    return pd if own >= opponent else 100 - pd


def dp_for_percent(percent: int) -> int:
    """Table 8.1a: the rating difference for a score percentage 0..100.

    >>> dp_for_percent(50), dp_for_percent(75), dp_for_percent(10), dp_for_percent(100)
    (0, 193, -366, 800)
    """
    if not 0 <= percent <= 100:
        raise ValueError(f"score percentage: found {percent}, expected 0..100")
    if percent >= 50:
        return _DP_FROM_HALF[percent - 50]
    return -_DP_FROM_HALF[50 - percent]
