"""SoL's carrom scoring and ranking (pairing.md §6.3).

Win 2 points, draw 1; netscore is the score difference (a phantom win counts phantomscore);
totscore sums one's own scores; bucholz sums the opponents' points (plus virtual points of
retired opponents under the ``trend`` policies), the phantom giving 0. Final matches do not
count.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from pairing.sol.model import (
    Retirements,
    SolCompetitor,
    SolError,
    SolMatch,
    SolParams,
    SolSystem,
    SolTourney,
)

__all__ = ["Standing", "match_outcome", "order_for_pairing", "ranking", "standings"]


@dataclass(frozen=True, slots=True)
class Standing:
    id: int
    points: int
    bucholz: int
    netscore: int
    totscore: int


def match_outcome(m: SolMatch) -> tuple[int | None, int | None, int]:
    """(winner, loser, netscore); netscore 0 is a draw. A 0-0 match has no result yet."""
    if m.score1 == m.score2 == 0:
        raise SolError(f"round {m.round} board {m.board}: match ended without result (0-0)")
    if m.score1 >= m.score2:
        return m.competitor1, m.competitor2, m.score1 - m.score2
    return m.competitor2, m.competitor1, m.score2 - m.score1


@dataclass(slots=True)
class _Stats:
    points: int = 0
    real_points: int = 0
    played: int = 0
    netscore: int = 0
    totscore: int = 0
    bucholz: int = 0
    virtual: int = 0


def standings(
    tourney: SolTourney, params: SolParams, through_round: int | None = None
) -> dict[int, Standing]:
    matches = [
        m
        for m in tourney.matches
        if not m.final and (through_round is None or m.round <= through_round)
    ]
    stats = {c.id: _Stats() for c in tourney.competitors}
    for m in matches:
        winner, loser, net = match_outcome(m)
        for cid, gain in ((winner, 1), (loser, 1)) if net == 0 else ((winner, 2), (loser, 0)):
            if cid is None:
                continue
            s = stats[cid]
            s.played += 1
            s.points += gain
            s.real_points += gain if m.competitor2 is not None else 0
            s.netscore += net if gain == 2 else -net if gain == 0 else 0
    if params.retirements is not Retirements.NONE:
        factor = Fraction(1) if params.retirements is Retirements.TREND else Fraction(70, 100)
        current = tourney.current_round
        for s in stats.values():
            if s.played < current and s.real_points:
                s.virtual = int(Fraction(s.real_points, s.played) * factor * (current - s.played))
    phantom = _Stats()
    for m in matches:
        s1 = stats[m.competitor1]
        s2 = phantom if m.competitor2 is None else stats[m.competitor2]
        s1.totscore += m.score1
        s2.totscore += m.score2
        s1.bucholz += s2.points + s2.virtual
        s2.bucholz += s1.points + s1.virtual
    return {
        cid: Standing(cid, s.points, s.bucholz, s.netscore, s.totscore) for cid, s in stats.items()
    }


def _name_sorted(competitors: Sequence[SolCompetitor]) -> list[SolCompetitor]:
    return sorted(competitors, key=lambda c: c.name)


def ranking(tourney: SolTourney, params: SolParams, through_round: int | None = None) -> list[int]:
    """Competitor ids by SoL's ranking (``Tourney.ranking``) after ``through_round``."""
    ranked = tourney.current_round if through_round is None else through_round
    table = standings(tourney, params, ranked)
    comps = _name_sorted(tourney.competitors)

    def key(c: SolCompetitor) -> tuple[int, ...]:
        s, rate = table[c.id], c.rate or 0
        if ranked == 0:
            return (-c.position, rate) if params.rated else (-c.position,)
        if params.system is SolSystem.SWISS:
            return (s.points, s.bucholz, s.netscore, s.totscore, -c.position, rate)
        if params.system is SolSystem.ROUNDROBIN:
            return (s.points, s.netscore, s.totscore, -c.position, rate)
        return (s.points, -c.position, rate)

    return [c.id for c in sorted(comps, key=key, reverse=True)]


def order_for_pairing(tourney: SolTourney, params: SolParams) -> list[int]:
    """The ranking the Swiss engine walks: with "delay top players" the rate comes early."""
    order = ranking(tourney, params)
    ranked = tourney.current_round
    if not (params.rated and ranked < params.delaytoppairing):
        return order
    table = standings(tourney, params, ranked)
    by_id = {c.id: c for c in tourney.competitors}

    def key(cid: int) -> tuple[int, ...]:
        s, c = table[cid], by_id[cid]
        rate = c.rate or 0
        if params.system is SolSystem.SWISS:
            return (s.points, s.bucholz, rate, s.netscore, s.totscore)
        return (s.points, s.bucholz, -c.position, rate, s.netscore, s.totscore)

    return sorted(order, key=key, reverse=True)
