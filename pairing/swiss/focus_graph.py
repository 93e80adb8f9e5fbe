"""The bracket part of a matcher's focus edges, narrowed once and then patched between solves.

Between two solves of one bracket the Swiss engines change a few edges, nearly always in the
low tie-break field. Each edge's bracket weight ``w`` is therefore split at a bit ``s`` into a
high part, narrowed once with :class:`~pairing.swiss.narrowing.Narrowing` and kept, and a small
signed low part ``w - (high << s)`` kept as it is. rustworkx gets::

    (packed_high << S) + (low << spread) + 1

Two matchings then compare by their high sums (the narrowing keeps that order), then by their
low sums, then by their number of pairs, exactly as the exact weights ``(w << spread) + 1``
compare them, as long as a matching's low sum stays below ``2 ** (s - 1)`` in size (so it
cannot reach into the high sums) and below the room ``S`` leaves it. Both are checked on every
solve with a vertex-cover bound; a change that breaks one, or adds an edge the narrowing did not
see, makes :meth:`FocusGraph.solve` return None and the caller builds a new graph.
"""

from __future__ import annotations

import rustworkx as rx

__all__ = ["RUSTWORKX_LIMIT", "FocusGraph"]

# rustworkx computes in i128 with doubled weights and dual sums: 125-bit weights were still
# exact against networkx on random graphs, 126-bit ones overflowed. Keep a bit of margin.
RUSTWORKX_LIMIT = 1 << 124

Key = tuple[int, int]

# Below this many bits for the packed high parts no tighter packing is tried: the rest of the
# 124 bits holds the low parts, the pair count and several of the engines' tie-break fields
# (the Dutch S1 batches). Tighter packing costs a few numpy passes per graph. Since the Dutch S1
# choices are mostly made on assignments (no batches), from 96 bits: Dutch 2017 at 500 / 1,000
# players 0.38 -> 0.36 s / 1.42 -> 1.16 s (best of 5 / 3 runs, same minutes); 104 and 112 bits
# measured the same.
_HIGH_BITS = 96


def _signed_low(weight: int, split: int) -> int:
    """``weight`` modulo ``2 ** split`` as a value in [-2 ** (split - 1), 2 ** (split - 1))."""
    low = weight & ((1 << split) - 1)
    return low - (1 << split) if low >> (split - 1) else low


def _cover_bound(lows: dict[Key, int]) -> int:
    """An upper bound on the sum of ``lows`` over a matching: their maxima on a vertex cover."""
    if not lows:
        return 0
    degree: dict[int, int] = {}
    top: dict[int, int] = {}
    for (a, b), low in lows.items():
        for v in (a, b):
            degree[v] = degree.get(v, 0) + 1
            if low > top.get(v, 0):
                top[v] = low
    chosen: set[int] = set()
    for a, b in lows:
        if a not in chosen and b not in chosen:
            chosen.add(a if degree[a] >= degree[b] else b)
    return sum(top[v] for v in chosen)


