"""Maximum-weight perfect matching over exact integer weights.

Three engines find the same maximum weight; they differ in which matching they return when
several share it:

* ``"opengotha"`` (default): Gabow's algorithm in OpenGotha's vertex and edge order
  (:mod:`pairing.macmahon.gabow`), so ties resolve as OpenGotha resolves them;
* ``"rustworkx"``: the networkx blossom algorithm in Rust, on 128-bit integers;
* ``"networkx"``: the pure-Python original.
"""

from __future__ import annotations

from collections.abc import Sequence

from pairing.macmahon.model import MacMahonError

__all__ = ["ENGINES", "max_weight_perfect_matching"]

ENGINES = ("opengotha", "rustworkx", "networkx")


def _edges(weights: Sequence[Sequence[int]]) -> list[tuple[int, int, int]]:
    n = len(weights)
    return [(i, j, weights[i][j]) for i in range(n) for j in range(i + 1, n) if weights[i][j] > 0]


def _opengotha(weights: Sequence[Sequence[int]]) -> set[tuple[int, int]]:
    from pairing.macmahon.gabow import gabow_matching

    return set(gabow_matching(weights))


def _rustworkx(n: int, edges: list[tuple[int, int, int]]) -> set[tuple[int, int]] | None:
    try:
        import rustworkx as rx
    except ImportError:  # pragma: no cover - the dependency is declared
        return None
    graph = rx.PyGraph()
    graph.add_nodes_from(range(n))
    graph.add_edges_from(edges)
    mates: set[tuple[int, int]] = rx.max_weight_matching(
        graph, max_cardinality=True, weight_fn=int, verify_optimum=False
    )
    return mates


def _networkx(n: int, edges: list[tuple[int, int, int]]) -> set[tuple[int, int]]:
    import networkx as nx

    graph = nx.Graph()
    graph.add_nodes_from(range(n))
    graph.add_weighted_edges_from(edges)
    mates: set[tuple[int, int]] = nx.max_weight_matching(graph, maxcardinality=True)
    return mates


def max_weight_perfect_matching(
    weights: Sequence[Sequence[int]], *, engine: str = "opengotha"
) -> list[tuple[int, int]]:
    """Pairs ``(i, j)``, ``i < j``, covering every index, of maximum total weight.

    ``weights`` is a symmetric matrix of non-negative integers (0 forbids a pair).
    ``engine`` is ``"opengotha"`` (default), ``"rustworkx"`` or ``"networkx"``.
    """
    if engine not in ENGINES:
        raise ValueError(f"unknown matcher {engine!r}; expected one of {', '.join(ENGINES)}")
    n = len(weights)
    mates: set[tuple[int, int]] | None = None
    if engine == "opengotha":
        mates = _opengotha(weights)
        # Gabow's search maximises weight, not size: with a forbidden pair (weight 0) it may
        # leave players unpaired. OpenGotha's costs are never 0, so this happens only with
        # hand-made weights, and then a maximum-cardinality blossom matcher decides.
        if 2 * len(mates) != n or any(weights[i][j] <= 0 for i, j in mates):
            mates = None
    if mates is None:
        edges = _edges(weights)
        mates = _rustworkx(n, edges) if engine != "networkx" else None
        if mates is None:
            mates = _networkx(n, edges)
    pairs = sorted((min(a, b), max(a, b)) for a, b in mates)
    if 2 * len(pairs) != n:
        raise MacMahonError(f"no perfect matching of {n} players under the given constraints")
    return pairs
