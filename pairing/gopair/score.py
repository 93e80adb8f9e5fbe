"""gopair's score of a candidate pair: higher is better, every term is <= 0.

| term | HANDICAPS MAX | HANDICAPS MIN |
|---|---|---|
| rating | -abs(collapsed rating difference) | 0 (gopair: -rand(0.1), a tie breaker) |
| already played | -16 per earlier game | same |
| wins | -1.5 * abs(wins difference) | same |
| same club | -2 | 0 |

``pair_score`` gives the exact terms (for explanations and the printed totals).
``search_weight`` gives the same total in binary floating point, summed in gopair's order:
the search compares such sums, and where exact totals tie, Perl's rounding decides which
pairing is found "better"; reproducing it keeps our boards identical to gopair's. The random
tie breaker of even events is not reproduced.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from pairing.gopair.model import HandicapMode

__all__ = [
    "PairScore",
    "PlayerFacts",
    "collapse",
    "pair_score",
    "perl_collapse",
    "search_weight",
]

PLAYED_PENALTY = Decimal(-16)
WINS_FACTOR = Decimal("-1.5")
CLUB_PENALTY = Decimal(-2)


def collapse(rating: Decimal) -> Decimal:
    """AGA ratings without the -1..1 gap: 1 is taken from dan and added to kyu ratings.

    >>> collapse(Decimal("3.5")), collapse(Decimal("-2.0"))
    (Decimal('2.5'), Decimal('-1.0'))
    """
    if rating >= 1:
        return rating - 1
    if rating <= -1:
        return rating + 1
    return rating


@dataclass(frozen=True, slots=True)
class PlayerFacts:
    """What the score reads of a player before the round."""

    id: int
    rating: Decimal
    """Registered AGA rating (the score uses it collapsed)."""
    club: str
    wins: int
    opponents: tuple[int, ...]
    """One entry per game played (a rematch appears twice)."""


@dataclass(frozen=True, slots=True)
class PairScore:
    """The four terms, as gopair explains them (``-2.0r+ 0p+-0.0w+-2c``)."""

    rating: Decimal
    played: Decimal
    wins: Decimal
    club: Decimal

    @property
    def total(self) -> Decimal:
        return self.rating + self.played + self.wins + self.club


def pair_score(a: PlayerFacts, b: PlayerFacts, mode: HandicapMode) -> PairScore:
    """The score of pairing ``a`` with ``b`` (symmetric).

    >>> x = PlayerFacts(1, Decimal("3.5"), "BOST", 1, ())
    >>> y = PlayerFacts(2, Decimal("1.5"), "BOST", 0, (9,))
    >>> pair_score(x, y, HandicapMode.MAX).total
    Decimal('-5.5')
    """
    even = mode is HandicapMode.MIN
    rating = Decimal(0) if even else -abs(collapse(a.rating) - collapse(b.rating))
    played = PLAYED_PENALTY * a.opponents.count(b.id)
    wins = WINS_FACTOR * abs(a.wins - b.wins)
    club = CLUB_PENALTY if not even and a.club and a.club == b.club else Decimal(0)
    return PairScore(rating, played, wins, club)


def search_weight(a: PlayerFacts, b: PlayerFacts, mode: HandicapMode) -> float:
    """The pair's total as gopair's Perl computes it: ``0 + rating + played + wins + club``."""
    terms = pair_score(a, b, mode)
    rating = 0.0
    if mode is HandicapMode.MAX:
        rating = -abs(perl_collapse(a.rating) - perl_collapse(b.rating))
    total = 0.0
    for term in (rating, float(terms.played), float(terms.wins), float(terms.club)):
        total += term
    return total


def perl_collapse(rating: Decimal) -> float:
    """Perl's collapsed rating: the registered decimal read as a double, then 1 moved."""
    value = float(rating)
    if value >= 1:
        return value - 1
    return value + 1 if value <= -1 else value
