"""Go placement criteria as OpenGotha computes them (pairing.md 4.1 and 4.13).

NBW counts wins (a jigo is half); MMS starts from the rank clamped between floor and bar (smms,
zero at 30k) and adds the same increments. The bye (PAB or full-point bye) and the absence (a
half-point bye, as OpenGotha's h9 writes `0=`) add the configured values, their cumulative sum
rounded down to a whole point; a zero-point bye or a round without pairing adds nothing. A
round without a game counts in SOSM as a virtual opponent with the player's own smms (nothing
in SOSW); the handicap moves an opponent's MMS up by the stones given as white and down by the
stones received as black.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from events.domain import Colour
from events.go import MIN_RANK, Rank, starting_mms
from projections.tiebreaks.context import PlayerRounds, RoundKind, RoundView, TiebreakContext
from projections.tiebreaks.spec import TiebreakSpec

Values = dict[int, float | None]


def rank_value(text: str | None) -> int:
    """`"3d"` → 2, `"15k"` → -15, `"1p"` → 7; unknown ranks count as 30k.

    >>> rank_value("3d"), rank_value("15K"), rank_value("1p"), rank_value(None)
    (2, -15, 7, -30)
    """
    rank = Rank.parse(text or "")
    return MIN_RANK if rank is None else rank.value


def _game_share(v: RoundView) -> float | None:
    """1, ½ or 0 for a game (forfeits included); None for a round without a game."""
    if v.opponent is None:
        return None
    if v.kind is RoundKind.PENDING:
        return 0.0
    return 1.0 if v.points >= 1.0 else 0.5 if v.points == 0.5 else 0.0


def _bonus(v: RoundView, bye: float, absent: float) -> float:
    if v.opponent is not None or v.kind is RoundKind.ZERO_BYE:
        return 0.0
    return bye if v.kind in {RoundKind.PAB, RoundKind.FULL_BYE} else absent


def _running(ctx: TiebreakContext, pr: PlayerRounds, start: float, mms: bool) -> list[float]:
    """The score after each round (NBW, or MMS when `mms`)."""
    go = ctx.options.go
    bye, absent = (go.mms_bye, go.mms_absent) if mms else (go.nbw_bye, go.nbw_absent)
    games = bonus = 0.0
    out: list[float] = []
    for v in pr.rounds:
        share = _game_share(v)
        if share is None:
            bonus += _bonus(v, bye, absent)
        else:
            games += share
        extra = math.floor(bonus) if go.round_down else bonus
        out.append(start + games + extra)
    return out


def smms(ctx: TiebreakContext) -> dict[int, float]:
    cached = ctx.cache.get("go:smms")
    if cached is None:
        go = ctx.options.go
        corrections = dict(go.smms_correction)
        cached = {
            pid: float(
                starting_mms(
                    rank_value(pr.rank), go.floor, go.bar, correction=corrections.get(pid, 0)
                )
            )
            for pid, pr in ctx.players.items()
        }
        ctx.cache["go:smms"] = cached
    return cached


def _final(ctx: TiebreakContext, mms: bool) -> dict[int, float]:
    key = "go:mms" if mms else "go:nbw"
    cached = ctx.cache.get(key)
    if cached is None:
        starts = smms(ctx) if mms else dict.fromkeys(ctx.players, 0.0)
        cached = {}
        for pid, pr in ctx.players.items():
            series = _running(ctx, pr, starts[pid], mms)
            cached[pid] = series[-1] if series else starts[pid]
        ctx.cache[key] = cached
    return cached


def nbw(ctx: TiebreakContext, _spec: TiebreakSpec) -> Values:
    return dict(_final(ctx, mms=False))


def mms(ctx: TiebreakContext, _spec: TiebreakSpec) -> Values:
    return dict(_final(ctx, mms=True))


def _sos_terms(ctx: TiebreakContext, pr: PlayerRounds, mms_based: bool) -> list[float]:
    score = _final(ctx, mms_based)
    own_start = smms(ctx)[pr.player] if mms_based else 0.0
    terms: list[float] = []
    for v in pr.rounds:
        if v.opponent is None:
            terms.append(own_start)
            continue
        term = score[v.opponent]
        if mms_based and v.handicap:
            term += v.handicap if v.colour is Colour.WHITE else -v.handicap
        terms.append(term)
    return terms


def _sos_all(ctx: TiebreakContext, mms_based: bool, cut: int = 0) -> dict[int, float]:
    key = f"go:sos{'m' if mms_based else 'w'}{cut}"
    cached = ctx.cache.get(key)
    if cached is None:
        cached = {}
        for pid, pr in ctx.players.items():
            terms = sorted(_sos_terms(ctx, pr, mms_based))
            cached[pid] = sum(terms[cut:])
        ctx.cache[key] = cached
    return cached


def sosw(ctx: TiebreakContext, spec: TiebreakSpec) -> Values:
    return dict(_sos_all(ctx, False, spec.cut_low))


def sosm(ctx: TiebreakContext, spec: TiebreakSpec) -> Values:
    return dict(_sos_all(ctx, True, spec.cut_low))


def _sosos(ctx: TiebreakContext, mms_based: bool) -> Values:
    sos = _sos_all(ctx, mms_based)
    starts = smms(ctx)
    out: Values = {}
    for pid, pr in ctx.players.items():
        total = 0.0
        for v in pr.rounds:
            if v.opponent is not None:
                total += sos[v.opponent]
            elif mms_based:
                total += starts[pid] * ctx.through
        out[pid] = total
    return out


def sososw(ctx: TiebreakContext, _spec: TiebreakSpec) -> Values:
    return _sosos(ctx, False)


def sososm(ctx: TiebreakContext, _spec: TiebreakSpec) -> Values:
    return _sosos(ctx, True)


def _sodos(ctx: TiebreakContext, mms_based: bool) -> Values:
    score = _final(ctx, mms_based)
    out: Values = {}
    for pid, pr in ctx.players.items():
        total = 0.0
        for v in pr.rounds:
            share = _game_share(v)
            if share and v.opponent is not None:
                total += score[v.opponent] * share
        out[pid] = total
    return out


def sodosw(ctx: TiebreakContext, _spec: TiebreakSpec) -> Values:
    return _sodos(ctx, False)


def sodosm(ctx: TiebreakContext, _spec: TiebreakSpec) -> Values:
    return _sodos(ctx, True)


def _cuss(ctx: TiebreakContext, mms_based: bool) -> Values:
    starts = smms(ctx) if mms_based else dict.fromkeys(ctx.players, 0.0)
    return {pid: sum(_running(ctx, pr, starts[pid], mms_based)) for pid, pr in ctx.players.items()}


def cussw(ctx: TiebreakContext, _spec: TiebreakSpec) -> Values:
    return _cuss(ctx, False)


def cussm(ctx: TiebreakContext, _spec: TiebreakSpec) -> Values:
    return _cuss(ctx, True)


def _exploits(ctx: TiebreakContext, successful: bool) -> Values:
    """EXT / EXR: opponents' NBW weighted by how much weaker than the handicap one played."""
    wins = _final(ctx, mms=False)
    ranks = {pid: rank_value(pr.rank) for pid, pr in ctx.players.items()}
    out: Values = {}
    for pid, pr in ctx.players.items():
        total = 0.0
        for v in pr.rounds:
            if v.opponent is None or not v.played:
                continue
            if successful and _game_share(v) != 1.0:
                continue
            given = v.handicap if v.colour is Colour.WHITE else -v.handicap
            diff = given - (ranks[pid] - ranks[v.opponent])
            coef = 0 if diff < 0 else min(diff + 1, 3)
            total += wins[v.opponent] * coef
        out[pid] = total
    return out


