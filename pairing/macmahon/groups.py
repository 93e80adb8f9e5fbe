"""Score groups, inner placement and draw-up/draw-down counts (OpenGotha ``fillPairingInfo``)."""

from __future__ import annotations

from dataclasses import dataclass

from pairing.macmahon.params import Criterion
from pairing.macmahon.scoring import ScoreTable

__all__ = ["PLACEMENT_CORRECTION_MAX", "PLACEMENT_CORRECTION_MIN", "GroupInfo", "fill_groups"]

PLACEMENT_CORRECTION_MIN = -1
PLACEMENT_CORRECTION_MAX = 2


@dataclass(frozen=True, slots=True)
class GroupInfo:
    """Where a player stands for pairing round ``r`` (0-based)."""

    group: int
    """0 is the top group; numbering runs category by category, then score downwards."""
    size: int
    inner: int
    """0-based place inside the group by the placement criteria plus the additional one."""
    draw_ups: int
    draw_downs: int


def main_score_range(table: ScoreTable, r: int) -> tuple[int, int]:
    params = table.params
    if params.main_criterion is Criterion.MMS:
        low = params.mm_floor + PLACEMENT_CORRECTION_MIN - params.mm_zero
        high = params.mm_bar + PLACEMENT_CORRECTION_MAX + r - params.mm_zero
        return low, high
    return 0, r


def main_score(table: ScoreTable, key: str, r: int) -> int:
    """Integer part of the main score at the end of round ``r`` (-1: before round 1)."""
    return table.value(key, table.params.main_criterion, r) // 2


def placement_key(
    table: ScoreTable, criteria: tuple[Criterion, ...], r: int, key: str
) -> tuple[object, ...]:
    """Sort key: criteria descending, then name and first name ascending."""
    player = table.players[key]
    return (*(-table.value(key, c, r) for c in criteria), player.name, player.first_name)


def fill_groups(table: ScoreTable, r: int) -> tuple[dict[str, GroupInfo], int]:
    """Group information of every registered player for round ``r``, and the group count."""
    params = table.params
    low, high = main_score_range(table, r)
    additional = (
        params.additional_criterion1 if params.uses_system1(r + 1) else params.additional_criterion2
    )
    criteria = (*params.placement_criteria, additional)
    # A manual smms correction can leave the range; OpenGotha then leaves the player without a
    # group (group 0, size 0). Clamping keeps such a player in the nearest group instead.
    scores = {key: min(max(main_score(table, key, r - 1), low), high) for key in table.players}
    members: dict[tuple[int, int], list[str]] = {}
    for key, score in scores.items():
        if not table.players[key].plays_in(r + 1):
            continue
        members.setdefault((table.category[key], score), []).append(key)
    groups: dict[str, tuple[int, int, int]] = {}
    number = 0
    for cat in range(params.number_of_categories):
        for score in range(high, low - 1, -1):
            group = members.get((cat, score), [])
            group.sort(key=lambda k: placement_key(table, criteria, r - 1, k))
            for inner, key in enumerate(group):
                groups[key] = (number, len(group), inner)
            number += 1
    ups, downs = _draws(table, r)
    info = {
        key: GroupInfo(g, size, inner, ups.get(key, 0), downs.get(key, 0))
        for key, (g, size, inner) in groups.items()
    }
    return info, number


def _draws(table: ScoreTable, r: int) -> tuple[dict[str, int], dict[str, int]]:
    ups: dict[str, int] = {}
    downs: dict[str, int] = {}
    for rr in range(r):
        for key in table.players:
            game = table.game(key, rr)
            if game is None:
                continue
            opponent = game.black if game.white == key else game.white
            mine = main_score(table, key, rr - 1)
            theirs = main_score(table, opponent, rr - 1)
            if mine < theirs:
                ups[key] = ups.get(key, 0) + 1
            elif mine > theirs:
                downs[key] = downs.get(key, 0) + 1
    return ups, downs
