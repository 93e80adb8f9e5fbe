"""The engines' one matching entry point (`pairing.swiss.matching.solve`) against an optimum
found by trying every matching: each algorithm it runs reaches the maximum weight (and, asked
for a perfect matching, the maximum size first), and gives its pairs back as the caller's labels.
"""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pairing.swiss.focus_graph import RUSTWORKX_LIMIT
from pairing.swiss.matching import ENGINES, solve

Edge = tuple[int, int, int]


def _matchings(vertices: list[int], edges: dict[frozenset[int], int]) -> list[list[Edge]]:
    """Every matching of the graph (small graphs only), as lists of edges."""
    if not vertices:
        return [[]]
    first, rest = vertices[0], vertices[1:]
    found = _matchings(rest, edges)  # ``first`` left unmatched
    for other in rest:
        weight = edges.get(frozenset((first, other)))
        if weight is not None:
            left = [v for v in rest if v != other]
            found += [[(first, other, weight), *m] for m in _matchings(left, edges)]
    return found


def _best(size: int, edges: list[Edge], perfect: bool) -> tuple[int, int]:
    """(pairs, weight) of the best matching: by weight, or by size and then weight."""
    table = {frozenset((a, b)): w for a, b, w in edges}
    scores = [(len(m), sum(w for _, _, w in m)) for m in _matchings(list(range(size)), table)]
    if perfect:
        return max(scores)
    return max(scores, key=lambda s: (s[1], -s[0]))


@st.composite
def _graphs(draw: st.DrawFn) -> tuple[int, list[Edge]]:
    size = draw(st.integers(min_value=0, max_value=8))
    # Few distinct values make many equal-weight matchings; the wide ones only networkx takes.
    values = draw(st.sampled_from([st.integers(1, 3), st.integers(1, 10**12)]))
    edges = [(a, b, draw(values)) for a, b in combinations(range(size), 2) if draw(st.booleans())]
    return size, edges


@pytest.mark.parametrize("engine", ENGINES)
@given(graph=_graphs(), perfect=st.booleans())
def test_every_engine_reaches_the_maximum(
    engine: str, graph: tuple[int, list[Edge]], perfect: bool
) -> None:
    size, edges = graph
    if engine == "gabow":
        # Gabow's search is the Mac-Mahon matcher's: a perfect matching of a complete graph
        # (an even field, every pair weighed); the missing pairs weigh 1 here.
        if size % 2 or not perfect:
            return
        given_weights = {(a, b): w for a, b, w in edges}
        edges = [(a, b, given_weights.get((a, b), 1)) for a, b in combinations(range(size), 2)]
    pairs = solve(size, edges, perfect=perfect, engine=engine)
    weight = {frozenset((a, b)): w for a, b, w in edges}
    ends = [v for pair in pairs for v in pair]
    assert len(ends) == len(set(ends)), "a vertex in two pairs"
    best_size, best_weight = _best(size, edges, perfect)
    assert sum(weight[frozenset(p)] for p in pairs) == best_weight
    if perfect:
        assert len(pairs) == best_size


def test_pairs_come_back_as_the_callers_labels() -> None:
    labels = [17, 4, 9, 30]
    edges = [(0, 1, 5), (2, 3, 5), (0, 2, 1), (1, 3, 1)]  # {17, 4} and {9, 30} weigh most
    for engine in ENGINES:
        pairs = solve(labels, edges, perfect=True, engine=engine)
        assert {frozenset(p) for p in pairs} == {frozenset((17, 4)), frozenset((9, 30))}, engine


def test_without_an_engine_weights_too_wide_for_rustworkx_go_to_networkx() -> None:
    wide = RUSTWORKX_LIMIT * 4
    edges = [(0, 1, wide + 1), (1, 2, wide + 3), (2, 3, wide + 1)]  # two outer pairs: 2w + 2
    pairs = solve(4, edges)
    assert {frozenset(p) for p in pairs} == {frozenset((0, 1)), frozenset((2, 3))}


def test_an_unknown_engine_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown matcher 'blossom'"):
        solve(2, [(0, 1, 1)], engine="blossom")
