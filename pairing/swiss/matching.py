"""A maximum-weight matching over a mutable complete graph with exact integer weights.

The Swiss systems fix decisions one at a time and re-solve after each change, as the reference
engine does (pairing.md 2.5). Weights are Python ints, so lexicographic criteria stay exact.
A weight of 0 means "no edge".
"""

from __future__ import annotations

import networkx as nx

__all__ = ["Matcher"]


class Matcher:
    """Symmetric edge weights over ``size`` vertices and the last computed matching."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._weights: list[list[int]] = [[0] * size for _ in range(size)]
        self._mates: list[int] = list(range(size))
        self._dirty = True
        self.solves = 0

    def weight(self, a: int, b: int) -> int:
        """Current weight of edge a-b."""
        return self._weights[a][b]

    def set(self, a: int, b: int, weight: int) -> None:
        """Set the weight of edge a-b (0 removes it)."""
        if self._weights[a][b] != weight:
            self._weights[a][b] = weight
            self._weights[b][a] = weight
            self._dirty = True

    def solve(self) -> list[int]:
        """A maximum-weight matching: each vertex's mate, or the vertex itself if unmatched."""
        if self._dirty:
            graph = nx.Graph()
            graph.add_nodes_from(range(self.size))
            rows = self._weights
            graph.add_weighted_edges_from(
                (a, b, rows[a][b]) for a in range(self.size) for b in range(a) if rows[a][b]
            )
            mates = list(range(self.size))
            for a, b in nx.max_weight_matching(graph):
                mates[a] = b
                mates[b] = a
            self._mates = mates
            self._dirty = False
            self.solves += 1
        return list(self._mates)

    def finalize_pair(self, a: int, b: int, weight: int) -> None:
        """Fix a-b: their edge gets ``weight`` and every other edge of a or b becomes 0."""
        for v in range(self.size):
            if v != a:
                self.set(a, v, weight if v == b else 0)
            if v != b:
                self.set(b, v, weight if v == a else 0)
