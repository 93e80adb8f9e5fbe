"""A maximum-weight matching over a mutable complete graph with exact integer weights.

The Swiss systems fix decisions one at a time and re-solve after each change, as the reference
engine does (pairing.md 2.5). Weights are Python ints, so lexicographic criteria stay exact.
A weight of 0 means "no edge".

Six things keep the re-solves cheap without changing the optimum:

* a re-solve is skipped when the weight changes since the last one provably keep the last
  matching optimal (matched edges raised, unmatched ones lowered, or raised only at one vertex
  whose matched edge rose most);
* fixed pairs leave the graph (no later solve or proof reads their edges);
* with a *focus* (the bracket being paired), the weights split into a completion part
  ``completion(a, b) << shift`` shared by every edge and a bracket part on the focus edges only.
  The bracket part is maximised on the focus alone, and the players it leaves unpaired must
  then complete the round with the players below (checked on the small completion weights).
  That is an upper bound reached, so it is the optimum; otherwise the whole graph is solved.
* the focus edges are narrowed once per bracket and then patched in place between solves
  (:mod:`pairing.swiss.focus_graph`), instead of narrowing every edge for every solve.
* with a *restriction* (:meth:`Matcher.restrict`), a set of vertices that every optimal matching
  pairs among themselves is solved alone, through a kept graph of its own, while the others keep
  their mates.
* with a *hub* (:meth:`Matcher.split`), the graph less the hub falls apart into connected
  components, each solved apart and kept until an edge in it changes; the hub goes to the
  component it raises most. Components no change touched are not solved again.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from operator import itemgetter
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # rustworkx (with the focus graph) is imported by the first solve only: an
    # engine that proves its decisions without one (Burstein, mostly) starts without it
    from pairing.swiss.focus_graph import FocusGraph

__all__ = ["ENGINES", "Matcher", "compress", "max_weight_matching", "solve"]

# The matching algorithms :func:`solve` runs (``None`` there: rustworkx when the weights fit it).
ENGINES = ("rustworkx", "gabow", "networkx")

# Off, every solve is a plain maximum-weight matching of the whole graph: no skip proofs, no
# focus, no greedy completion. The tests compare both ways; nothing else turns it off.
SHORTCUTS = True

# A greedy completion that strands more players than this goes to the exact matching: each
# repair scans every pair, so many of them would cost more than that matching.
_REPAIRS = 8

# How many virtual players :meth:`Matcher.float_values` tries before it gives up.
_FLOAT_ROUNDS = 6

# The virtual player's vertex in :meth:`Matcher.float_values` (no real vertex is negative).
_VIRTUAL = -1


def compress(
    edges: list[tuple[int, int, int]], low_bits: int = 0, tight: bool = False
) -> list[tuple[int, int, int]] | None:
    """Equivalent, narrower weights: every maximum-weight matching stays one.

    A weight is read as digits in bit ranges separated by at least ``bits(pairs)`` zero bits
    (with ``tight``, cut wherever the digit sum provably fits below), each packed into just the
    bits its sum over a matching can reach. ``low_bits`` is the width of a low field holding
    small signed adjustments (the engines' tie-breaks); subtracting there borrows through the
    empty fields above, so that field is split off as a signed digit first. None when the
    field is too full for that to be exact.
    """
    from pairing.swiss.narrowing import Narrowing  # numpy, a slow import: only when used

    if not edges:
        return []
    return Narrowing(edges).narrow(low_bits, tight)


def solve(
    vertices: int | Sequence[int],
    edges: Sequence[tuple[int, int, int]],
    *,
    perfect: bool = False,
    engine: str | None = None,
) -> list[tuple[int, int]]:
    """A maximum-weight matching on exact integer weights: every pairing engine's one door to
    a matching algorithm (the Swiss matcher, Dutch 2017, team Swiss, Mac-Mahon, the completion
    checks).

    ``vertices`` is a count ``n`` (the vertices are ``0..n-1``) or the vertices' labels; each
    edge ``(i, j, weight)`` joins positions ``i`` and ``j`` and appears once. ``perfect`` asks
    for a maximum-cardinality matching first. ``engine``:

    * ``"rustworkx"``: the blossom algorithm in Rust, on 128-bit integers (weights below
      ``RUSTWORKX_LIMIT``);
    * ``"gabow"``: Gabow's algorithm in the given vertex order (:mod:`pairing.swiss.gabow`), so
      equal-weight ties resolve as OpenGotha resolves them (weights below 2⁶¹, no edge is 0);
    * ``"networkx"``: the pure-Python blossom algorithm, any width;
    * ``None``: rustworkx when the weights fit it, else networkx.

    The pairs, as labels, in the order the algorithm gives them (with equal weights, which
    matching comes out depends on the algorithm and on the vertex and edge order).
    """
    from pairing.swiss.focus_graph import RUSTWORKX_LIMIT as _RUSTWORKX_LIMIT

    labels = None if isinstance(vertices, int) else vertices
    size = vertices if isinstance(vertices, int) else len(vertices)
    if engine is None:
        wide = bool(edges) and max(edges, key=itemgetter(2))[2] >= _RUSTWORKX_LIMIT
        engine = "networkx" if wide else "rustworkx"
    found: Collection[tuple[int, int]]
    if engine == "rustworkx":
        import rustworkx as rx

        # The edges are distinct pairs: a multigraph skips the duplicate lookup on every insert.
        graph: rx.PyGraph[None, int] = rx.PyGraph(multigraph=True)
        graph.add_nodes_from([None] * size)
        graph.add_edges_from(edges)
        found = rx.max_weight_matching(graph, max_cardinality=perfect, weight_fn=int)
    elif engine == "gabow":
        from pairing.swiss.gabow import gabow_matching, weight_matrix  # numpy: only when used

        found = gabow_matching(weight_matrix(size, edges))
    elif engine == "networkx":
        import networkx as nx  # the slowest, and a slow import: only when asked for

        nodes = range(size) if labels is None else labels
        graph_nx = nx.Graph()
        graph_nx.add_nodes_from(nodes)
        graph_nx.add_weighted_edges_from([(nodes[i], nodes[j], w) for i, j, w in edges])
        pairs: set[tuple[int, int]] = nx.max_weight_matching(graph_nx, maxcardinality=perfect)
        return list(pairs)
    else:
        raise ValueError(f"unknown matcher {engine!r}; expected one of {', '.join(ENGINES)}")
    if labels is None:
        return list(found)
    return [(labels[a], labels[b]) for a, b in found]


def max_weight_matching(edges: list[tuple[int, int, int]], low_bits: int = 0) -> dict[int, int]:
    """A maximum-weight matching of positive integer weights: mate by vertex, both ways.

    Each pair of vertices may appear in at most one edge.
    """
    found = _matching(edges, low_bits, slow=True)
    assert found is not None
    return found


def _matching(
    edges: list[tuple[int, int, int]], low_bits: int, slow: bool, spread: int = 0
) -> dict[int, int] | None:
    """As :func:`max_weight_matching`; None instead of a networkx solve unless ``slow``.

    With ``spread``, each weight ``w`` counts as ``(w << spread) + 1``.
    """
    from pairing.swiss.focus_graph import RUSTWORKX_LIMIT as _RUSTWORKX_LIMIT

    mates: dict[int, int] = {}
    if not edges:
        return mates
    top = max(edges, key=itemgetter(2))[2]
    if (top << spread) + (spread > 0) >= _RUSTWORKX_LIMIT:
        from pairing.swiss.narrowing import Narrowing  # numpy, a slow import

        narrowing = Narrowing(edges, spread)
        weights = narrowing.weights()
        assert weights is not None
        if low_bits and max(weights) >= _RUSTWORKX_LIMIT:
            weights = narrowing.weights(low_bits) or weights
        if max(weights) >= _RUSTWORKX_LIMIT:
            weights = narrowing.weights(low_bits, tight=True) or weights
        if max(weights) >= _RUSTWORKX_LIMIT:
            # Borrowing weights (charged fields) narrow only digit by digit, signed.
            weights = narrowing.signed_weights() or weights
        if slow and max(weights) >= _RUSTWORKX_LIMIT:
            # Last resort before networkx (never tried when the caller has a fallback).
            weights = narrowing.weights(low_bits, deduplicate=True) or weights
        if max(weights) < _RUSTWORKX_LIMIT:
            ends_a, ends_b = narrowing.ends()
            return _rustworkx(narrowing.vertices, list(zip(ends_a, ends_b, weights, strict=True)))
    else:
        index: dict[int, int] = {}
        for a, b, _ in edges:
            index.setdefault(a, len(index))
            index.setdefault(b, len(index))
        if spread:
            return _rustworkx(
                list(index), [(index[a], index[b], (w << spread) + 1) for a, b, w in edges]
            )
        return _rustworkx(list(index), [(index[a], index[b], w) for a, b, w in edges])
    if not slow:
        return None
    if spread:
        edges = [(a, b, (w << spread) + 1) for a, b, w in edges]
    # The last resort: the vertices in the order the edges name them.
    position: dict[int, int] = {}
    for a, b, _ in edges:
        position.setdefault(a, len(position))
        position.setdefault(b, len(position))
    narrow = [(position[a], position[b], w) for a, b, w in edges]
    for a, b in solve(list(position), narrow, engine="networkx"):
        mates[a] = b
        mates[b] = a
    return mates


def _focus_graph() -> type[FocusGraph]:
    """The focus graph's class, imported when a solve first needs it (with rustworkx)."""
    from pairing.swiss.focus_graph import FocusGraph

    return FocusGraph


def _rustworkx(vertices: Sequence[int], edges: list[tuple[int, int, int]]) -> dict[int, int]:
    """The matching rustworkx finds, mate by vertex both ways, for edges given as
    ``(i, j, weight)`` with ``i``, ``j`` positions in ``vertices``."""
    mates: dict[int, int] = {}
    for a, b in solve(vertices, edges, engine="rustworkx"):
        mates[a] = b
        mates[b] = a
    return mates


class Matcher:
    """Symmetric edge weights over ``size`` vertices and the last computed matching."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._weights: list[list[int]] = [[0] * size for _ in range(size)]
        self._mates: list[int] = list(range(size))
        self._changed: dict[tuple[int, int], int] = {}
        self._solved = False
        self._fixed = [False] * size
        self._focus: list[int] = []
        self._core: set[int] | None = None
        self._in_focus: set[int] = set()
        self._shift = 0
        self._low_bits = 0
        self._completion: list[int] = []
        self._absorbable: dict[tuple[frozenset[int], tuple[int, ...]], dict[int, int] | None]
        self._absorbable = {}
        self._graph: FocusGraph | None = None
        self._keep = False
        self._pending: set[tuple[int, int]] = set()
        self._restricted: list[int] | None = None
        self._hub: int | None = None
        self._parent: list[int] = []
        self._touched: set[int] = set()
        self._parts: dict[tuple[int, ...], _Part] = {}
        self.solves = 0
        self.skipped = 0
        self.whole = 0

    def _bracket_edge(self, a: int, b: int) -> bool:
        """Whether edge a-b belongs to the focus graph (not only to completions)."""
        focus, core = self._in_focus, self._core
        if a not in focus or b not in focus:
            return False
        return core is None or a in core or b in core

    def load(self, rows: list[list[int]]) -> None:
        """All weights at once: ``rows[a][b]`` (symmetric, 0 on the diagonal), before any pair
        is fixed; the last matching is forgotten (the next solve is a whole new one). Not for a
        split matcher (its components follow :meth:`set`)."""
        assert not any(self._fixed)
        assert self._hub is None
        self._weights = rows
        self._solved = False
        self._changed.clear()
        self._mates = list(range(self.size))
        self._absorbable.clear()
        self._graph = None
        self._pending.clear()
        self._first = True

    def weight(self, a: int, b: int) -> int:
        """Current weight of edge a-b."""
        return self._weights[a][b]

    def set(self, a: int, b: int, weight: int) -> None:
        """Set the weight of edge a-b (0 removes it)."""
        old = self._weights[a][b]
        if old != weight:
            if self._solved:  # before the first solve there is nothing to compare with
                self._changed.setdefault((a, b) if a < b else (b, a), old)
            if self._absorbable and not self._bracket_edge(a, b):
                self._absorbable.clear()  # a completion edge changed: no answer holds
            self._weights[a][b] = weight
            self._weights[b][a] = weight
            if self._hub is not None:
                self._touched.add(a)
                self._touched.add(b)
                if not old and self._hub not in (a, b):
                    self._union(a, b)

    def set_completion(self, shift: int, not_bye_candidate: list[bool], low_bits: int) -> None:
        """Declare that every edge a-b weighs ``(1 + nc[a] + nc[b]) << shift`` plus less.

        ``nc`` marks the players who must not stay unpaired (not candidates for the bye);
        the lowest ``low_bits`` bits hold the engine's small signed tie-break adjustments.
        """
        self._shift = shift
        self._low_bits = low_bits
        self._completion = [int(flag) for flag in not_bye_candidate]
        self._absorbable.clear()
        self._graph = None

    def keep_graph(self, low_bits: int) -> None:
        """Solve the whole graph through a kept graph, narrowed once and patched between
        solves (:mod:`pairing.swiss.focus_graph`); the lowest ``low_bits`` bits hold the
        engine's small signed tie-break adjustments."""
        self._keep = True
        self._low_bits = low_bits
        self._graph = None

    def restrict(self, vertices: list[int] | None) -> None:
        """Solve among ``vertices`` alone until lifted (None), the other players keeping the
        mates of the last solve.

        The caller guarantees that every optimal matching pairs ``vertices`` perfectly among
        themselves for as long as the restriction holds, and changes no edge with an end outside
        them: the optimum is then the best perfect matching of ``vertices`` beside the other
        players' last (optimal) mates. A solve that cannot pair them all lifts the restriction
        and solves as before.
        """
        assert vertices is None or self._solved
        self._restricted = None if vertices is None else list(vertices)
        self._graph = None
        self._pending.clear()

    def split(self, hub: int) -> None:
        """Solve the connected components of the graph less ``hub`` apart (see the module
        docstring); call it before the first edge is set."""
        assert not any(any(row) for row in self._weights)
        self._hub = hub
        self._parent = list(range(self.size))

    def _find(self, v: int) -> int:
        parent = self._parent
        while parent[v] != v:
            parent[v] = v = parent[parent[v]]
        return v

    def _union(self, a: int, b: int) -> None:
        ra, rb = self._find(a), self._find(b)
        if ra != rb:
            self._parent[max(ra, rb)] = min(ra, rb)

    def focus(self, vertices: list[int], core: list[int] | None = None) -> None:
        """Solve the bracket part on ``vertices`` only (see the module docstring).

        With ``core``, only edges with an end in ``core`` have a bracket part; the others
        (both ends outside ``core``) serve the completion alone, among focus players too.
        """
        self._focus = list(vertices)
        self._in_focus = set(vertices)
        self._core = None if core is None else set(core)
        self._absorbable.clear()
        self._graph = None

    def finalize_pair(self, a: int, b: int, weight: int) -> None:
        """Fix a-b with edge weight ``weight``: every later solve keeps them paired.

        Fixed players leave the graph: no solve or proof reads their other edges again, so
        they are cleared without change tracking, only to free their weights.
        """
        rows = self._weights
        rows[a] = [0] * self.size
        rows[b] = [0] * self.size
        for row in rows:
            row[a] = row[b] = 0
        rows[a][b] = rows[b][a] = weight
        self._fixed[a] = self._fixed[b] = True

    def fix_unconnected(self, a: int, b: int, weight: int) -> None:
        """As :meth:`finalize_pair` for two vertices that have no edge yet: nothing to clear."""
        rows = self._weights
        if any(rows[a]) or any(rows[b]):
            raise AssertionError("fix_unconnected: a vertex has an edge")
        rows[a][b] = rows[b][a] = weight
        self._fixed[a] = self._fixed[b] = True

    def solve(self) -> list[int]:
        """A maximum-weight matching: each vertex's mate, or the vertex itself if unmatched."""
        if self._graph is not None:
            self._pending.update(self._changed)
        kept = self._still_optimal() if self._solved and SHORTCUTS else None
        if kept is not None:
            if self._changed:
                self.skipped += 1
            self._changed.clear()
            self._mates = kept
            return list(kept)
        self._changed.clear()
        self._solved = True
        self.solves += 1
        fixed = self._fixed
        mates = list(range(self.size))
        for v in range(self.size):
            if fixed[v]:
                mate = self._mates[v]
                if self._weights[v][mate] == 0 or not fixed[mate]:
                    raise AssertionError("a fixed vertex lost its pair")
                mates[v] = mate
        free = [v for v in range(self.size) if not fixed[v]]
        restricted = self._solve_restricted() if SHORTCUTS and self._restricted else None
        if restricted is not None:
            self._mates = restricted
            return list(restricted)
        focused = SHORTCUTS and self._completion and self._focus
        if focused:
            found = self._solve_focused(free)
        elif SHORTCUTS and self._keep:
            found = self._solve_kept(free)
        elif SHORTCUTS and self._hub is not None and not fixed[self._hub]:
            found = self._solve_split(free)
        else:
            found = None
        if found is None:
            self.whole += 1
            found = max_weight_matching(self._edges_among(free), self._low_bits)
        for v, mate in found.items():
            mates[v] = mate
        self._mates = mates
        return list(mates)

    def fixed(self, v: int) -> bool:
        """Whether ``v`` is in a pair fixed by :meth:`finalize_pair`."""
        return self._fixed[v]

    def adopt(self, mates: list[int]) -> None:
        """Take ``mates`` as the last solve's matching, without solving: the caller proves it a
        maximum of the current weights (fixed pairs included)."""
        if any(mates[mate] != v for v, mate in enumerate(mates)):
            raise AssertionError("adopted mates are not a matching")
        if self._graph is not None:
            self._pending.update(self._changed)
        self._changed.clear()
        self._solved = True
        self._mates = list(mates)

    def float_values(
        self, upper: Collection[int], candidates: list[int]
    ) -> dict[int, tuple[int, dict[int, int]]] | None:
        """For each candidate, the best weight of the free players outside ``upper`` with the
        candidate added and paired (bracket parts under a completion), and a matching of theirs
        that reaches it; None when that is not found in a few solves.

        A virtual player takes, towards each player, the best weight of the candidates still
        open: no candidate does better. Its best matching is then every candidate's who can
        take its mate at that weight in its place; the others are still open.
        """
        if self._core is not None:
            return None
        above = set(upper)
        free_lower = [v for v in range(self.size) if not self._fixed[v] and v not in above]
        if self._completion:
            below = set(free_lower)
            targets = [v for v in self._focus if v in below]
        else:
            targets = free_lower
        found: dict[int, tuple[int, dict[int, int]]] = {}
        open_ = list(candidates)
        for _ in range(_FLOAT_ROUNDS):
            if not open_:
                return found
            best: dict[int, int] = {}
            for c in open_:
                for u in targets:
                    w = self.bracket_weight(c, u)
                    if w is None:
                        return None
                    if w > best.get(u, 0):
                        best[u] = w
            solved = self._with_virtual(free_lower, targets, best)
            if solved is None:
                return None
            value, mates = solved
            partner = mates[_VIRTUAL]
            still: list[int] = []
            for c in open_:
                if self.bracket_weight(c, partner) == best[partner]:
                    own = dict(mates)
                    del own[_VIRTUAL]
                    own[c], own[partner] = partner, c
                    found[c] = (value, own)
                else:
                    still.append(c)
            open_ = still
        return None

    def _with_virtual(
        self, free_lower: list[int], targets: list[int], row: dict[int, int]
    ) -> tuple[int, dict[int, int]] | None:
        """The best matching of ``free_lower`` and a virtual player with edges ``row`` to
        ``targets`` (bracket parts under a completion), the virtual player paired in it, and its
        weight; None when it leaves the virtual player unpaired or cannot be completed."""
        virtual = [(_VIRTUAL, u, w) for u, w in row.items() if w]
        if self._completion:
            focus_edges = self._focus_edges(targets)
            if focus_edges is None:
                return None
            edges = focus_edges + virtual
            spread = max(len(targets) + 1, 2).bit_length()
            mates = _matching(edges, self._low_bits + spread, slow=True, spread=spread)
            assert mates is not None
        else:
            edges = self._edges_among(free_lower) + virtual
            mates = max_weight_matching(edges, self._low_bits)
        if _VIRTUAL not in mates:
            return None
        value = sum(w for a, b, w in edges if mates.get(a) == b)
        if self._completion:
            rest = tuple(v for v in free_lower if v not in self._in_focus)
            tail = self._completion_of(targets, mates, rest)
            if tail is None:
                return None
            mates = mates | tail
        for v in free_lower:
            mates.setdefault(v, v)
        return value, mates

    def settled(self) -> bool:
        """Whether the next :meth:`solve` is proved by the changes since the last one to keep
        the last matching (or one swap of it), so that it runs no matching at all."""
        return SHORTCUTS and self._solved and self._still_optimal() is not None

    def spare_bits(self) -> int | None:
        """How wide the engine's low tie-break sums over a matching may grow before the kept
        graph no longer fits rustworkx; None when no graph is kept (the solves narrow every edge
        anew, exact at any width but slower, down to networkx, the wider the sums)."""
        return None if self._graph is None else self._graph.spare_bits()

    def completes(self) -> bool:
        """Whether the free players can all be paired but at most one bye candidate.

        Needs :meth:`set_completion`; it is the completion part of :meth:`solve` alone.
        """
        free = tuple(v for v in range(self.size) if not self._fixed[v])
        return self._completion_of([], {}, free) is not None

    def _still_optimal(self) -> list[int] | None:
        """A matching the changes since the last solve provably leave optimal, or None.

        Raising matched edges or lowering unmatched ones keeps the last matching optimal.
        Unmatched edges raised at one vertex ``v`` (by at most ``top``) do too when ``v``'s
        matched edge rose by ``top``: a matching holds only one edge at ``v``. Otherwise one
        swap may do: ``v`` takes ``o`` over a raised edge (rise ``top``) and their old mates
        ``m`` and ``x`` pair up, when ``w0(v,o) + w(m,x) >= w0(v,m) + w(o,x)`` (``w0`` the
        weights at the last solve). Any matching gains at most ``top`` at ``v`` plus the rises of
        matched edges, and that swapped matching gains at least as much over the last optimum.
        """
        mates, rows, changed, fixed = self._mates, self._weights, self._changed, self._fixed
        positive: list[tuple[tuple[int, int], int]] = []
        common: set[int] | None = None
        for (a, b), old in changed.items():
            if fixed[a] or fixed[b]:
                continue
            change = rows[a][b] - old
            if mates[a] == b:
                if change < 0:
                    return None
            elif change > 0:
                positive.append(((a, b), change))
                common = {a, b} if common is None else common & {a, b}
                if not common:
                    return None
        if common is None:
            return mates
        top = max(d for _, d in positive)

        def before(a: int, b: int) -> int:
            return changed.get((a, b) if a < b else (b, a), rows[a][b])

        for v in common:
            m = mates[v]
            if m != v and rows[v][m] - before(v, m) >= top:
                return mates
            for (a, b), rise in positive:
                o = b if a == v else a
                x = mates[o]
                if rise != top or x == v:
                    continue
                paired_mx = m != v and x != o
                if paired_mx and not rows[m][x]:
                    continue
                gain = before(v, o) + (rows[m][x] if paired_mx else 0)
                loss = (before(v, m) if m != v else 0) + (rows[o][x] if x != o else 0)
                if gain >= loss:
                    swapped = list(mates)
                    swapped[v], swapped[o] = o, v
                    if m != v:
                        swapped[m] = x if paired_mx else m
                    if x != o:
                        swapped[x] = m if paired_mx else x
                    return swapped
        return None

    def _solve_focused(self, free: list[int]) -> dict[int, int] | None:
        focus = [v for v in self._focus if not self._fixed[v]]
        in_focus = set(focus)
        rest = tuple(v for v in free if v not in in_focus)
        if not rest and self._core is None:
            return None
        mates = self._patched_matching()
        if mates is None:
            edges = self._focus_edges(focus)
            if edges is None:
                self._graph = None
                return None
            self._graph = _focus_graph().build(focus, edges, self._low_bits)
            mates = None if self._graph is None else self._graph.solve()
            if mates is None:
                mates = self._narrowed_matching(focus, edges, rest)
        tail = self._completion_of(focus, mates, rest)
        return None if tail is None else mates | tail

    def _solve_restricted(self) -> list[int] | None:
        """The matching of a restricted solve (see :meth:`restrict`): the restricted players'
        best perfect matching, everybody else's last mate (fixed players' included); None (and
        the restriction lifted) if it pairs them not all."""
        assert self._restricted is not None
        free = [v for v in self._restricted if not self._fixed[v]]
        found = self._patched_matching()
        if found is None:
            # A new kept graph of the weights the patches give it: the bracket weights under a
            # completion (constant over perfect matchings), else the whole weights.
            edges = self._focus_edges(free) if self._completion else self._edges_among(free)
            self._graph = (
                None if edges is None else _focus_graph().build(free, edges, self._low_bits)
            )
            found = None if self._graph is None else self._graph.solve()
        if found is None:
            found = max_weight_matching(self._edges_among(free), self._low_bits)
        if len(found) != len(free):
            self.restrict(None)
            return None
        mates = list(self._mates)
        for v, mate in found.items():
            mates[v] = mate
        return mates

    def _solve_split(self, free: list[int]) -> dict[int, int]:
        """The whole graph's matching from its components (see :meth:`split`).

        A matching holds at most one hub edge, so the optimum is every component's own optimum
        but in the one component where adding the hub gains most (if any gains).
        """
        hub, touched = self._hub, self._touched
        assert hub is not None
        members: dict[int, list[int]] = {}
        for v in free:
            if v != hub:
                members.setdefault(self._find(v), []).append(v)
        parts: dict[tuple[int, ...], _Part] = {}
        for vertices in members.values():
            key = tuple(vertices)
            part = self._parts.get(key)
            if part is None or not touched.isdisjoint(key):
                part = _Part(self._weights, key, hub, self._low_bits)
            parts[key] = part
        self._parts = parts
        touched.clear()
        best = max(parts.values(), key=_Part.gain, default=None)
        mates: dict[int, int] = {}
        for part in parts.values():
            mates.update(part.with_hub() if part is best and part.gain() > 0 else part.alone())
        return mates

    def _solve_kept(self, free: list[int]) -> dict[int, int] | None:
        """The whole graph's matching from the kept graph (built anew when it cannot be
        patched); None when it is too wide for rustworkx."""
        mates = self._patched_matching()
        if mates is None:
            self._graph = _focus_graph().build(free, self._edges_among(free), self._low_bits)
            mates = None if self._graph is None else self._graph.solve()
        return mates

    def _narrowed_matching(
        self, focus: list[int], edges: list[tuple[int, int, int]], rest: tuple[int, ...]
    ) -> dict[int, int]:
        """The focus matching without a kept graph: every edge narrowed for this solve."""
        spread = max(len(focus), 2).bit_length()
        # One more pair in the focus wins ties of the bracket part: fewer failed completions.
        mates = _matching(edges, self._low_bits + spread, slow=False, spread=spread)
        if mates is None:
            # Too wide for rustworkx with the tie-break: without it, any completable optimum
            # is still the optimum.
            plain = _matching([e for e in edges if e[2]], self._low_bits, slow=False)
            if plain is not None and self._completion_of(focus, plain, rest) is not None:
                return plain
            mates = _matching(edges, self._low_bits + spread, slow=True, spread=spread)
            assert mates is not None
        return mates

    def _edges_among(self, vertices: list[int]) -> list[tuple[int, int, int]]:
        """The edges between ``vertices`` with their whole weights."""
        rows = self._weights
        return [
            (a, b, rows[a][b]) for i, a in enumerate(vertices) for b in vertices[:i] if rows[a][b]
        ]

    def bracket_weight(self, a: int, b: int) -> int | None:
        """Edge a-b less its completion part (0 if no edge); None if it has no such shape."""
        w = self._weights[a][b]
        if not w or not self._completion:
            return w
        limit = 1 << self._shift
        w -= limit * (1 + self._completion[a] + self._completion[b])
        return w if 0 <= w < limit else None

    def _focus_edges(self, focus: list[int]) -> list[tuple[int, int, int]] | None:
        """The focus edges with their bracket weights; None if one has no completion part."""
        edges: list[tuple[int, int, int]] = []
        rows, nc = self._weights, self._completion
        limit = 1 << self._shift
        completion = [limit, 2 * limit, 3 * limit]
        core = self._core
        if core is not None:
            ends = [v for v in focus if v in core]
            position = {v: k for k, v in enumerate(ends)}
            for i, a in enumerate(ends):
                row, nc_a = rows[a], nc[a]
                for b in focus:
                    if position.get(b, -1) >= i:
                        continue
                    w = row[b]
                    if w:
                        w -= completion[nc_a + nc[b]]
                        if not 0 <= w < limit:
                            return None
                        edges.append((a, b, w))
            return edges
        for i, a in enumerate(focus):
            row, nc_a = rows[a], nc[a]
            for b in focus[:i]:
                w = row[b]
                if w:  # as _bracket_weight, inlined: this runs for every focus pair
                    w -= completion[nc_a + nc[b]]
                    if not 0 <= w < limit:
                        return None
                    edges.append((a, b, w))
        return edges

    def _patched_matching(self) -> dict[int, int] | None:
        """The focus matching from the kept graph, patched with the changes since; None if
        there is no kept graph or it must be rebuilt."""
        graph, pending = self._graph, self._pending
        self._pending = set()
        if graph is None:
            return None
        fixed = self._fixed
        for v in graph.vertices:
            if fixed[v] and graph.has(v):
                graph.remove_vertex(v)
        for a, b in pending:
            if fixed[a] or fixed[b] or not (graph.has(a) and graph.has(b)):
                continue
            w = self.bracket_weight(a, b)
            if w is None or not graph.update((a, b), w):
                return None
        return graph.solve()

    def _completion_of(
        self, focus: list[int], mates: dict[int, int], rest: tuple[int, ...]
    ) -> dict[int, int] | None:
        key = (frozenset(v for v in focus if v not in mates), rest)
        if key not in self._absorbable:
            self._absorbable[key] = self._complete(*key)
        return self._absorbable[key]

    def _joinable(self, a: int, b: int, left: frozenset[int]) -> bool:
        """Whether the completion may pair ``a`` with ``b``: not two players the focus left
        unpaired, unless that edge has no bracket part (both ends outside the core)."""
        if a not in left or b not in left:
            return True
        core = self._core
        return core is not None and a not in core and b not in core

    def _complete(self, left: frozenset[int], rest: tuple[int, ...]) -> dict[int, int] | None:
        """Pair ``rest`` and ``left`` (not among themselves) leaving at most one bye candidate."""
        rows, nc = self._weights, self._completion
        quick = self._greedy_completion(left, rest) if SHORTCUTS else None
        if quick is not None:
            return quick
        vertices = [*left, *rest]
        edges = [
            (a, b, 1 + nc[a] + nc[b])
            for i, a in enumerate(vertices)
            for b in vertices[:i]
            if rows[a][b] and self._joinable(a, b, left)
        ]
        mates = max_weight_matching(edges)
        unpaired = sum(1 + 2 * nc[v] for v in vertices if v not in mates)
        return mates if unpaired == self.size % 2 else None

    def _greedy_completion(
        self, left: frozenset[int], rest: tuple[int, ...]
    ) -> dict[int, int] | None:
        """A completion found greedily, or None (which proves nothing).

        Any completion will do: every one is a maximum of the completion weights. The players
        of ``left`` take the first free compatible player of ``rest``; then each player of
        ``rest`` the next free compatible one after it (an earlier free one is incompatible,
        or it would have taken this one).
        """
        rows, nc = self._weights, self._completion
        mates: dict[int, int] = {}
        outside = () if self._core is None else tuple(v for v in left if v not in self._core)
        for v in left:
            if v in mates:
                continue
            row = rows[v]
            for u in (*rest, *outside):
                if u != v and row[u] and u not in mates and self._joinable(v, u, left):
                    mates[v] = u
                    mates[u] = v
                    break
        for i, v in enumerate(rest):
            if v in mates:
                continue
            row = rows[v]
            for j in range(i + 1, len(rest)):
                u = rest[j]
                if row[u] and u not in mates:
                    mates[v] = u
                    mates[u] = v
                    break
        unpaired = [v for v in (*left, *rest) if v not in mates]
        if len(unpaired) > _REPAIRS:
            return None
        while len(unpaired) > self.size % 2:
            if not self._augment(unpaired, mates, left):
                return None
        if unpaired and nc[unpaired[0]]:
            return None
        return mates

    def _augment(self, unpaired: list[int], mates: dict[int, int], left: frozenset[int]) -> bool:
        """Pair two of ``unpaired`` through one pair x-y: u-x and y-v instead (False if none)."""
        rows = self._weights
        for i, u in enumerate(unpaired):
            row_u = rows[u]
            for v in unpaired[i + 1 :]:
                if row_u[v] and self._joinable(u, v, left):
                    mates[u], mates[v] = v, u
                    unpaired.remove(u)
                    unpaired.remove(v)
                    return True
                row_v = rows[v]
                for x, y in mates.items():
                    if (
                        row_u[x]
                        and row_v[y]
                        and self._joinable(u, x, left)
                        and self._joinable(v, y, left)
                    ):
                        mates[u], mates[x], mates[y], mates[v] = x, u, v, y
                        unpaired.remove(u)
                        unpaired.remove(v)
                        return True
        return False


class _Part:
    """One connected component of a split matcher: its optimum alone and with the hub, each
    found when first asked for."""

    def __init__(self, rows: list[list[int]], vertices: tuple[int, ...], hub: int, low: int):
        self._rows = rows
        self._vertices = vertices
        self._hub = hub
        self._low_bits = low
        self._linked = any(rows[hub][v] for v in vertices)
        self._alone: dict[int, int] | None = {} if len(vertices) < 2 else None
        self._with_hub: dict[int, int] | None = None
        self._gain: int | None = None

    def _solve(self, vertices: tuple[int, ...]) -> dict[int, int]:
        rows = self._rows
        # Edges between positions in ``vertices``: rustworkx takes them as they are.
        edges = [
            (i, j, w)
            for i, a in enumerate(vertices)
            for j, w in enumerate([rows[a][b] for b in vertices[:i]])
            if w
        ]
        if not edges:
            return {}
        from pairing.swiss.focus_graph import RUSTWORKX_LIMIT as _RUSTWORKX_LIMIT

        if max(edges, key=itemgetter(2))[2] < _RUSTWORKX_LIMIT:
            return _rustworkx(vertices, edges)
        return {
            vertices[i]: vertices[j] for i, j in max_weight_matching(edges, self._low_bits).items()
        }

    def _value(self, mates: dict[int, int]) -> int:
        rows = self._rows
        return sum(rows[a][b] for a, b in mates.items() if a < b)

    def alone(self) -> dict[int, int]:
        """A maximum-weight matching of the component without the hub."""
        if self._alone is None:
            self._alone = self._solve(self._vertices)
        return self._alone

    def with_hub(self) -> dict[int, int]:
        """A maximum-weight matching of the component with the hub."""
        if self._with_hub is None:
            self._with_hub = self._solve((*self._vertices, self._hub)) if self._linked else {}
        return self._with_hub

    def gain(self) -> int:
        """How much more the component weighs with the hub than without."""
        if self._gain is None:
            if not self._linked:
                self._gain = 0
            else:
                hubbed = self.with_hub()
                if self._hub not in hubbed:
                    self._alone = hubbed
                    self._gain = 0
                else:
                    self._gain = self._value(hubbed) - self._value(self.alone())
        return self._gain
