"""Maximum-weight matching by Gabow's O(n³) form of Edmonds' algorithm, in OpenGotha's order.

OpenGotha pairs with ``WeightedMatchLong``, an implementation of the algorithm that H. N.
Gabow describes in his 1973 Stanford dissertation (Appendix D; also Lawler, *Combinatorial
Optimization*, 1976, ch. 6). When several matchings share the maximum weight, which one comes
out depends on every detail of that procedure: the vertex numbering, the order in which edges
are scanned, the strict comparisons that keep the first of equal candidates. This module runs
the same primal-dual search (the step names W, PA, PT, SC, ... follow Gabow's description)
with the same numbering, so equal-weight ties resolve as OpenGotha resolves them.

Numbering, as in the dissertation's reference coding: vertices are 1..n in the order given,
``n + 1`` is a dummy vertex; each unordered pair {i, j}, i > j, taken with i from n down and j
from i - 1 down, becomes two directed edges ``k`` (ending at j) and ``k - 1`` (ending at i),
``k = n + 2, n + 4, ...``; each vertex scans its neighbours in increasing order. Weights are
doubled so that all dual values stay integral.

Our own representation differs where it keeps the behaviour: a blossom's "pair list" (the
best edge to every neighbouring linked vertex, in increasing neighbour order) is an array
indexed by neighbour, and scanning a vertex is one vectorised step over all its neighbours.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

__all__ = ["gabow_matching", "weight_matrix"]

IntArray = npt.NDArray[np.int64]


def _half(value: int) -> int:
    """Division by two truncated towards zero (the reference coding's integer division)."""
    return -((-value) // 2) if value < 0 else value // 2


def _half_array(values: IntArray) -> IntArray:
    result: IntArray = (values + (values < 0)) // 2
    return result


class _Gabow:
    """State of one run; vertices 1..n, dummy vertex n + 1, edges numbered as above."""

    def __init__(self, weights: IntArray, *, batch_start: bool = True) -> None:
        n = len(weights)
        self.batch_start = batch_start
        self.n = n
        self.dummy = n + 1
        pairs = n * (n - 1) // 2
        self.dummy_edge = n + 2 * pairs + 1
        size = n + 2 * pairs + 2
        # Directed edge numbers: edge_to[x, v] is the edge of x's adjacency ending at v.
        self.edge_to: IntArray = np.zeros((n + 2, n + 2), dtype=np.int64)
        self.end: IntArray = np.zeros(size, dtype=np.int64)
        self.weight: IntArray = np.zeros(size, dtype=np.int64)
        self.end[self.dummy_edge] = self.dummy
        self.doubled: IntArray = np.zeros((n + 2, n + 2), dtype=np.int64)
        self.doubled[1 : n + 1, 1 : n + 1] = 2 * weights
        np.fill_diagonal(self.doubled, 0)
        high = np.arange(n, 0, -1, dtype=np.int64)
        # Edge numbers in creation order: i = n..1, then j = i-1..1.
        first = n + 2
        for i in high.tolist():
            js = np.arange(i - 1, 0, -1, dtype=np.int64)
            ks = first + 2 * np.arange(len(js), dtype=np.int64)
            first += 2 * len(js)
            self.edge_to[i, js] = ks
            self.edge_to[js, i] = ks - 1
            self.end[ks] = js
            self.end[ks - 1] = i
            self.weight[ks] = self.weight[ks - 1] = self.doubled[i, js]
        if n >= 2:
            upper = self.doubled[1 : n + 1, 1 : n + 1][np.triu_indices(n, 1)]
            self.last_delta = int(upper.max()) // 2
        else:
            self.last_delta = 0
        slots = n + 2
        self.mate: IntArray = np.full(slots, self.dummy_edge, dtype=np.int64)
        self.best_edge: IntArray = np.full(slots, self.dummy_edge, dtype=np.int64)
        self.next_vertex: IntArray = np.zeros(slots, dtype=np.int64)
        self.link: IntArray = np.full(slots, -self.dummy_edge, dtype=np.int64)
        self.base: IntArray = np.arange(slots, dtype=np.int64)
        self.last_vertex: IntArray = np.arange(slots, dtype=np.int64)
        self.y: IntArray = np.full(slots, self.last_delta, dtype=np.int64)
        self.next_delta: IntArray = np.full(slots, self.last_delta, dtype=np.int64)
        self.pair_lists: dict[int, IntArray] = {}
        self.building: IntArray = np.zeros(slots, dtype=np.int64)
        self.delta = 0
        # Values that steps hand to one another, as in the description.
        self.edge = 0
        self.new_base = 0
        self.new_last = 0
        self.next_base = 0
        self.carry_edge = 0
        self.second_mate = 0
        self.last_edge = [0, 0, 0]

    # Small helpers ------------------------------------------------------------------------

    def opp(self, e: int) -> int:
        return e - 1 if (e - self.n) % 2 == 0 else e + 1

    def opp_array(self, edges: IntArray) -> IntArray:
        result: IntArray = np.where((edges - self.n) % 2 == 0, edges - 1, edges + 1)
        return result

    def bend(self, e: int) -> int:
        return int(self.base[self.end[e]])

    def blink(self, v: int) -> int:
        return int(self.base[self.end[self.link[v]]])

    def bmate(self, v: int) -> int:
        return int(self.base[self.end[self.mate[v]]])

    def slack(self, e: int) -> int:
        return int(self.y[self.end[e]] + self.y[self.end[self.opp(e)]] - self.weight[e])

    def slack_array(self, edges: IntArray) -> IntArray:
        result: IntArray = (
            self.y[self.end[edges]] + self.y[self.end[self.opp_array(edges)]] - self.weight[edges]
        )
        return result

    # Main loop (W1-W9) --------------------------------------------------------------------

    def run(self) -> list[int]:
        dummy = self.dummy
        while True:
            self.delta = 0
            self.start_search()
            while True:
                i = 1 + int(np.argmin(self.next_delta[1 : self.n + 1]))
                self.delta = int(self.next_delta[i])
                if self.delta == self.last_delta:
                    self.set_bounds()
                    self.unpair_all()
                    mates = [int(self.end[self.mate[v]]) for v in range(self.n + 2)]
                    return [0 if m == dummy else m for m in mates]
                v = int(self.base[i])
                if self.link[v] >= 0:
                    if self.pair(v):
                        break
                else:
                    w = self.bmate(v)
                    if self.link[w] < 0:
                        self.pointer(v, w, self.opp(int(self.best_edge[i])))
                    else:
                        self.unpair(v, w)
            # W7: augment along the path through self.edge.
            self.last_delta -= self.delta
            self.set_bounds()
            e = self.edge
            g = self.opp(e)
            self.rematch(self.bend(e), g)
            self.rematch(self.bend(g), e)

    def start_search(self) -> None:
        """W2: link every exposed blossom, in vertex order, to the dummy vertex.

        Linking one blossom scans it; done one after the other this costs O(n) scans of O(n)
        each per search, most of the running time. Here, when every blossom is unlinked (the
        normal state after a search), all those scans run as one matrix step with the same
        outcome: with ``delta`` = 0 no dual value moves, so the only order effects are which
        blossoms were linked before each scan and which of equal candidates came first.
        ``batch_start=False`` keeps the one-by-one linking (the tests compare both).
        """
        n = self.n
        dummy = self.dummy
        vertices = np.arange(1, n + 1, dtype=np.int64)
        exposed = vertices[self.mate[1 : n + 1] == self.dummy_edge]
        if len(exposed) == 0:
            return
        is_base = self.base[1 : n + 1] == vertices
        unlinked = is_base[exposed - 1].all() and (self.link[vertices[is_base]] < 0).all()
        if not (self.batch_start and unlinked):
            for v in exposed.tolist():
                self.pointer(dummy, v, self.dummy_edge)
            return
        self.link[dummy] = -self.dummy_edge
        self.next_vertex[self.last_vertex[dummy]] = dummy
        rank = np.full(n + 2, len(exposed), dtype=np.int64)  # linking order; last = never
        rows: list[int] = []
        owner: list[int] = []
        starts: list[int] = []
        for order, v in enumerate(exposed.tolist()):
            self.next_vertex[self.last_vertex[v]] = dummy
            self.link[v] = self.dummy_edge
            starts.append(len(rows))
            x = v
            while x != dummy:
                rows.append(x)
                owner.append(order)
                rank[x] = order
                x = int(self.next_vertex[x])
        scanned = np.array(rows, dtype=np.int64)
        owners = np.array(owner, dtype=np.int64)
        column_rank = rank[1 : n + 1]
        slack = self.y[scanned][:, None] + self.y[1 : n + 1][None, :]
        slack -= self.doubled[scanned][:, 1 : n + 1]
        edges = self.edge_to[scanned][:, 1 : n + 1]
        never = np.iinfo(np.int64).max
        # SC4: vertices of blossoms not linked yet keep their first smallest slack.
        bases = self.base[1 : n + 1]
        eligible = (self.link[self.base[self.end[self.mate[bases]]]] < 0) | (
            self.last_vertex[bases] != bases
        )
        later = (column_rank[None, :] > owners[:, None]) & eligible[None, :]
        candidates = np.where(later, slack, never)
        best_row = candidates.argmin(axis=0)
        best = candidates[best_row, np.arange(n)]
        better = np.flatnonzero(best < self.next_delta[1 : n + 1])
        self.next_delta[better + 1] = best[better]
        self.best_edge[better + 1] = edges[best_row[better], better]
        # SC2 + SC5: each scanned vertex restarts its bound; each blossom lists its best
        # edge to every vertex of the blossoms linked before it, the first of equal ones.
        self.next_delta[scanned] = self.last_delta
        earlier = column_rank[None, :] < owners[:, None]
        halves = np.where(earlier, _half_array(slack), never)
        lowest = np.minimum.reduceat(halves.min(axis=1), starts)
        self.next_delta[exposed] = np.minimum(lowest, self.last_delta)
        lists = np.zeros((len(rows), n + 2), dtype=np.int64)
        lists[:, 1 : n + 1] = np.where(earlier, edges, 0)
        bounds = [*starts, len(rows)]
        for order, v in enumerate(exposed.tolist()):
            first, stop = bounds[order], bounds[order + 1]
            if stop - first == 1:
                # A copy, so that old searches' matrices do not stay alive through views.
                self.pair_lists[v] = lists[first].copy()
                continue
            own = lists[first].copy()
            pick = first + halves[first:stop].argmin(axis=0)
            listed = np.flatnonzero(earlier[first])
            own[listed + 1] = edges[pick[listed], listed]
            self.pair_lists[v] = own
        self.new_base = int(exposed[-1])

    # Pair lists ---------------------------------------------------------------------------

    def insert_pairs(
        self, edges: IntArray, targets: IntArray, slacks: IntArray | None = None
    ) -> None:
        """Offer edges (ending at distinct ``targets``) to the pair list being built."""
        if len(edges) == 0:
            return
        halves = _half_array(self.slack_array(edges) if slacks is None else slacks)
        held = self.building[targets]
        taken = held != 0
        keep_old = np.zeros(len(edges), dtype=bool)
        if taken.any():
            old_halves = _half_array(self.slack_array(held[taken]))
            keep_old[taken] = halves[taken] >= old_halves
        new = ~keep_old
        if not new.any():
            return
        self.building[targets[new]] = edges[new]
        lowest = int(halves[new].min())
        self.next_delta[self.new_base] = min(self.next_delta[self.new_base], lowest)

    def merge_pairs(self, v: int) -> None:
        """MP: move the pair list of subblossom ``v`` into the new blossom's list."""
        self.next_delta[v] = self.last_delta
        source = self.pair_lists[v]
        targets = np.flatnonzero(source)
        targets = targets[self.base[targets] != self.new_base]
        self.insert_pairs(source[targets], targets)
        self.carry_edge = self.dummy_edge

    def link_path(self, e: int) -> None:
        """L: link the unlinked blossoms on the path from ``end[e]`` to the new base."""
        v = self.bend(e)
        while v != self.new_base:
            u = self.bmate(v)
            self.link[u] = self.opp(e)
            self.next_vertex[self.new_last] = v
            self.next_vertex[self.last_vertex[v]] = u
            self.new_last = int(self.last_vertex[u])
            i = v
            while True:
                self.base[i] = self.new_base
                i = int(self.next_vertex[i])
                if i == self.dummy:
                    break
            e = int(self.link[v])
            v = self.bend(e)

    def pair(self, v: int) -> bool:
        """PA: process the tight edge leaving linked blossom ``v``; True on augmenting path."""
        source = self.pair_lists[v]
        targets = np.flatnonzero(source)
        edges = source[targets]
        tight = np.flatnonzero(self.slack_array(edges) == 2 * self.delta)
        e = int(edges[tight[0]])
        self.edge = e
        w = self.bend(e)
        self.link[self.bmate(w)] = -e
        u = self.bmate(v)
        while self.link[u] != -e:
            self.link[u] = -e
            if self.mate[w] != self.dummy_edge:
                v, w = w, v
            v = self.blink(v)
            u = self.bmate(v)
        if u == self.dummy and v != w:
            return True
        self.new_last = self.new_base = v
        old_first = int(self.next_vertex[v])
        self.link_path(e)
        self.link_path(self.opp(e))
        self.next_vertex[self.new_last] = old_first
        if self.last_vertex[self.new_base] == self.new_base:
            self.last_vertex[self.new_base] = self.new_last
        self.building = np.zeros(self.n + 2, dtype=np.int64)
        self.merge_pairs(self.new_base)
        i = int(self.next_vertex[self.new_base])
        while True:
            self.merge_pairs(i)
            i = int(self.next_vertex[self.last_vertex[i]])
            self.scan(i, 2 * self.delta - self.slack(int(self.mate[i])))
            i = int(self.next_vertex[self.last_vertex[i]])
            if i == old_first:
                return False

    # Linking and scanning -----------------------------------------------------------------

    def pointer(self, u: int, v: int, e: int) -> None:
        """PT: link blossom ``v`` (matched to blossom ``u``) through edge ``e``."""
        self.link[u] = -self.dummy_edge
        self.next_vertex[self.last_vertex[u]] = self.dummy
        self.next_vertex[self.last_vertex[v]] = self.dummy
        if self.last_vertex[u] != u:
            change = -_half(self.slack(int(self.mate[self.next_vertex[u]])))
        else:
            change = self.last_delta
        i = u
        while i != self.dummy:
            self.y[i] += change
            self.next_delta[i] += change
            i = int(self.next_vertex[i])
        unlinked = self.link[v] < 0
        self.link[v] = e
        if unlinked:
            self.building = np.zeros(self.n + 2, dtype=np.int64)
            self.scan(v, self.delta)

    def scan(self, x: int, change: int) -> None:
        """SC: scan every vertex of the blossom whose list starts at ``x``."""
        self.new_base = int(self.base[x])
        stop = int(self.next_vertex[self.last_vertex[x]])
        n = self.n
        # Columns are vertices 1..n; x and its blossom fall out of both tests below because
        # their base is the (linked) new base.
        bases = self.base[1 : n + 1]
        y = self.y[1 : n + 1]
        bounds = self.next_delta[1 : n + 1]
        while x != stop:
            self.y[x] += change
            self.next_delta[x] = self.last_delta
            linked = self.link[bases] >= 0
            slacks = y + self.y[x] - self.doubled[x, 1 : n + 1]
            # SC4: remember the best edge into each vertex of an unlinked blossom.
            eligible = (self.link[self.base[self.end[self.mate[bases]]]] < 0) | (
                self.last_vertex[bases] != bases
            )
            better = np.flatnonzero(~linked & eligible & (bounds > slacks))
            if len(better):
                bounds[better] = slacks[better]
                self.best_edge[better + 1] = self.edge_to[x, better + 1]
            # SC5: offer edges to other linked blossoms to the pair list.
            outside = np.flatnonzero(linked & (bases != self.new_base))
            if len(outside):
                self.insert_pairs(self.edge_to[x, outside + 1], outside + 1, slacks[outside])
            x = int(self.next_vertex[x])
        self.pair_lists[self.new_base] = self.building

    # Dual updates, augmentation and blossom expansion -----------------------------------

    def set_bounds(self) -> None:
        """SB: apply the dual change of the finished search and unlink every blossom."""
        dummy = self.dummy
        n = self.n
        vertices = np.arange(1, n + 1, dtype=np.int64)
        linked_bases = (self.link[1 : n + 1] >= 0) & (self.base[1 : n + 1] == vertices)
        for v in vertices[linked_bases].tolist():
            self.link[v] = -self.link[v]
            i = v
            while i != dummy:
                self.y[i] -= self.delta
                i = int(self.next_vertex[i])
            f = int(self.mate[v])
            self.carry_edge = f
            if f != self.dummy_edge:
                i = self.bend(f)
                change = self.slack(f)
                while i != dummy:
                    self.y[i] -= change
                    i = int(self.next_vertex[i])
        self.next_delta[1 : n + 1] = self.last_delta

    def rematch(self, first_mate: int, e: int) -> None:
        """R: switch matched and unmatched edges along an alternating path."""
        self.mate[first_mate] = e
        next_e = -int(self.link[first_mate])
        while next_e != self.dummy_edge:
            e = next_e
            f = self.opp(e)
            first_mate = self.bend(e)
            second_mate = self.bend(f)
            next_e = -int(self.link[first_mate])
            self.link[first_mate] = -self.mate[second_mate]
            self.link[second_mate] = -self.mate[first_mate]
            self.mate[first_mate] = f
            self.mate[second_mate] = e
            self.carry_edge = f
            self.second_mate = second_mate

    def unlink(self, old_base: int) -> None:
        """UL: unlink the subblossoms of blossom ``old_base``, keeping their link values."""
        dummy = self.dummy
        i = self.new_base = int(self.next_vertex[old_base])
        self.next_base = int(self.next_vertex[self.last_vertex[self.new_base]])
        self.edge = int(self.link[self.next_base])
        path_edge = 0
        for j in (1, 2):
            while True:
                path_edge = self.opp(int(self.link[self.new_base]))
                for _ in (1, 2):
                    self.link[self.new_base] = -self.link[self.new_base]
                    while True:
                        self.base[i] = self.new_base
                        i = int(self.next_vertex[i])
                        if i == self.next_base:
                            break
                    self.new_base = self.next_base
                    self.next_base = int(self.next_vertex[self.last_vertex[self.new_base]])
                if self.link[self.next_base] != path_edge:
                    break
            if j == 1:
                self.last_edge[1] = path_edge
                path_edge = self.opp(self.edge)
                if self.link[self.next_base] == path_edge:
                    continue
            break
        self.last_edge[2] = path_edge
        if self.base[self.last_vertex[old_base]] == old_base:
            self.next_vertex[old_base] = self.new_base
        else:
            self.next_vertex[old_base] = dummy
            self.last_vertex[old_base] = old_base

    def unpair(self, old_base: int, old_mate: int) -> None:
        """UP: expand unlinked blossom ``old_base`` and relink its parts."""
        self.unlink(old_base)
        new_base = self.bmate(old_mate)
        if new_base != old_base:
            self.link[old_base] = -self.dummy_edge
            self.rematch(new_base, int(self.mate[old_base]))
            other = self.last_edge[2] if self.carry_edge == self.last_edge[1] else self.last_edge[1]
            self.link[self.second_mate] = -other
        e = int(self.link[old_mate])
        u = self.bend(self.opp(e))
        if u != new_base:
            self.link[self.bmate(u)] = -e
            while True:
                e = -int(self.link[u])
                v = self.bmate(u)
                self.pointer(u, v, -int(self.link[v]))
                u = self.bend(e)
                if u == new_base:
                    break
            e = self.opp(e)
        self.pointer(new_base, old_mate, e)

    def unpair_all(self) -> None:
        """UA: expand every blossom left at the end and rematch inside it."""
        dummy = self.dummy
        for v in range(1, self.n + 1):
            if self.base[v] != v or self.last_vertex[v] == v:
                continue
            next_u = v
            self.next_vertex[self.last_vertex[next_u]] = dummy
            while True:
                u = next_u
                next_u = int(self.next_vertex[next_u])
                self.unlink(u)
                if self.last_vertex[u] != u:
                    f = (
                        self.last_edge[1]
                        if self.last_edge[2] == self.opp(self.edge)
                        else self.last_edge[2]
                    )
                    self.carry_edge = f
                    self.next_vertex[self.last_vertex[self.bend(f)]] = u
                self.new_base = self.bmate(self.bmate(u))
                if self.new_base not in (dummy, u):
                    self.link[u] = -self.dummy_edge
                    self.rematch(self.new_base, int(self.mate[u]))
                while self.last_vertex[next_u] == next_u and next_u != dummy:
                    next_u = int(self.next_vertex[next_u])
                if self.last_vertex[next_u] == next_u and next_u == dummy:
                    break


def weight_matrix(size: int, edges: Sequence[tuple[int, int, int]]) -> IntArray:
    """The symmetric ``size`` × ``size`` matrix of ``edges`` ``(i, j, weight)``, 0 elsewhere."""
    matrix: IntArray = np.zeros((size, size), dtype=np.int64)
    if edges:
        table = np.array(edges, dtype=np.int64)
        ends_a, ends_b, weights = table[:, 0], table[:, 1], table[:, 2]
        matrix[ends_a, ends_b] = weights
        matrix[ends_b, ends_a] = weights
    return matrix


def gabow_matching(
    weights: Sequence[Sequence[int]] | IntArray, *, batch_start: bool = True
) -> list[tuple[int, int]]:
    """Maximum-weight matching of a complete graph, pairs ``(i, j)`` with ``i < j``.

    ``weights`` is a symmetric matrix of non-negative integers below 2⁶¹; index order is the
    vertex numbering, so equal-weight ties resolve as in OpenGotha fed in the same order.
    """
    n = len(weights)
    if n < 2:
        return []
    matrix: IntArray = np.array(weights, dtype=np.int64).reshape(n, n)
    mates = _Gabow(matrix, batch_start=batch_start).run()
    return [(v - 1, mates[v] - 1) for v in range(1, n + 1) if 0 < v < mates[v]]
