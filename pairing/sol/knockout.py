"""SoL's knockout: a seeded first round, then winners of consecutive boards meet."""

from __future__ import annotations

from collections.abc import Sequence

from pairing.sol.model import SolCompetitor, SolError

__all__ = ["first_round", "sol_bracket"]


def sol_bracket(size: int) -> list[int]:
    """Seeds in SoL's board order: each seed p of the half-size list becomes (p, size+1-p),
    flipped on every other slot, so 8 gives 1-8, 4-5, 3-6, 2-7 (pairs in consecutive slots).

    >>> sol_bracket(8)
    [1, 8, 5, 4, 3, 6, 7, 2]
    """
    if size < 2 or size & (size - 1):
        raise SolError(f"a knockout needs a power of two competitors, got {size}")
    seeds = [1, 2]
    while len(seeds) < size:
        total = 2 * len(seeds) + 1
        seeds = [
            x
            for i, p in enumerate(seeds)
            for x in ((p, total - p) if i % 2 == 0 else (total - p, p))
        ]
    return seeds


def first_round(competitors: Sequence[SolCompetitor]) -> list[tuple[SolCompetitor, SolCompetitor]]:
    """Seeded by rate (when rated) and seed position; the stronger seed first on each board."""
    ordered = sorted(competitors, key=lambda c: -(c.rate or 0))
    ordered.sort(key=lambda c: c.position)
    slots = sol_bracket(len(ordered))
    pairs = []
    for a, b in zip(slots[0::2], slots[1::2], strict=True):
        hi, lo = min(a, b), max(a, b)
        pairs.append((ordered[hi - 1], ordered[lo - 1]))
    return pairs
