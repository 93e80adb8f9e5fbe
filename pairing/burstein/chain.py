"""Proof that the scoregroups built so far can be paired, found greedily (no solve).

While the Burstein engine builds its scoregroups (`pairing.burstein.engine._build_groups`),
each solve only asks whether an optimal matching pairs every scoregroup with at most one
floater across each boundary. The edges join a scoregroup to itself and, across a boundary
after an odd number of players, to the next one (or, below the last, to a virtual opponent).
A matching that pairs every player and crosses each such boundary exactly once reaches the
most pairs with the fewest floaters, a bound no matching passes: so it is optimal, and so is
every optimal matching shaped the same way, which is what the solve would check. This module
looks for one such matching greedily; when it finds none, the engine solves as before.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import pairwise

__all__ = ["pair_chain"]


def pair_chain(
    bounds: list[int], virtual: int | None, weight: Callable[[int, int], int]
) -> list[tuple[int, int]] | None:
    """The pairs of a matching of the players ``bounds[0]`` to ``bounds[-1] - 1`` (and of
    ``virtual``, the last scoregroup's virtual opponent, if any) that pairs every one of them
    and crosses each boundary ``bounds[1:-1]`` (all after an odd number of players) exactly
    once, and the last one only to ``virtual``; None if the greedy search finds none."""
    pairs: list[tuple[int, int]] = []
    incoming = None
    last = len(bounds) - 2
    for k, (low, high) in enumerate(pairwise(bounds)):
        vertices = [v for v in range(low, high) if v != incoming]
        found = _pair_within(vertices, weight)
        if found is None:
            return None
        inner, left = found
        pairs += inner
        if k < last or virtual is not None:
            if len(left) != 1:
                return None
            floater = left[0]
            if k < last:
                incoming = next((u for u in range(high, bounds[k + 2]) if weight(floater, u)), None)
            elif virtual is not None and weight(floater, virtual):
                incoming = virtual
            if incoming is None:
                return None
            pairs.append((floater, incoming))
        elif left:
            return None
    return pairs


# A greedy pass that leaves more players than this over goes to the solve.
_REPAIRS = 4


def _pair_within(
    vertices: list[int], weight: Callable[[int, int], int]
) -> tuple[list[tuple[int, int]], list[int]] | None:
    """Pairs of ``vertices`` found greedily (each with the first free one after it that it has
    an edge to, then left-over players two by two through one pair), and the players left
    over (at most one); None if more are left."""
    mate: dict[int, int] = {}
    left: list[int] = []
    for i, v in enumerate(vertices):
        if v in mate:
            continue
        for u in vertices[i + 1 :]:
            if u not in mate and weight(v, u):
                mate[v] = u
                mate[u] = v
                break
        else:
            left.append(v)
    if len(left) > _REPAIRS:
        return None
    while len(left) > 1:
        if not _augment(left, mate, weight):
            return None
    return [(a, b) for a, b in mate.items() if a < b], left


def _augment(left: list[int], mate: dict[int, int], weight: Callable[[int, int], int]) -> bool:
    """Pair two left-over players, directly or as a-x and y-b instead of a pair x-y."""
    for i, a in enumerate(left):
        for b in left[i + 1 :]:
            if weight(a, b):
                mate[a], mate[b] = b, a
            else:
                swap = next(
                    ((x, y) for x, y in mate.items() if weight(a, x) and weight(y, b)), None
                )
                if swap is None:
                    continue
                x, y = swap
                mate[a], mate[x], mate[y], mate[b] = x, a, b, y
            left.remove(a)
            left.remove(b)
            return True
    return False
