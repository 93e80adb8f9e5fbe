"""SoL's round-robin orders: ``seeds`` (backtracking, farthest first) and ``circle``."""

from __future__ import annotations

from collections.abc import Sequence

from pairing.sol.model import SolCompetitor

__all__ = ["circle_round", "seeds_order"]

Slot = SolCompetitor | None


def seeds_order(competitors: Sequence[SolCompetitor]) -> list[Slot]:
    """By (seed position, -rate, name), the phantom appended to an odd field."""
    seeded = sorted(competitors, key=_seed_key)
    order: list[Slot] = []
    order.extend(seeded)
    if len(order) % 2:
        order.append(None)
    return order


def _seed_key(c: SolCompetitor) -> tuple[int, int, str]:
    return (c.position, -(c.rate or 0), c.name)


def circle_round(
    competitors: Sequence[SolCompetitor], played_rounds: int
) -> list[tuple[Slot, Slot]]:
    """The circle method: first fixed, the others rotate one step per round; i meets n-1-i.

    The order comes from three stable sorts: by name, by rate (descending), by position; an
    odd field adds the phantom last.
    """
    ranked = sorted(competitors, key=lambda c: c.name)
    ranked.sort(key=lambda c: -(c.rate or 0))
    ranked.sort(key=lambda c: c.position)
    order: list[Slot] = []
    order.extend(ranked)
    if len(order) % 2:
        order.append(None)
    for _ in range(played_rounds):
        order.insert(1, order.pop())
    n = len(order)
    return [(order[i], order[n - 1 - i]) for i in range(n // 2)]
