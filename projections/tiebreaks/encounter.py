"""Direct encounter (C.07 art. 6), applied inside each group still tied, recursively.

Inside a tied group each participant scores the points he made against the others in the
group (the mean when two met more than once). When everyone in the group has met (always in a
round robin), the group is ordered by that score. Otherwise a participant is placed ahead only
when his score beats what every remaining participant could still have made, winning all the
games they did not play against the group. Sub-groups still tied are resolved the same way,
until nothing changes. The value is the participant's place inside his tied group (1 = first);
lower is better.
"""

from __future__ import annotations

from collections.abc import Sequence

from projections.tiebreaks.context import TiebreakContext

Values = dict[int, float | None]


def _scores(ctx: TiebreakContext, group: Sequence[int]) -> dict[int, tuple[float, int]]:
    """Per member: points against the group (mean per opponent) and opponents met."""
    members = set(group)
    out: dict[int, tuple[float, int]] = {}
    for pid in group:
        per_opponent: dict[int, list[float]] = {}
        for v in ctx.players[pid].rounds:
            counts = v.played or (ctx.round_robin and v.opponent is not None)
            if counts and v.opponent in members:
                per_opponent.setdefault(v.opponent, []).append(v.points)
        total = sum(sum(p) / len(p) for p in per_opponent.values())
        out[pid] = (total, len(per_opponent))
    return out


def _split(ctx: TiebreakContext, group: list[int], start: dict[int, int]) -> list[list[int]]:
    scores = _scores(ctx, group)
    others = len(group) - 1
    everyone_met = ctx.round_robin or all(met >= others for _, met in scores.values())
    if everyone_met:
        ordered = sorted(group, key=lambda p: (-scores[p][0], start[p]))
        blocks: list[list[int]] = []
        for pid in ordered:
            if blocks and scores[blocks[-1][0]][0] == scores[pid][0]:
                blocks[-1].append(pid)
            else:
                blocks.append([pid])
        return blocks
    best = {p: scores[p][0] + (others - scores[p][1]) * ctx.win for p in group}
    ordered = sorted(group, key=lambda p: (-scores[p][0], -best[p], start[p]))
    blocks = []
    for i, pid in enumerate(ordered):
        rest = ordered[i + 1 :]
        if rest and scores[pid][0] > max(best[q] for q in rest):
            blocks.append([pid])
        else:
            blocks.append(ordered[i:])
            break
    return blocks


def _resolve(ctx: TiebreakContext, group: list[int], start: dict[int, int]) -> list[list[int]]:
    if len(group) < 2:
        return [group]
    blocks = _split(ctx, group, start)
    if len(blocks) == 1:
        return blocks
    out: list[list[int]] = []
    for block in blocks:
        out.extend(_resolve(ctx, block, start))
    return out


def direct_encounter(
    ctx: TiebreakContext, groups: Sequence[Sequence[int]], start: dict[int, int]
) -> Values:
    out: Values = {}
    for group in groups:
        place = 1
        for block in _resolve(ctx, list(group), start):
            for pid in block:
                out[pid] = float(place)
            place += len(block)
    return out
