"""Rating-based tie-breaks (C.07 art. 10): ARO, TPR, PTP, APRO, APPO.

Only games played over the board count, each scored 1/½/0 whatever the event's scoring. When
a participant is unrated and no rating is configured for unrated players (`/Unnnn` or
`TiebreakOptions.unrated_rating`), the values are undefined for everyone.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

from projections.tiebreaks.context import TiebreakContext
from projections.tiebreaks.spec import TiebreakSpec
from ratings.fide_tables import dp_for_percent, expected_score_percent

Values = dict[int, float | None]


@dataclass(frozen=True, slots=True)
class _Game:
    rating: int
    score: Decimal  # 1, 0.5 or 0


def _ratings(ctx: TiebreakContext, spec: TiebreakSpec) -> dict[int, int] | None:
    unrated = spec.unrated if spec.unrated is not None else ctx.options.unrated_rating
    ratings: dict[int, int] = {}
    for pid, pr in ctx.players.items():
        if pr.rating is not None:
            ratings[pid] = pr.rating
        elif unrated is not None:
            ratings[pid] = unrated
        else:
            return None
    return ratings


def _games(
    ctx: TiebreakContext, spec: TiebreakSpec, ratings: dict[int, int]
) -> dict[int, list[_Game]]:
    out: dict[int, list[_Game]] = {}
    for pid, pr in ctx.players.items():
        games = []
        for v in pr.rounds:
            if v.played and v.opponent is not None:
                if v.points > ctx.draw:
                    score = Decimal(1)
                elif v.points == ctx.draw:
                    score = Decimal("0.5")
                else:
                    score = Decimal(0)
                games.append(_Game(ratings[v.opponent], score))
        games.sort(key=lambda g: g.rating)
        low = min(spec.cut_low, len(games))
        high = min(spec.cut_high, len(games) - low)
        out[pid] = games[low : len(games) - high]
    return out


def _average(ratings: list[int]) -> int | None:
    if not ratings:
        return None
    return int((Decimal(sum(ratings)) / len(ratings)).quantize(Decimal(1), ROUND_HALF_UP))


def _tpr(games: list[_Game]) -> int | None:
    aro = _average([g.rating for g in games])
    if aro is None:
        return None
    score = sum((g.score for g in games), Decimal(0))
    percent = (score * 100 / len(games)).quantize(Decimal(1), ROUND_HALF_UP)
    return aro + dp_for_percent(int(percent))


def _ptp(games: list[_Game]) -> int | None:
    """The lowest rating whose expected score against these opponents reaches the score."""
    if not games:
        return None
    ratings = [g.rating for g in games]
    target = int(sum((g.score for g in games), Decimal(0)) * 100)
    if target == 0:
        return min(ratings) - 800
    lo, hi = min(ratings) - 800, max(ratings) + 800
    while lo < hi:
        mid = (lo + hi) // 2
        if sum(expected_score_percent(mid, r) for r in ratings) >= target:
            hi = mid
        else:
            lo = mid + 1
    return lo


def _per_player(ctx: TiebreakContext, spec: TiebreakSpec, kind: str) -> Values:
    key = f"{kind}/{spec.code}"
    cached = ctx.cache.get(key)
    if cached is not None:
        return dict(cached)
    ratings = _ratings(ctx, spec)
    if ratings is None:
        return dict.fromkeys(ctx.players)
    games = _games(ctx, spec, ratings)
    fn = {"ARO": lambda g: _average([x.rating for x in g]), "TPR": _tpr, "PTP": _ptp}[kind]
    out: Values = {pid: _as_float(fn(g)) for pid, g in games.items()}
    ctx.cache[key] = {pid: v for pid, v in out.items() if v is not None}
    return out


def _as_float(value: int | None) -> float | None:
    return None if value is None else float(value)


def average_rating(ctx: TiebreakContext, spec: TiebreakSpec) -> Values:
    return _per_player(ctx, spec, "ARO")


def performance_rating(ctx: TiebreakContext, spec: TiebreakSpec) -> Values:
    return _per_player(ctx, spec, "TPR")


def perfect_performance(ctx: TiebreakContext, spec: TiebreakSpec) -> Values:
    return _per_player(ctx, spec, "PTP")


def _opponents_average(ctx: TiebreakContext, per_player: Values) -> Values:
    out: Values = {}
    for pid, pr in ctx.players.items():
        known = [
            x
            for v in pr.rounds
            if v.played and v.opponent is not None and (x := per_player[v.opponent]) is not None
        ]
        if not known:
            out[pid] = None
            continue
        mean = Decimal(repr(sum(known))) / len(known)
        out[pid] = float(mean.quantize(Decimal(1), rounding=ROUND_HALF_UP))
    return out


def average_performance_of_opponents(ctx: TiebreakContext, spec: TiebreakSpec) -> Values:
    """APRO: mean of the played opponents' TPR."""
    return _opponents_average(ctx, performance_rating(ctx, spec))


def average_perfect_performance_of_opponents(ctx: TiebreakContext, spec: TiebreakSpec) -> Values:
    """APPO: mean of the played opponents' PTP."""
    return _opponents_average(ctx, perfect_performance(ctx, spec))
