"""FIDE rating tables (Handbook B.02, 8.1): score percentage ↔ rating difference.

Both tables are built from the published band limits instead of being typed out in full.
"""

from __future__ import annotations

from bisect import bisect_left

# Upper rating difference of each expected-score band .50, .51, ..., .99 (B.02 table 8.1.2);
# differences above the last limit give 1.00.
_PD_UPPER = (
    3, 10, 17, 25, 32, 39, 46, 53, 61, 68,
    76, 83, 91, 98, 106, 113, 121, 129, 137, 145,
    153, 162, 170, 179, 188, 197, 206, 215, 225, 235,
    245, 256, 267, 278, 290, 302, 315, 328, 344, 357,
    374, 391, 411, 432, 456, 484, 517, 559, 619, 735,
)  # fmt: skip

# Rating difference dp for a fractional score p = .50, .51, ..., 1.00 (B.02 table 8.1.1).
_DP_FROM_HALF = (
    0, 7, 14, 21, 29, 36, 43, 50, 57, 65,
    72, 80, 87, 95, 102, 110, 117, 125, 133, 141,
    149, 158, 166, 175, 184, 193, 202, 211, 220, 230,
    240, 251, 262, 273, 284, 296, 309, 322, 336, 351,
    366, 383, 401, 422, 444, 470, 501, 538, 589, 677,
    800,
)  # fmt: skip


def expected_percent(diff: int) -> int:
    """Expected score in hundredths for the higher-rated side of a `diff` rating gap."""
    return 50 + bisect_left(_PD_UPPER, min(abs(diff), 800))


def expected_score_percent(own: int, opponent: int) -> int:
    """Expected score (hundredths) of a player rated `own` against `opponent`."""
    pd = expected_percent(own - opponent)
    return pd if own >= opponent else 100 - pd


def dp_for_percent(percent: int) -> int:
    """Rating difference for a score percentage 0..100."""
    if percent >= 50:
        return _DP_FROM_HALF[percent - 50]
    return -_DP_FROM_HALF[50 - percent]
