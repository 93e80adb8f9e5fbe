"""The order in which SoL's Swiss engine tries opponents for a pivot (pairing.md §6.2).

``competitors`` is the list still to pair, in ranking order, starting with the pivot, with the
phantom (None) last when the count is odd. Visitors return positions into that list.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import chain

from pairing.sol.model import Couplings, SolCompetitor

__all__ = ["delay_compatriots", "visit_order"]

Slot = SolCompetitor | None

STAGGER_THRESHOLD = 50
STAGGER_OFFSET = 25


def _same_points_run(competitors: Sequence[Slot], points: Mapping[int, int]) -> int:
    pivot = competitors[0]
    assert pivot is not None
    run = 0
    for c in competitors:
        if c is None or points[c.id] != points[pivot.id]:
            break
        run += 1
    return run


def visit_order(
    couplings: Couplings,
    competitors: Sequence[Slot],
    points: Mapping[int, int],
    *,
    first_round: bool,
) -> list[int]:
    """Positions to try, for serial, dazed, staggered (Swiss) and seeds (round robin)."""
    n = len(competitors)
    if couplings is Couplings.SEEDS:
        return list(range(n - 1, 0, -1))
    if couplings is Couplings.SERIAL:
        return list(range(n))
    run = _same_points_run(competitors, points)
    if run <= 2:
        return list(range(n))
    # an odd group pulls up the next player, except in round one when the phantom is in
    odd_with_more = run % 2 and run < n and competitors[run] is not None
    if odd_with_more and not (first_round and competitors[-1] is None):
        run += 1
    if couplings is Couplings.STAGGERED and run >= STAGGER_THRESHOLD:
        split = STAGGER_OFFSET
    else:
        split = run // 2
    return list(chain(range(split, run), range(split), range(run, n)))


def delay_compatriots(
    positions: Sequence[int], competitors: Sequence[Slot], points: Mapping[int, int]
) -> list[int]:
    """Within each run of equal points, the pivot's compatriots come after the others."""
    pivot = competitors[0]
    assert pivot is not None
    out: list[int] = []
    phantom: list[int] = []
    run: list[int] = []

    def flush() -> None:
        others = [i for i in run if _nationality(competitors[i]) != pivot.nationality]
        mates = [i for i in run if _nationality(competitors[i]) == pivot.nationality]
        out.extend(others + mates)
        run.clear()

    for i in positions:
        c = competitors[i]
        if c is None:
            phantom.append(i)
            continue
        prev = competitors[run[-1]] if run else None
        if prev is not None and points[prev.id] != points[c.id]:
            flush()
        run.append(i)
    flush()
    return out + phantom


def _nationality(c: Slot) -> str | None:
    return None if c is None else c.nationality
