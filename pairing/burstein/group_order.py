"""The order of a scoregroup together with the player floated into it (pairing.md 3).

bbpPairings compares two players of different scores by Sonneborn-Berger, then Buchholz
times score, then Median times score, then rank. That comparison is not transitive once a
floater (a higher score) joins a scoregroup: with scores 1, 0, 0 and ranks 28, 27, 50 it can
say 50 before 27 (Buchholz), 27 before 28 and 28 before 50 (rank). The order it ends with is
then the one its sorting algorithm produces: the C++ library's ``std::list::sort``, a
bottom-up merge sort. Sorting with another algorithm (Python's) gives another order, and so
other pairings (seed 462 of ``make compare``: 50 players, round 2). So the order is made by
the same merge pattern, written here from its description. No version of C.04.4.2 has the
score products: the order is the reference's departure, kept for identity with it
(docs/burstein_disputed.md).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

__all__ = ["list_sort"]

T = TypeVar("T")


def _merge(first: list[T], second: list[T], before: Callable[[T, T], bool]) -> list[T]:
    """``second`` merged into ``first``: an element of ``second`` goes in front of an element
    of ``first`` only when it comes strictly before it (ties keep ``first``'s first)."""
    merged: list[T] = []
    i = j = 0
    while i < len(first) and j < len(second):
        if before(second[j], first[i]):
            merged.append(second[j])
            j += 1
        else:
            merged.append(first[i])
            i += 1
    merged.extend(first[i:])
    merged.extend(second[j:])
    return merged


def list_sort(items: Sequence[T], before: Callable[[T, T], bool]) -> list[T]:
    """``items`` sorted as a bottom-up merge sort with power-of-two buckets sorts them.

    Elements are taken one at a time; each is merged with the filled buckets from the
    smallest up (the bucket's elements first on ties) until an empty bucket takes the run;
    finally the buckets are merged from the smallest up, each into the next larger one.

    >>> list_sort([3, 1, 2], lambda a, b: a < b)
    [1, 2, 3]
    >>> beats = {("b", "a"), ("c", "b"), ("a", "c")}  # a cycle: no true order exists
    >>> list_sort(["a", "b", "c"], lambda x, y: (x, y) in beats)
    ['c', 'b', 'a']
    """
    buckets: list[list[T]] = []
    for item in items:
        carry = [item]
        level = 0
        while level < len(buckets) and buckets[level]:
            carry = _merge(buckets[level], carry, before)
            buckets[level] = []
            level += 1
        if level == len(buckets):
            buckets.append(carry)
        else:
            buckets[level] = carry
    result: list[T] = []
    for bucket in buckets:
        result = _merge(bucket, result, before)
    return result