class FocusGraph:
    """The focus edges of one bracket as a rustworkx graph with narrowed weights."""

    def __init__(
        self,
        vertices: list[int],
        edges: list[tuple[int, int, int]],
        split: int,
        packed: list[int],
        spread: int,
    ) -> None:
        """``edges`` carry bracket weights; ``packed`` their narrowed high parts."""
        self.vertices = vertices
        self._node = {v: i for i, v in enumerate(vertices)}
        self._split = split
        self._spread = spread
        self._keys: list[Key] = [(a, b) if a < b else (b, a) for a, b, _ in edges]
        self._edge = {key: e for e, key in enumerate(self._keys)}
        self._at: list[list[int]] = [[] for _ in vertices]
        for e, (a, b) in enumerate(self._keys):
            self._at[self._node[a]].append(e)
            self._at[self._node[b]].append(e)
        half = 1 << (split - 1)
        self._high = [(w + half) >> split for _, _, w in edges]
        self._low = [w - (h << split) for (_, _, w), h in zip(edges, self._high, strict=True)]
        self._packed = packed
        self._top_bits = max(packed, default=0).bit_length()
        self._nonzero = {self._keys[e]: abs(low) for e, low in enumerate(self._low) if low}
        self._alive = [True] * len(edges)
        self._removed: set[int] = set()
        self._room = -1
        self._shift = 0
        self._graph: rx.PyGraph[int, int] = rx.PyGraph(multigraph=True)
        self._rx_edge: list[int] = []
        self._loaded = False
        self._stale: set[int] = set()

    @classmethod
    def build(
        cls, vertices: list[int], edges: list[tuple[int, int, int]], low_bits: int
    ) -> FocusGraph | None:
        """The graph of ``edges`` (bracket weights), or None when too wide for rustworkx."""
        split = max(low_bits, 1)
        while True:
            lows: dict[Key, int] = {}
            mask = (1 << split) - 1
            for a, b, w in edges:
                if w & mask:
                    lows[(a, b) if a < b else (b, a)] = abs(_signed_low(w, split))
            if 2 * _cover_bound(lows) < 1 << split:
                break
            split += 1
            if split > low_bits + 64:
                return None
        from pairing.swiss.narrowing import Narrowing  # numpy, a slow import: only when used

        half = 1 << (split - 1)
        narrowing = Narrowing([(a, b, (w + half) >> split) for a, b, w in edges])
        # The plain packing is the cheapest; the tighter ones leave the low part more room.
        packed = narrowing.weights()
        if packed is not None and max(packed, default=0) >= 1 << _HIGH_BITS:
            for tighter in narrowing.tight_weights():  # tight, then deduplicated
                packed = tighter
                if max(packed, default=0) < 1 << _HIGH_BITS:
                    break
        if packed is not None and max(packed, default=0) >= 1 << _HIGH_BITS:
            # Borrowing weights (charged fields) narrow only digit by digit, signed.
            signed = narrowing.signed_weights()
            if signed is not None and max(signed, default=0) < max(packed, default=0):
                packed = signed
        if packed is None:
            return None
        spread = max(len(vertices), 2).bit_length()
        return cls(vertices, edges, split, packed, spread)

    def has(self, v: int) -> bool:
        """Whether vertex ``v`` is still in the graph."""
        node = self._node.get(v)
        return node is not None and node not in self._removed

    def remove_vertex(self, v: int) -> None:
        """Drop ``v`` and its edges (a pair was fixed)."""
        node = self._node[v]
        self._removed.add(node)
        for e in self._at[node]:
            if self._alive[e]:
                self._alive[e] = False
                self._nonzero.pop(self._keys[e], None)
        if self._loaded:
            self._graph.remove_node(node)

    def update(self, key: Key, weight: int) -> bool:
        """Give edge ``key`` (both ends in the graph) the bracket weight ``weight``.

        False when that needs a new graph: an edge the narrowing did not see, or a low part
        too wide for the split.
        """
        e = self._edge.get(key)
        if e is None:
            return weight == 0
        if weight == 0:
            if self._alive[e]:
                self._alive[e] = False
                self._nonzero.pop(key, None)
                if self._loaded:
                    self._graph.remove_edge_from_index(self._rx_edge[e])
            return True
        low = weight - (self._high[e] << self._split)
        if abs(low) >> (self._split - 1):
            return False
        self._low[e] = low
        if low:
            self._nonzero[key] = abs(low)
        else:
            self._nonzero.pop(key, None)
        if not self._alive[e]:
            self._alive[e] = True
            if self._loaded:
                a, b = key
                self._rx_edge[e] = self._graph.add_edge(self._node[a], self._node[b], 0)
        self._stale.add(e)
        return True

    def spare_bits(self) -> int:
        """How wide a matching's low sum may grow and still fit rustworkx beside the packed
        high parts (:meth:`solve` wants two bits of margin in its room)."""
        return RUSTWORKX_LIMIT.bit_length() - 5 - self._top_bits - self._spread

    def _weight(self, e: int) -> int:
        return (self._packed[e] << self._shift) + (self._low[e] << self._spread) + 1

    def solve(self) -> dict[int, int] | None:
        """A maximum-weight matching by vertex, both ways; None if the graph must be rebuilt."""
        reach = _cover_bound(self._nonzero)
        if 2 * reach >= 1 << self._split:
            return None
        if reach > self._room or not self._loaded:
            # The widest room that fits, so that no later solve reloads the graph while its
            # low sums fit that room (the engines' tie-break fields come and go).
            room_bits = RUSTWORKX_LIMIT.bit_length() - 3 - self._top_bits - self._spread
            if max(reach, 1).bit_length() + 2 > room_bits:
                return None
            self._room, self._shift = (1 << room_bits) - 1, self._spread + room_bits + 1
            self._load()
        else:
            graph, rx_edge = self._graph, self._rx_edge
            for e in self._stale:
                if self._alive[e]:
                    graph.update_edge_by_index(rx_edge[e], self._weight(e))
        self._stale.clear()
        vertices = self.vertices
        mates: dict[int, int] = {}
        for a, b in rx.max_weight_matching(self._graph, weight_fn=int):
            mates[vertices[a]] = vertices[b]
            mates[vertices[b]] = vertices[a]
        return mates

    def _load(self) -> None:
        """A fresh rustworkx graph with every live edge at its current weight."""
        graph: rx.PyGraph[int, int] = rx.PyGraph(multigraph=True)
        graph.add_nodes_from(self.vertices)
        for removed in sorted(self._removed):
            graph.remove_node(removed)
        node, keys = self._node, self._keys
        live = [e for e, alive in enumerate(self._alive) if alive]
        rx_edge = [-1] * len(keys)
        indices = graph.add_edges_from(
            [(node[keys[e][0]], node[keys[e][1]], self._weight(e)) for e in live]
        )
        for e, index in zip(live, indices, strict=True):
            rx_edge[e] = index
        self._graph, self._rx_edge, self._loaded = graph, rx_edge, True
