"""Whether the players not yet paired can still all be paired (C.4, the completion criterion).

Shared by the engines that pair a bracket without seeing the whole round (Dutch 2017, Dubov).
The 2017 engine pairs a bracket seeing only that bracket and the next score group; after each
bracket it asks whether the round can still be completed: every player still unpaired meets a
compatible opponent, except one player eligible for the PAB when the count is odd. When not,
the bracket was the penultimate pairing bracket (PPB) and is paired again together with all the
players below (pairing.md 2.3).

The answer is a maximum-cardinality matching of the compatibility graph. A complete matching is
kept between questions and repaired after pairs are fixed (the players who lost their mate look
for a free compatible player, then for one whose mate can move to another free player); only
when that fails is the whole graph solved exactly (:func:`pairing.swiss.matching.solve`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from pairing.swiss.matching import solve

__all__ = ["Completion"]


class Completion:
    """The compatibility graph of the round's players and a complete matching of it."""

    def __init__(
        self, size: int, compatible: Callable[[int, int], bool], eligible: Sequence[bool]
    ) -> None:
        """Players are ``0..size-1``; ``eligible[v]``: may receive the PAB (C.2)."""
        self._compatible = compatible
        self._eligible = list(eligible)
        self._bye = size if size % 2 else None
        """The virtual PAB vertex, with an odd number of players."""
        self._free = set(range(size))
        """Players not fixed in a pair."""
        self._mate: dict[int, int] = {}

    def _edge(self, a: int, b: int) -> bool:
        if a == self._bye:
            return self._eligible[b]
        if b == self._bye:
            return self._eligible[a]
        return self._compatible(a, b)

    def completes(self, fixed: Sequence[tuple[int, int]] = ()) -> bool:
        """Whether the round can be completed once the pairs ``fixed`` are fixed too; the
        pairs are kept only when it can."""
        free = self._free.difference(v for pair in fixed for v in pair)
        vertices = sorted(free) + ([] if self._bye is None else [self._bye])
        mate = {v: m for v, m in self._mate.items() if v in free or v == self._bye}
        mate = {v: m for v, m in mate.items() if m in mate}
        if not self._repair(vertices, mate) and not self._exact(vertices, mate):
            return False
        self._free, self._mate = free, mate
        return True

    def _repair(self, vertices: list[int], mate: dict[int, int]) -> bool:
        """Complete ``mate`` greedily (False proves nothing)."""
        unmatched = [v for v in vertices if v not in mate]
        for v in unmatched:
            if v in mate:
                continue
            partner = next(
                (u for u in vertices if u != v and u not in mate and self._edge(v, u)), None
            )
            if partner is not None:
                mate[v], mate[partner] = partner, v
                continue
            # v takes x's place: x's mate y, now alone, takes a free u.
            for x in vertices:
                y = mate.get(x)
                if y is None or x == v or not self._edge(v, x):
                    continue
                u = next(
                    (u for u in vertices if u not in mate and u not in (v, y) and self._edge(y, u)),
                    None,
                )
                if u is not None:
                    mate[v], mate[x], mate[y], mate[u] = x, v, u, y
                    break
            else:
                return False
        return True

    def _exact(self, vertices: list[int], mate: dict[int, int]) -> bool:
        """A maximum-cardinality matching of the whole graph, into ``mate``."""
        edges = [
            (i, j, 1)
            for i, a in enumerate(vertices)
            for j in range(i)
            if self._edge(a, vertices[j])
        ]
        found = solve(vertices, edges, perfect=True, engine="rustworkx")
        if 2 * len(found) < len(vertices):
            return False
        mate.clear()
        for a, b in found:
            mate[a], mate[b] = b, a
        return True
