"""A split matcher (components solved apart, a hub given to one of them) finds a maximum.

Random graphs with a hub vertex go through random edits, fixed pairs and re-solves; after every
solve the split matcher's matching must weigh as much as networkx's maximum-weight matching of
the free vertices, and must pair only along edges of the graph.
"""

from __future__ import annotations

import networkx as nx
from hypothesis import given, settings
from hypothesis import strategies as st

from pairing.swiss.matching import Matcher

SIZE = 9
HUB = SIZE - 1

pair = st.tuples(st.integers(0, SIZE - 1), st.integers(0, SIZE - 1)).filter(lambda p: p[0] != p[1])
weight = st.one_of(
    st.just(0),
    st.integers(1, 40),
    st.integers(1 << 70, (1 << 70) + 40),
    st.integers(1 << 130, (1 << 130) + 40),  # too wide for rustworkx as they are
)
step = st.one_of(
    st.tuples(st.just("set"), pair, weight),
    st.tuples(st.just("fix"), st.tuples(st.integers(0, SIZE - 1), st.just(0)), st.just(0)),
    st.tuples(st.just("solve"), st.just((0, 0)), st.just(0)),
)


def _best(matcher: Matcher, fixed: set[int]) -> int:
    graph = nx.Graph()
    free = [v for v in range(SIZE) if v not in fixed]
    for i, a in enumerate(free):
        for b in free[:i]:
            if matcher.weight(a, b):
                graph.add_edge(a, b, weight=matcher.weight(a, b))
    return sum(graph[a][b]["weight"] for a, b in nx.max_weight_matching(graph))


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.tuples(pair, weight), max_size=30),
    st.lists(step, max_size=25),
)
def test_split_matcher_finds_a_maximum_after_every_change(
    initial: list[tuple[tuple[int, int], int]], steps: list[tuple[str, tuple[int, int], int]]
) -> None:
    matcher = Matcher(SIZE)
    matcher.split(HUB)
    for (a, b), w in initial:
        matcher.set(a, b, w)
    fixed: set[int] = set()
    mates = matcher.solve()
    for kind, (a, b), w in [*steps, ("solve", (0, 0), 0)]:
        if kind == "set" and a not in fixed and b not in fixed:
            matcher.set(a, b, w)
        elif kind == "fix" and a != HUB and a not in fixed and mates[a] not in (a, HUB):
            matcher.finalize_pair(a, mates[a], 1)
            fixed |= {a, mates[a]}
        elif kind == "solve":
            mates = matcher.solve()
            free = [v for v in range(SIZE) if v not in fixed]
            assert all(mates[mates[v]] == v for v in range(SIZE))
            assert all(mates[v] == v or matcher.weight(v, mates[v]) for v in free)
            total = sum(matcher.weight(v, mates[v]) for v in free if v < mates[v])
            assert total == _best(matcher, fixed)
