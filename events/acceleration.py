"""Baku acceleration (FIDE C.04.7): the virtual points a player carries for pairing only.

Written once here: the pairing engines add them to the scores they pair on
(`pairing.swiss.acceleration`), the TRF export writes them as ``XXA`` records, and the pairing
listings show them; the standings never count them.
"""

from __future__ import annotations

from typing import TypeVar

__all__ = ["baku_points"]

Points = TypeVar("Points")
"""The scoring's type for points (floats in the log, Decimals in the engines)."""


def baku_points(
    index: int, players: int, total_rounds: int, win: Points, draw: Points
) -> tuple[Points, ...]:
    """Virtual points of the player at ``index`` (0-based, in pairing-number order among
    ``players``) in each accelerated round, round 1 first; ``()`` for the lower half.

    The top half (pairing numbers 1..ceil(n/2)) gets a win's points in the first half of the
    accelerated rounds and a draw's in the second; the accelerated rounds are the first half of
    the tournament (as bbpPairings applies C.04.7). Nine rounds, 1/½/0 scoring:

    >>> baku_points(0, 10, 9, 1.0, 0.5)
    (1.0, 1.0, 1.0, 0.5, 0.5)
    >>> baku_points(4, 10, 9, 1.0, 0.5), baku_points(5, 10, 9, 1.0, 0.5)
    ((1.0, 1.0, 1.0, 0.5, 0.5), ())
    """
    if index > (players - 1) // 2:
        return ()
    last_round = (total_rounds - 1) // 2
    last_full = last_round // 2
    return tuple(win if r <= last_full else draw for r in range(last_round + 1))
