"""Maximum-weight perfect matching over exact integer weights.

rustworkx's blossom algorithm (the networkx algorithm in Rust) keeps weights as 128-bit
integers, so OpenGotha's ``long`` costs (up to about 10^15) stay exact; it pairs 600 players
in about a second where networkx needs minutes. networkx is the fallback when rustworkx is
missing; both give the same maximum weight.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["max_weight_perfect_matching"]


def _edges(weights: Sequence[Sequence[int]]) -> list[tuple[int, int, int]]:
    n = len(weights)
    return [(i, j, weights[i][j]) for i in range(n) for j in range(i + 1, n) if weights[i][j] > 0]


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
    weights: Sequence[Sequence[int]], *, engine: str = "rustworkx"
) -> list[tuple[int, int]]:
    """Pairs ``(i, j)``, ``i < j``, covering every index, of maximum total weight.

    ``weights`` is a symmetric matrix of non-negative integers (0 forbids a pair).
    ``engine`` is ``"rustworkx"`` (default) or ``"networkx"``.
    """
    n = len(weights)
    edges = _edges(weights)
    mates = _rustworkx(n, edges) if engine == "rustworkx" else None
    if mates is None:
        mates = _networkx(n, edges)
    pairs = sorted((min(a, b), max(a, b)) for a, b in mates)
    if 2 * len(pairs) != n:
        raise ValueError(f"no perfect matching of {n} players under the given constraints")
    return pairs
