"""The best weights of the players below a bracket with each possible floater added, against
every matching enumerated (:meth:`pairing.swiss.matching.Matcher.float_values`).

Small random graphs without a completion: for each candidate the matcher answers for, the
weight must be the best of any matching of the lower players and that candidate in which the
candidate is paired, and the matching it returns must be one reaching it.
"""

from __future__ import annotations

import random

import pytest

from pairing.swiss.matching import Matcher


def _matchings(vertices: list[int], rows: list[list[int]]) -> list[dict[int, int]]:
    """Every matching of ``vertices`` over the edges of ``rows`` (weight 0: no edge)."""
    if not vertices:
        return [{}]
    first, others = vertices[0], vertices[1:]
    found = _matchings(others, rows)  # ``first`` unpaired
    for k, mate in enumerate(others):
        if rows[first][mate]:
            for rest in _matchings(others[:k] + others[k + 1 :], rows):
                found.append(rest | {first: mate, mate: first})
    return found


def _weight(mates: dict[int, int], rows: list[list[int]]) -> int:
    return sum(rows[a][b] for a, b in mates.items() if a < b)


def _problem(seed: int) -> tuple[Matcher, list[list[int]], list[int], list[int]]:
    rng = random.Random(seed)
    n = rng.randint(3, 9)
    rows = [[0] * n for _ in range(n)]
    for a in range(n):
        for b in range(a):
            if rng.random() < 0.7:
                rows[a][b] = rows[b][a] = rng.choice([1, 2, 3, 1 << 70, (1 << 70) + 1])
    matcher = Matcher(n)
    for a in range(n):
        for b in range(a):
            matcher.set(a, b, rows[a][b])
    upper = rng.sample(range(n), rng.randint(1, n - 2))
    candidates = rng.sample(upper, rng.randint(1, len(upper)))
    lower = [v for v in range(n) if v not in upper]
    return matcher, rows, lower, candidates


@pytest.mark.parametrize("seed", range(200))
def test_each_answer_is_the_best_matching_with_that_floater_paired(seed: int) -> None:
    matcher, rows, lower, candidates = _problem(seed)
    upper = set(range(matcher.size)) - set(lower)
    values = matcher.float_values(upper, candidates)
    if values is None:
        return
    assert set(values) == set(candidates)
    for c, (value, mates) in values.items():
        with_c = [m for m in _matchings([*lower, c], rows) if c in m]
        assert value == max(_weight(m, rows) for m in with_c)
        paired = {a: b for a, b in mates.items() if a != b}
        assert paired in with_c
        assert _weight(paired, rows) == value


def test_most_problems_are_answered() -> None:
    """The virtual floater gives up only where its best matching leaves it unpaired or a few
    rounds do not cover every candidate: most of these problems get an answer."""
    answered = sum(
        1
        for seed in range(200)
        if (problem := _problem(seed))[0].float_values(
            set(range(problem[0].size)) - set(problem[2]), problem[3]
        )
        is not None
    )
    assert answered >= 120
