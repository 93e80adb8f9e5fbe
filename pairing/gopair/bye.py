"""gopair's choice of the bye for an odd field.

Candidates, in rating order: explicit ``BYE`` players if any; otherwise players outside the top
and bottom 10 % who have lost a game, have not missed a round and will not drop later. When
nobody qualifies the rules are dropped one by one (drop, missed, extremes, wins). Among the
candidates those with the most games are kept; gopair then draws one at random.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["ByeFacts", "bye_candidates"]

_RULES = ("drop", "missed", "extremes", "wins")


@dataclass(frozen=True, slots=True)
class ByeFacts:
    id: int
    explicit: bool
    games: int
    wins: int
    drops_later: bool


def _eligible(index: int, count: int, p: ByeFacts, rules: set[str], played_rounds: int) -> bool:
    if "extremes" in rules and (index < count * 0.1 or index > count * 0.9):
        return False
    if "missed" in rules and p.games < played_rounds:
        return False
    if "wins" in rules and p.wins >= played_rounds:
        return False
    return not ("drop" in rules and p.drops_later)


def bye_candidates(by_rating: Sequence[ByeFacts], played_rounds: int) -> list[int]:
    """The ids gopair draws the bye from (``played_rounds`` = rounds already paired)."""
    explicit = [p.id for p in by_rating if p.explicit]
    rules = set(_RULES)
    count = len(by_rating)
    pool: list[ByeFacts] = []
    while True:
        if explicit:
            pool = [p for p in by_rating if p.explicit]
            break
        pool = [p for i, p in enumerate(by_rating) if _eligible(i, count, p, rules, played_rounds)]
        if pool or not rules:
            break
        rules.discard(next(r for r in _RULES if r in rules))
    most = max((p.games for p in pool), default=0)
    return [p.id for p in pool if p.games >= most]
