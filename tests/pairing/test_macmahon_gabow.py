"""Gabow's matching (OpenGotha's order) against an independent optimum (networkx)."""

from __future__ import annotations

import networkx as nx
import pytest
from hypothesis import given
from hypothesis import strategies as st

from pairing.macmahon.matching import max_weight_perfect_matching
from pairing.swiss.gabow import gabow_matching


@st.composite
def _matrices(draw: st.DrawFn) -> list[list[int]]:
    n = 2 * draw(st.integers(min_value=1, max_value=7))
    # Few distinct values make many equal-weight matchings, where blossoms and ties matter.
    values = draw(
        st.sampled_from(
            [
                st.integers(1, 3),
                st.integers(1, 10**6),
                st.sampled_from([1, 10**8, 10**11, 5 * 10**14, 5 * 10**14 + 10**11]),
            ]
        )
    )
    weights = [[0] * n for _ in range(n)]
    for i in range(n):
        for j in range(i + 1, n):
            weights[i][j] = weights[j][i] = draw(values)
    return weights


def _optimum(weights: list[list[int]]) -> int:
    graph = nx.Graph()
    n = len(weights)
    graph.add_weighted_edges_from((i, j, weights[i][j]) for i in range(n) for j in range(i + 1, n))
    mates = nx.max_weight_matching(graph, maxcardinality=True)
    return sum(weights[a][b] for a, b in mates)


@given(_matrices())
def test_matching_is_perfect_and_of_maximum_weight(weights: list[list[int]]) -> None:
    pairs = gabow_matching(weights)
    covered = sorted(v for pair in pairs for v in pair)
    assert covered == list(range(len(weights)))
    assert all(i < j for i, j in pairs)
    assert sum(weights[i][j] for i, j in pairs) == _optimum(weights)


@given(_matrices())
def test_batched_search_start_equals_linking_one_by_one(weights: list[list[int]]) -> None:
    assert gabow_matching(weights) == gabow_matching(weights, batch_start=False)


def test_opengotha_self_test_matrix() -> None:
    """The example in OpenGotha's ``WeightedMatchLong.main``: three heavy pairs."""
    heavy = {(0, 1), (2, 3), (4, 5)}
    weights = [
        [0 if i == j else 200 if (min(i, j), max(i, j)) in heavy else 30 for j in range(6)]
        for i in range(6)
    ]
    assert gabow_matching(weights) == sorted(heavy)


def test_trivial_sizes() -> None:
    assert gabow_matching([]) == []
    assert gabow_matching([[0, 7], [7, 0]]) == [(0, 1)]


def test_forbidden_pair_falls_back_to_a_blossom_matcher() -> None:
    # The heaviest matching is (2, 3) alone (10); the perfect matchings without the forbidden
    # pair (0, 1) weigh 2.
    weights = [[0, 0, 1, 1], [0, 0, 1, 1], [1, 1, 0, 10], [1, 1, 10, 0]]
    assert gabow_matching(weights) == [(2, 3)]
    pairs = max_weight_perfect_matching(weights)
    assert (0, 1) not in pairs
    assert len(pairs) == 2


def test_unknown_matcher_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown matcher 'blossom'"):
        max_weight_perfect_matching([[0, 1], [1, 0]], engine="blossom")