def exploits_tried(ctx: TiebreakContext, _spec: TiebreakSpec) -> Values:
    return _exploits(ctx, successful=False)


def exploits_succeeded(ctx: TiebreakContext, _spec: TiebreakSpec) -> Values:
    return _exploits(ctx, successful=True)


def _confrontation(
    ctx: TiebreakContext, groups: Sequence[Sequence[int]], complete_only: bool
) -> Values:
    """1 for a member who beat every other member of his tied group, else 0."""
    out: Values = {}
    for group in groups:
        members = set(group)
        met: set[frozenset[int]] = set()
        beaten: dict[int, set[int]] = {pid: set() for pid in group}
        for pid in group:
            for v in ctx.players[pid].rounds:
                if v.opponent in members and v.played:
                    met.add(frozenset((pid, v.opponent)))
                    if _game_share(v) == 1.0:
                        beaten[pid].add(v.opponent)
        complete = len(met) == len(group) * (len(group) - 1) // 2
        for pid in group:
            top = len(group) > 1 and beaten[pid] == members - {pid}
            out[pid] = 1.0 if top and (complete or not complete_only) else 0.0
    return out


def direct_confrontation(
    ctx: TiebreakContext, groups: Sequence[Sequence[int]], _start: dict[int, int]
) -> Values:
    """DC: 1 for the member of a group tied on every earlier criterion who beat all the others."""
    return _confrontation(ctx, groups, complete_only=False)


def simplified_direct_confrontation(
    ctx: TiebreakContext, groups: Sequence[Sequence[int]], _start: dict[int, int]
) -> Values:
    """SDC: as DC, but only when every pair of the group has played."""
    return _confrontation(ctx, groups, complete_only=True)
