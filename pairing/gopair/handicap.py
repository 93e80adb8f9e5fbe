"""AGA handicap and komi of a pair, as Games::Go::AGATourn computes them.

The table is applied to the difference of collapsed ratings in binary floating point, exactly
as the Perl code does: a 3.3-stone gap gives 3.3/1.1 = 2.999... and so 2 stones. Reproducing
that arithmetic keeps our boards identical to gopair's.

| difference | handicap | komi (AGA) | komi (ING) |
|---|---|---|---|
| <= 0.65 | 0 | 6 | 7 |
| <= 1.25 | 0 | 0 | -1 |
| <= 2.2 | 0 | -6 | -7 |
| more | int(diff / 1.1) | 0 | 0 |
"""

from __future__ import annotations

from decimal import Decimal

from pairing.gopair.score import perl_collapse

__all__ = ["handicap", "komi_points"]


def handicap(first: Decimal, second: Decimal, *, ing: bool = False) -> tuple[int, int]:
    """(handicap, komi) for ``first`` as White; a negative handicap means swap the colours.

    >>> handicap(Decimal("-2.8"), Decimal("-6.1"))
    (2, 0)
    >>> handicap(Decimal("1.5"), Decimal("3.5"))
    (-1, -6)
    """
    diff = perl_collapse(first) - perl_collapse(second)
    swap = 1
    stones = 0
    if diff < 0:
        swap = stones = -1
        diff = -diff
    if diff <= 0.65:
        komi = 7 if ing else 6
    elif diff <= 1.25:
        komi = -1 if ing else 0
    elif diff <= 2.2:
        komi = -7 if ing else -6
    else:
        stones = swap * int(diff / 1.1)
        komi = 0
    return stones, komi


def komi_points(komi: int) -> float:
    """The komi a game is played with: gopair's integer plus the half point it implies, away
    from zero, as gopair's pairing sheet prints it (``6.5 komi``, ``0.5 komi``, ``-6.5 rvrs``).

    >>> komi_points(6), komi_points(0), komi_points(-6)
    (6.5, 0.5, -6.5)
    """
    return komi - 0.5 if komi < 0 else komi + 0.5
