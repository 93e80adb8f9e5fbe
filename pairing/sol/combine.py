"""SoL's depth-first backtracking pairing (``Tourney._combine``): first complete pairing wins.

The first competitor still to pair is the pivot; its opponents are tried in the visitor's
order, skipping rematches (the phantom included, so nobody gets two byes while another
pairing exists); the rest is paired recursively. Complete, no global objective, exponential in
the worst case (the search gives up after ``MAX_STEPS`` tries).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations

from pairing.sol.model import SolCompetitor, SolError

__all__ = ["MAX_STEPS", "combine", "count_remaining_matches"]

Slot = SolCompetitor | None
Pair = tuple[Slot, Slot]
VisitOrder = Callable[[Sequence[Slot]], list[int]]

MAX_STEPS = 2_000_000


def _key(c: Slot) -> int:
    return 0 if c is None else c.id


def combine(
    competitors: Sequence[Slot], done: set[frozenset[int]], visit: VisitOrder
) -> list[Pair] | None:
    """Pairs in creation order, pivot first, or None when no pairing exists."""
    steps = 0

    def search(rest: Sequence[Slot]) -> list[Pair] | None:
        nonlocal steps
        if len(rest) < 2:
            return None
        pivot = rest[0]
        for i in visit(rest):
            other = rest[i]
            if other is pivot or frozenset((_key(pivot), _key(other))) in done:
                continue
            steps += 1
            if steps > MAX_STEPS:
                raise SolError("pairing search gave up: too many combinations to try")
            if len(rest) == 2:
                return [(pivot, other)]
            tail = search([c for c in rest if c is not pivot and c is not other])
            if tail is not None:
                return [(pivot, other), *tail]
        return None

    return search(list(competitors))


def count_remaining_matches(competitors: Sequence[Slot], done: set[frozenset[int]]) -> int:
    """How many matches a greedy "all possible matches" round could still make."""
    playing: set[int] = set()
    count = 0
    for a, b in combinations(competitors, 2):
        ka, kb = _key(a), _key(b)
        if frozenset((ka, kb)) not in done and ka not in playing and kb not in playing:
            count += 1
            playing.update((ka, kb))
    return count
