"""The lexicographic choice among optimal assignments, against every assignment enumerated.

Small random problems (ties are common: few distinct weights, some of them far apart, some
edges missing) are solved by brute force: the optimal assignments, then row by row in the given
order the lowest column any of those left gives that row.
"""

from __future__ import annotations

import itertools
import random

import pytest

from pairing.swiss.assignment import best_assignment, lexicographic_assignment

Weights = list[list[int | None]]


def _value(weights: Weights, assignment: tuple[int, ...]) -> int | None:
    total = 0
    for row, column in enumerate(assignment):
        w = weights[row][column]
        if w is None:
            return None
        total += w
    return total


def _problem(rng: random.Random) -> tuple[Weights, list[tuple[int, ...]], list[tuple[int, ...]]]:
    """Weights with at least one assignment; the optimal assignments and the others."""
    while True:
        n = rng.randint(1, 6)
        choices: list[int | None] = [None, -2, 0, 1, 2, 3, 1 << 80, 3 << 80]
        weights = [[rng.choice(choices) for _ in range(n)] for _ in range(n)]
        valued = [
            (p, v)
            for p in itertools.permutations(range(n))
            if (v := _value(weights, p)) is not None
        ]
        if valued:
            best = max(v for _, v in valued)
            return (
                weights,
                [p for p, v in valued if v == best],
                [p for p, v in valued if v < best],
            )


@pytest.mark.parametrize("seed", range(300))
def test_each_row_takes_the_first_column_an_optimum_still_gives_it(seed: int) -> None:
    rng = random.Random(seed)
    weights, optimal, _ = _problem(rng)
    n = len(weights)
    order = rng.sample(range(n), rng.randint(0, n))
    left = optimal
    for row in order:
        first = min(p[row] for p in left)
        left = [p for p in left if p[row] == first]
    got = lexicographic_assignment(weights, list(rng.choice(optimal)), order)
    assert got is not None
    assert tuple(got) in left


@pytest.mark.parametrize("seed", range(300))
def test_an_assignment_that_is_not_optimal_decides_nothing(seed: int) -> None:
    rng = random.Random(seed)
    weights, _, worse = _problem(rng)
    while not worse:  # every assignment optimal: draw another problem
        weights, _, worse = _problem(rng)
    n = len(weights)
    assert lexicographic_assignment(weights, list(rng.choice(worse)), list(range(n))) is None


@pytest.mark.parametrize("seed", range(300))
def test_best_assignment_is_an_optimal_one(seed: int) -> None:
    rng = random.Random(seed)
    weights, optimal, _ = _problem(rng)
    got = best_assignment(weights)
    assert got is not None
    assert tuple(got) in optimal


def test_best_assignment_without_a_perfect_one_is_none() -> None:
    assert best_assignment([[5, None], [7, None]]) is None
