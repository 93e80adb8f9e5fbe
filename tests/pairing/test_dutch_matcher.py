"""The matcher behind the Dutch engine: exact weight compression and focused re-solves."""

from __future__ import annotations

from itertools import combinations

from hypothesis import given
from hypothesis import strategies as st

from pairing.swiss.matching import Matcher, compress, max_weight_matching
from pairing.swiss.narrowing import Narrowing

VERTICES = 6
EDGES = list(combinations(range(VERTICES), 2))


def _matchings() -> list[tuple[tuple[int, int], ...]]:
    found: list[tuple[tuple[int, int], ...]] = [()]
    for size in (1, 2, 3):
        for chosen in combinations(EDGES, size):
            ends = [v for e in chosen for v in e]
            if len(set(ends)) == len(ends):
                found.append(chosen)
    return found


MATCHINGS = _matchings()

# A weight: a few fields far apart (values 0..3 at random bit positions above a 12-bit
# tie-break field), plus a small signed tie-break that may borrow through empty fields.
field = st.tuples(st.integers(12, 300), st.integers(0, 3))
weight = st.tuples(st.lists(field, min_size=1, max_size=4), st.integers(-40, 40)).map(
    lambda t: sum(v << p for p, v in t[0]) + t[1]
)


def _totals(weights: dict[tuple[int, int], int]) -> list[int]:
    return [sum(weights[e] for e in m) for m in MATCHINGS]


def _same_order(a: list[int], b: list[int]) -> bool:
    pairs = list(zip(a, b, strict=True))
    return all((x > y) == (u > v) for x, u in pairs for y, v in pairs)


@given(st.lists(weight, min_size=len(EDGES), max_size=len(EDGES)))
def test_compression_keeps_the_order_of_every_pair_of_matchings(raw: list[int]) -> None:
    edges = [(a, b, w) for (a, b), w in zip(EDGES, raw, strict=True) if w > 0]
    original = _totals(
        {(a, b): w for a, b, w in edges}
        | {e: 0 for e in EDGES if e not in {(a, b) for a, b, _ in edges}}
    )
    for low_bits, tight in ((0, False), (12, False), (12, True), (0, True)):
        narrow = compress(edges, low_bits, tight)
        if narrow is None:
            continue
        weights = {(a, b): w for a, b, w in narrow}
        totals = _totals({e: weights.get(e, 0) for e in EDGES})
        assert _same_order(original, totals), (low_bits, tight)
    for low_bits in (0, 12):
        deduplicated = Narrowing(edges).narrow(low_bits, deduplicate=True)
        if deduplicated is None:
            continue
        weights = {(a, b): w for a, b, w in deduplicated}
        assert _same_order(original, _totals({e: weights.get(e, 0) for e in EDGES}))


# Weights whose fields repeat: each edge's digits (0..3) are written at two far positions.
repeated = st.lists(st.integers(0, 3), min_size=len(EDGES), max_size=len(EDGES))


@given(repeated, repeated)
def test_repeated_fields_are_dropped_and_the_order_kept(high: list[int], low: list[int]) -> None:
    raw = [
        (h << 300) + (lo << 200) + (h << 100) + (lo << 20) + 1
        for h, lo in zip(high, low, strict=True)
    ]
    edges = [(a, b, w) for (a, b), w in zip(EDGES, raw, strict=True)]
    deduplicated = Narrowing(edges).narrow(deduplicate=True)
    tight = compress(edges, tight=True)
    assert deduplicated is not None
    assert tight is not None
    widest = max(w for _, _, w in deduplicated).bit_length()
    assert widest <= max(w for _, _, w in tight).bit_length()
    if any(high) and any(low) and high != low:
        assert widest < max(w for _, _, w in tight).bit_length()
    weights = {(a, b): w for a, b, w in deduplicated}
    assert _same_order(_totals(dict(zip(EDGES, raw, strict=True))), _totals(weights))


# Weights as the 2017 engine builds them: a top field, then fields that add and subtract
# powers of two (a pair charged its score difference), which borrow through the fields above.
signed_term = st.tuples(st.integers(0, 250), st.sampled_from([-2, -1, 1, 2]))
borrowing = st.lists(signed_term, max_size=5).map(
    lambda terms: (1 << 300) + sum(s << p for p, s in terms)
)


@given(st.lists(borrowing, min_size=len(EDGES), max_size=len(EDGES)))
def test_signed_narrowing_keeps_the_order_of_every_pair_of_matchings(raw: list[int]) -> None:
    edges = [(a, b, w) for (a, b), w in zip(EDGES, raw, strict=True)]
    narrowed = Narrowing(edges).signed_weights()
    assert narrowed is not None
    assert all(w > 0 for w in narrowed)
    weights = dict(zip(EDGES, narrowed, strict=True))
    assert _same_order(_totals(dict(zip(EDGES, raw, strict=True))), _totals(weights))


def test_signed_narrowing_reads_borrows_as_single_digits() -> None:
    # Each weight charges 2**150 against a field at 2**200: a run of fifty ones in binary.
    raw = [(3 << 200) + (1 << (100 + i)) - (1 << 150) for i, _ in enumerate(EDGES)]
    edges = [(a, b, w) for (a, b), w in zip(EDGES, raw, strict=True)]
    narrowed = Narrowing(edges).signed_weights()
    assert narrowed is not None
    assert max(narrowed).bit_length() < 64
    assert _same_order(
        _totals(dict(zip(EDGES, raw, strict=True))),
        _totals(dict(zip(EDGES, narrowed, strict=True))),
    )


def _every_narrowing(narrowing: Narrowing) -> list[object]:
    return [
        narrowing.vertices,
        narrowing.ends(),
        *(narrowing.weights(low, tight, dedup) for low in (0, 12) for tight, dedup in
          ((False, False), (True, False), (False, True))),
        list(narrowing.tight_weights()),
        narrowing.signed_weights(),
    ]  # fmt: skip


@given(
    st.lists(st.one_of(weight, borrowing), min_size=len(EDGES), max_size=len(EDGES)),
    st.sampled_from([0, 3]),
)
def test_python_ints_and_numpy_arrays_narrow_alike(raw: list[int], spread: int) -> None:
    """Small brackets narrow on Python ints (no numpy import), large ones on numpy arrays:
    the same weights, bit for bit, whichever form computes them."""
    edges = [(b, a, w) for (a, b), w in zip(EDGES, raw, strict=True) if w > 0]
    ints = _every_narrowing(Narrowing(edges, spread, arrays=False))
    assert ints == _every_narrowing(Narrowing(edges, spread, arrays=True))


def test_max_weight_matching_prefers_the_heavier_pair_of_edges() -> None:
    big = 1 << 200
    mates = max_weight_matching([(0, 1, big + 3), (1, 2, big + 10), (2, 3, big + 3)])
    assert mates == {0: 1, 1: 0, 2: 3, 3: 2}


def test_raising_only_the_matched_edge_skips_the_solve() -> None:
    matcher = Matcher(4)
    for a, b, w in ((0, 1, 5), (2, 3, 5), (0, 2, 4), (1, 3, 4)):
        matcher.set(a, b, w)
    assert matcher.solve()[:2] == [1, 0]
    matcher.set(0, 1, 9)
    matcher.set(0, 2, 6)
    assert matcher.solve() == [1, 0, 3, 2]
    assert (matcher.solves, matcher.skipped) == (1, 1)
    matcher.set(0, 2, 20)
    assert matcher.solve() == [2, 3, 0, 1]
    assert matcher.solves == 2
