"""The rest of a Burstein scoregroup decided without a solve, when a short search proves it.

Inside a scoregroup the engine gives each player, highest first, the lowest opponent that some
optimal matching pairs it with (`pairing.burstein.engine._pair_groups`), or lets it float when
none does. Take a matching ``mates`` that pairs the most players with the fewest floaters (as
every optimal one does). Every player, in order, takes the lowest undecided player below it
with an edge (never one who already floated: no optimal matching pairs those inside), or
floats; a choice is undone only where it is proved to leave no optimal matching: the players
left cannot be paired (the floaters' number is fixed), or a count of colour preferences shows
that they cannot reach the compatible pairs an optimum has. The first pairing so found that
reaches them, its floater paired with the partner ``mates`` gives outside the group, is
optimal, and holds each player's lowest possible opponent given the ones before: what one
solve per player decides. Anything else (a long search, another partner outside) proves
nothing, and the engine solves.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import NamedTuple

__all__ = ["Decided", "decide_greedily"]


class Decided(NamedTuple):
    """What a proved greedy pairing decides for the rest of a scoregroup."""

    pairs: list[tuple[int, int]]
    """(higher, lower) in the order the players are decided."""
    floater: int | None
    """The player who floats down, if the greedy pairing leaves one."""
    mates: list[int]
    """The whole optimal matching with these decisions: mate by vertex (itself if none)."""


def _colour_pairs(count: list[int], floats: int) -> int:
    """At most how many pairs with compatible colour preferences a set of players holds when
    ``floats`` of them leave it: ``count`` holds how many prefer neither colour, white, black.
    Only two players who prefer the same colour are not compatible (absolute preferences are
    not paired at all), so the excess of one colour over the other and the indifferent ones
    must play each other; the players who leave are taken from that excess."""
    size = count[0] + count[1] + count[2] - floats
    excess = max(0, abs(count[1] - count[2]) - count[0] - floats)
    return size // 2 - (excess + 1) // 2


def decide_greedily(
    rest: list[int],
    floated: Collection[int],
    mates: list[int],
    weight: Callable[[int, int], int],
    good: int,
    side: list[int],
    solved: bool,
) -> Decided | None:
    """The decisions for the undecided players ``rest`` (in scoregroup order), or None.

    ``floated``: players of ``rest`` who already float; ``mates``: a matching that pairs the
    most players with the fewest floaters, every player of ``rest`` included; ``weight``: the
    weights of the solve this replaces; ``good``: the weight of an edge inside the group
    whose colour preferences are compatible (the others weigh less, or nothing); ``side``:
    each player's colour preference (0 none, 1 white, 2 black); ``solved``: whether
    ``mates`` is optimal with these weights (its compatible pairs are the most there are),
    else only without the colours of this group's edges (a count of the preferences bounds
    them instead).
    """
    inside = set(rest)
    old = 0  # twice the weight of the edges of ``mates`` at ``rest``
    target = 0  # twice the pairs inside with compatible colour preferences in ``mates``
    outside: list[int] = []  # the partners outside the group of those who do not float yet
    for v in rest:
        m = mates[v]
        if m == v:
            return None
        if m in inside:
            w = weight(v, m)
            old += w
            target += w == good
        else:
            old += 2 * weight(v, m)
            if v not in floated:
                outside.append(m)
    if len(outside) > 1 or (outside and any(f in inside for f in floated)):
        return None
    order = [v for v in rest if v not in floated]
    count = [0, 0, 0]
    for v in order:
        count[side[v]] += 1
    search = _Search(order, weight, good, side, count, outside)
    search.target = target // 2 if solved else _colour_pairs(count, len(outside))
    if not search.run(0):
        return None
    result = list(mates)
    new = sum(2 * weight(f, mates[f]) for f in floated if f in inside)
    for v, u in search.pairs:
        result[v], result[u] = u, v
        new += 2 * weight(v, u)
    floater = None
    if search.left:
        floater, partner = search.left[0], outside[0]
        result[floater], result[partner] = partner, floater
        new += 2 * weight(floater, partner)
    if new < old:
        return None
    return Decided(search.pairs, floater, result)


# A search that visits more players than this proves nothing (the engine solves instead).
_BUDGET = 1000


class _Search:
    """The depth-first search of :func:`decide_greedily`: its state while it runs."""

    def __init__(
        self,
        order: list[int],
        weight: Callable[[int, int], int],
        good: int,
        side: list[int],
        count: list[int],
        outside: list[int],
    ) -> None:
        self.order = order
        self.weight = weight
        self.good = good
        self.side = side
        self.count = count  # the undecided players' preferences, as `_colour_pairs` counts
        self.outside = outside
        self.floats = len(outside)
        self.target = 0
        self.reached = 0
        self.used: set[int] = set()
        self.pairs: list[tuple[int, int]] = []
        self.left: list[int] = []
        self.visits = 0

    def run(self, i: int) -> bool | None:
        """Decide ``order[i:]``: True when decided, False when proved impossible, None when
        neither could be shown (the decisions made are then meaningless)."""
        order, used = self.order, self.used
        while i < len(order) and order[i] in used:
            i += 1
        if i == len(order):
            return self.reached >= self.target and not self.floats
        self.visits += 1
        if self.visits > _BUDGET:
            return None
        v = order[i]
        count, side = self.count, self.side
        count[side[v]] -= 1
        for u in reversed(order[i + 1 :]):
            if u in used:
                continue
            w = self.weight(v, u)
            if not w:
                continue
            gain = w == self.good
            count[side[u]] -= 1
            if self.reached + gain + _colour_pairs(count, self.floats) >= self.target:
                used.add(v)
                used.add(u)
                self.pairs.append((v, u))
                self.reached += gain
                found = self.run(i + 1)
                if found is not False:
                    return found
                self.reached -= gain
                self.pairs.pop()
                used.discard(v)
                used.discard(u)
            count[side[u]] += 1
        if self.floats:  # no opponent inside: ``v`` floats
            if not self.weight(v, self.outside[0]):
                return None  # another partner below might do: not shown here
            self.floats -= 1
            self.left.append(v)
            used.add(v)
            found = self.run(i + 1)
            if found is not False:
                return found
            used.discard(v)
            self.left.pop()
            self.floats += 1
        count[side[v]] += 1
        return False
