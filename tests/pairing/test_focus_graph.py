"""The kept focus graph: narrowed once, patched between solves, always a maximum matching."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from pairing.swiss.focus_graph import FocusGraph
from pairing.swiss.matching import Matcher
from tests.pairing.test_dutch_matcher import EDGES, MATCHINGS
from tests.pairing.test_dutch_matcher import VERTICES as SIZE

VERTICES = list(range(SIZE))
LOW_BITS = 12


def _matchings(alive: set[int]) -> list[tuple[tuple[int, int], ...]]:
    return [m for m in MATCHINGS if all(a in alive and b in alive for a, b in m)]


def _rebuild(weights: dict[tuple[int, int], int], alive: set[int]) -> FocusGraph:
    graph = FocusGraph.build(
        sorted(alive),
        [(a, b, w) for (a, b), w in weights.items() if w and {a, b} <= alive],
        LOW_BITS,
    )
    assert graph is not None
    return graph


def _best(weights: dict[tuple[int, int], int], alive: set[int]) -> tuple[int, int]:
    """The exact optimum: total weight, then number of pairs (the focused solve's order)."""
    return max(
        (sum(weights[e] for e in m), len(m))
        for m in _matchings(alive)
        if all(weights[e] for e in m)
    )


def _value(mates: dict[int, int], weights: dict[tuple[int, int], int]) -> tuple[int, int]:
    pairs = {(a, b) for a, b in mates.items() if a < b}
    return sum(weights[e] for e in pairs), len(pairs)


# Bracket weights as the Dutch engine builds them: 0/1 fields far apart above an empty
# 12-bit tie-break field (few positions, so that many matchings tie on them); the updates
# then add small signed tie-breaks there, drop edges or drop a vertex whose pair was fixed.
field = st.tuples(st.sampled_from([LOW_BITS, 40, 100, 180]), st.integers(0, 1))
base = st.lists(field, min_size=1, max_size=5).map(lambda f: sum(v << p for p, v in f))
update = st.one_of(
    st.tuples(st.just("low"), st.sampled_from(EDGES), st.integers(-2000, 2000)),
    st.tuples(st.just("drop"), st.sampled_from(EDGES), st.just(0)),
    st.tuples(st.just("fix"), st.sampled_from(VERTICES), st.just(0)),
)


@given(
    st.lists(base, min_size=len(EDGES), max_size=len(EDGES)),
    st.lists(update, max_size=8),
)
def test_every_solve_is_a_maximum_matching_of_the_exact_weights(
    raw: list[int], updates: list[tuple[str, object, int]]
) -> None:
    weights = dict(zip(EDGES, raw, strict=True))
    start = dict(weights)
    alive = set(VERTICES)
    graph = FocusGraph.build(VERTICES, [(a, b, w) for (a, b), w in weights.items() if w], LOW_BITS)
    assert graph is not None
    mates = graph.solve()
    assert mates is not None
    assert _value(mates, weights) == _best(weights, alive)
    for kind, target, low in updates:
        if kind == "fix":
            assert isinstance(target, int)
            if graph.has(target):
                graph.remove_vertex(target)
                alive.discard(target)
        else:
            assert isinstance(target, tuple)
            a, b = target
            if not (graph.has(a) and graph.has(b)):
                continue
            weights[target] = 0 if kind == "drop" or not start[target] else start[target] + low
            weights[target] = max(weights[target], 0)
            if not graph.update(target, weights[target]):
                graph = _rebuild(weights, alive)
        mates = graph.solve()
        if mates is None:  # the low parts outgrew the split: a new graph takes over
            graph = _rebuild(weights, alive)
            mates = graph.solve()
            assert mates is not None
        assert _value(mates, weights) == _best(weights, alive)


def test_a_tie_break_change_is_patched_without_a_new_graph() -> None:
    high = 1 << 40
    graph = FocusGraph.build([0, 1, 2, 3], [(0, 1, high), (2, 3, high), (0, 2, high)], 12)
    assert graph is not None
    assert graph.solve() == {0: 1, 1: 0, 2: 3, 3: 2}
    assert graph.update((0, 2), high + 5)
    assert graph.update((0, 1), high - 3)
    # Still two pairs beat one pair with a better tie-break.
    assert graph.solve() == {0: 1, 1: 0, 2: 3, 3: 2}
    graph.remove_vertex(3)
    assert graph.solve() == {0: 2, 2: 0}


def test_raising_a_matched_edge_and_a_rival_at_one_vertex_skips_the_solve() -> None:
    matcher = Matcher(4)
    for a, b, w in ((0, 1, 5), (2, 3, 5), (0, 2, 4), (1, 3, 4)):
        matcher.set(a, b, w)
    assert matcher.solve() == [1, 0, 3, 2]
    # (2, 3) is matched: raising it is harmless. (0, 2) rises by 3 but 0's own pair by 4.
    matcher.set(2, 3, 50)
    matcher.set(0, 1, 9)
    matcher.set(0, 2, 7)
    assert matcher.solve() == [1, 0, 3, 2]
    assert (matcher.solves, matcher.skipped) == (1, 1)
    # Two rivals at different vertices: no certificate, so it solves (and 0-2 + 1-3 wins).
    matcher.set(2, 3, 1)
    matcher.set(0, 2, 40)
    matcher.set(1, 3, 40)
    assert matcher.solve() == [2, 3, 0, 1]
    assert matcher.solves == 2


# Re-solves after changes like the engines make: edges at one vertex raised (the opponent
# choice), one pair fixed, an edge dropped. Small weights, so that many matchings tie and the
# kept matching or a swap of it must be proved optimal rather than found.
change = st.one_of(
    st.tuples(
        st.just("raise"),
        st.sampled_from(VERTICES),
        st.lists(st.integers(0, 3), min_size=6, max_size=6),
    ),
    st.tuples(st.just("set"), st.sampled_from(EDGES), st.integers(0, 4)),
)


@given(
    st.lists(st.integers(0, 4), min_size=len(EDGES), max_size=len(EDGES)),
    st.lists(change, max_size=6),
)
def test_skipped_solves_still_return_a_maximum_matching(
    raw: list[int], changes: list[tuple[str, object, object]]
) -> None:
    matcher = Matcher(len(VERTICES))
    weights = dict(zip(EDGES, raw, strict=True))
    for (a, b), w in weights.items():
        matcher.set(a, b, w)
    for kind, target, value in [("none", 0, 0), *changes]:
        if kind == "raise":
            assert isinstance(target, int)
            assert isinstance(value, list)
            for other, rise in zip(VERTICES, value, strict=True):
                key = (min(target, other), max(target, other))
                if other != target and weights[key]:
                    weights[key] += rise
                    matcher.set(*key, weights[key])
        elif kind == "set":
            assert isinstance(target, tuple)
            assert isinstance(value, int)
            weights[target] = value
            matcher.set(target[0], target[1], value)
        mates = matcher.solve()
        pairs = {(a, b) for a, b in enumerate(mates) if a < b}
        assert all(weights[e] for e in pairs)
        assert sum(weights[e] for e in pairs) == _best(weights, set(VERTICES))[0]
