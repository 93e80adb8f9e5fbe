"""The rest of a Burstein scoregroup decided without a solve, when a greedy pairing proves it.

Inside a scoregroup the engine gives each player, highest first, the lowest opponent that some
optimal matching pairs it with (`pairing.burstein.engine._pair_groups`). Take an optimal
matching ``mates`` of the weights now set (the last solve's, the players it decided fixed).
Let every undecided player, in order, take the lowest undecided player below it with an edge
(never one who already floated: no optimal matching pairs those inside). If that pairing,
the players it leaves over paired with the partners that ``mates`` gives outside the group,
weighs as much as ``mates``, it is optimal itself; and it holds each player's lowest possible
opponent given the ones before, so it is what one solve per player decides. Otherwise nothing
is proved and the engine solves.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass

__all__ = ["Decided", "decide_greedily"]


@dataclass(frozen=True, slots=True)
class Decided:
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

    ``floated``: players of ``rest`` who already float; ``mates``: an optimal matching of
    the weights ``weight`` now holds, in which every player of ``rest`` has a mate; ``good``:
    the weight of an edge inside the group whose colour preferences are compatible (the
    others weigh less, or nothing); ``side``: each player's colour preference (0 none, 1
    white, 2 black); ``solved``: whether ``mates`` is optimal with the colour weights of
    this group's edges, else only without them (it pairs the most players with the fewest
    floaters, as the scoregroups were built).

    A player takes the lowest player below it with an edge unless that edge is not ``good``
    and the players left could then not reach the compatible pairs that ``mates`` has (a
    count of preferences proves it): no optimal matching holds that pair.
    """
    inside = set(rest)
    old = 0  # twice the weight of the edges of ``mates`` at ``rest``
    target = 0  # the pairs inside with compatible colour preferences in ``mates``
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
    target //= 2
    order = [v for v in rest if v not in floated]
    count = [0, 0, 0]
    for v in order:
        count[side[v]] += 1
    if not solved:  # the count of preferences bounds the compatible pairs instead
        target = _colour_pairs(count, len(outside))
    floats = len(outside)
    reached = 0
    used: set[int] = set()
    pairs: list[tuple[int, int]] = []
    left: list[int] = []
    new = sum(2 * weight(f, mates[f]) for f in floated if f in inside)
    for i, v in enumerate(order):
        if v in used:
            continue
        count[side[v]] -= 1
        for u in reversed(order[i + 1 :]):
            if u in used:
                continue
            w = weight(v, u)
            if not w:
                continue
            count[side[u]] -= 1
            if w != good and reached + _colour_pairs(count, floats) < target:
                count[side[u]] += 1
                continue
            used.add(v)
            used.add(u)
            pairs.append((v, u))
            new += 2 * w
            reached += w == good
            break
        else:
            left.append(v)
            floats -= 1
            if floats < 0:
                return None
    if len(left) != len(outside) or len(left) > 1 or (left and any(f in inside for f in floated)):
        return None
    result = list(mates)
    for v, u in pairs:
        result[v], result[u] = u, v
    floater = None
    if left:
        floater, partner = left[0], outside[0]
        w = weight(floater, partner)
        if not w:
            return None
        new += 2 * w
        result[floater], result[partner] = partner, floater
    if new < old or reached < target:
        return None
    return Decided(pairs, floater, result)
