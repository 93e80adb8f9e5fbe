"""Who gets what: the prize list of a tournament applied to its final ranking (pure).

The rules, in order (``docs/prizes.md`` says them for directors, with their sources):

1. The ranking is the standings: points, then the tournament's tie-break chain.
2. One prize per player. The money prizes are handed out most valuable first (larger amounts
   first, equal amounts in the order listed); each goes to the best-ranked player of its
   category (or of the whole field) who holds no prize yet. The prizes that are only things
   (a book, a trophy) come after the money and its sharing, to players who receive no money.
3. Money is shared by tied players (equal points) unless ``sharing = "none"``: for each
   category and each score, the money of that category's prizes held by players on that
   score is pooled with the players on that score who could have taken one (in the category,
   holding no prize), and divided equally, or by the Hort system (each keeps half of the
   prize his tie-break gave him, the other halves are divided equally). A prize that is not
   money stays with the player the tie-break gave it to.
4. A player takes the larger: when declining his category (his prize or his share) would
   give him more money elsewhere (another category's prize, or a share of another pool), he
   declines it, and the allocation is made again; repeated until nobody gains by declining.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

from decide.prizes import check_year
from decide.state import TournamentState
from events.prizes import Category, Prize, PrizeTable, Sharing
from projections.standings import StandingRow

__all__ = ["Award", "Entrant", "allocate", "entrants"]

ZERO = Decimal(0)


@dataclass(frozen=True, slots=True)
class Entrant:
    """A player as the prize list sees him: final rank and points, and what categories read."""

    player: int
    name: str
    rank: int
    points: float
    rating: int | None = None
    sex: str | None = None
    birth_year: int | None = None
    federation: str | None = None


@dataclass(frozen=True, slots=True)
class Award:
    """What one player receives."""

    player: int
    name: str
    rank: int
    points: float
    category: str | None
    """The category of the prize (or pool); None: the whole field."""
    place: int | None
    """The place whose prize the tie-break gave him; None: a share of a pool without one."""
    amount: Decimal
    """The money he receives (0 for a prize that is only a thing)."""
    item: str | None = None
    announced: Decimal | None = None
    """The amount announced for his place (before sharing)."""
    shared_by: int = 1
    """Players sharing the pool (1: not shared)."""
    places: tuple[int, ...] = ()
    """The places whose money was pooled."""


_YEAR = re.compile(r"(1[89]\d\d|2[01]\d\d)")


def _birth_year(birth: str | None) -> int | None:
    """The year of a birth date as registered (``2001-05-04``, ``2001/05/04``, ``2001``).

    >>> _birth_year("1975/01/01"), _birth_year("2001"), _birth_year(None)
    (1975, 2001, None)
    """
    found = _YEAR.search(birth or "")
    return int(found.group(1)) if found else None


def _sex(sex: str | None) -> str | None:
    """``m`` or ``f`` as registered; a TRF's ``w`` is ``f`` (an imported file keeps its code).

    >>> _sex("w"), _sex("M"), _sex(None)
    ('f', 'm', None)
    """
    if not sex:
        return None
    return {"w": "f"}.get(sex.strip().lower(), sex.strip().lower())


def entrants(state: TournamentState, rows: Sequence[StandingRow]) -> list[Entrant]:
    """The standings' players, in rank order, with the data categories read."""
    out = []
    for r in rows:
        p = state.players[r.player]
        out.append(
            Entrant(
                r.player, r.name, r.rank, r.points, p.rating or None, _sex(p.sex),
                _birth_year(p.birth), (p.federation or "").upper() or None,
            )
        )  # fmt: skip
    return out


def belongs(entrant: Entrant, category: Category | None, year: int | None) -> bool:
    """Whether ``entrant`` may win the prizes of ``category`` (None: the whole field)."""
    if category is None:
        return True
    c, e = category, entrant
    if e.rating is None and (not c.unrated or c.rating_min is not None):
        return False
    if e.rating is not None and c.rating_min is not None and e.rating < c.rating_min:
        return False
    if e.rating is not None and c.rating_max is not None and e.rating > c.rating_max:
        return False
    if c.born_min is not None or c.born_max is not None or c.under is not None:
        if e.birth_year is None:
            return False
        if c.born_min is not None and e.birth_year < c.born_min:
            return False
        if c.born_max is not None and e.birth_year > c.born_max:
            return False
        if c.under is not None and year is not None and e.birth_year < year - c.under:
            return False
    if c.sex is not None and e.sex != c.sex:
        return False
    return not c.federations or (e.federation or "") in c.federations


def _value_order(prizes: Sequence[Prize]) -> list[int]:
    """Prize indexes, most valuable first: money by amount, then things; ties as listed."""
    return sorted(
        range(len(prizes)),
        key=lambda i: (0, -(prizes[i].amount or ZERO), i) if prizes[i].money else (1, ZERO, i),
    )


def _money(prize: Prize | None) -> Decimal:
    return ZERO if prize is None or prize.amount is None else prize.amount


def _rounded(value: Decimal, step: Decimal) -> Decimal:
    return (value / step).to_integral_value(ROUND_HALF_UP) * step


Declined = frozenset[tuple[int, str | None]]


@dataclass(frozen=True, slots=True)
class _Ctx:
    table: PrizeTable
    order: list[int]
    eligible: dict[str | None, list[Entrant]]


def _allocate_once(ctx: _Ctx, declined: Declined) -> dict[int, Award]:
    """Money prizes by value, then the pools of tied players, then the prizes that are only
    things (to players holding no money)."""
    prizes = ctx.table.prize
    by_id = {e.player: e for e in ctx.eligible[None]}
    holder: dict[int, int] = {}  # player -> prize index
    awards: dict[int, Award] = {}

    def hand_out(money: bool) -> None:
        for i in ctx.order:
            prize, c = prizes[i], prizes[i].category
            if prize.money != money:
                continue
            for e in ctx.eligible[c]:
                if e.player not in awards and (e.player, c) not in declined:
                    holder[e.player] = i
                    awards[e.player] = Award(
                        e.player, e.name, e.rank, e.points, c, prize.place,
                        prize.amount or ZERO, prize.item, prize.amount,
                    )  # fmt: skip
                    break

    hand_out(money=True)
    if ctx.table.sharing is not Sharing.NONE:
        _share(ctx, declined, holder, awards, by_id)
    hand_out(money=False)
    return awards


def _share(
    ctx: _Ctx,
    declined: Declined,
    holder: dict[int, int],
    awards: dict[int, Award],
    by_id: dict[int, Entrant],
) -> None:
    """Pool each category's money among the players tied on each score (rule 3)."""
    prizes = ctx.table.prize
    pooled: set[int] = set()
    categories: list[str | None] = []
    for i in ctx.order:
        if prizes[i].money and prizes[i].category not in categories:
            categories.append(prizes[i].category)
    for c in categories:
        held = {p: prizes[i] for p, i in holder.items() if prizes[i].category == c}
        for score in sorted({by_id[p].points for p in held}, reverse=True):
            members = [
                e
                for e in ctx.eligible[c]
                if e.points == score
                and e.player not in pooled
                and (e.player, c) not in declined
                and (e.player in held or e.player not in holder)
            ]
            if len(members) < 2:
                continue
            own = {e.player: _money(held.get(e.player)) for e in members}
            pool = sum(own.values(), ZERO)
            places = tuple(sorted(held[e.player].place for e in members if e.player in held))
            n = len(members)
            for e in members:
                if ctx.table.sharing is Sharing.HORT:
                    share = own[e.player] / 2 + pool / 2 / n
                else:
                    share = pool / n
                before = awards.get(e.player)
                awards[e.player] = Award(
                    e.player, e.name, e.rank, e.points, c,
                    before.place if before else None,
                    _rounded(share, ctx.table.round_to),
                    before.item if before else None,
                    before.announced if before else None,
                    n, places,
                )  # fmt: skip
                pooled.add(e.player)


def allocate(table: PrizeTable, field: Sequence[Entrant], year: int | None = None) -> list[Award]:
    """The awards of ``table`` over ``field`` (players in rank order), in rank order.

    ``year`` is the event's (age categories, ``under``).
    """
    check_year(table, year)
    eligible: dict[str | None, list[Entrant]] = {None: list(field)}
    for c in table.category:
        eligible[c.name] = [e for e in field if belongs(e, c, year)]
    ctx = _Ctx(table, _value_order(table.prize), eligible)
    declined: Declined = frozenset()
    awards = _allocate_once(ctx, declined)
    while table.sharing is not Sharing.NONE:
        better = _better_choice(ctx, declined, awards)
        if better is None:
            break
        declined = better
        awards = _allocate_once(ctx, declined)
    rank = {e.player: i for i, e in enumerate(field)}
    return sorted(awards.values(), key=lambda a: rank[a.player])


def _better_choice(ctx: _Ctx, declined: Declined, awards: dict[int, Award]) -> Declined | None:
    """The first player (in rank order) who gets more money by declining his category, with
    that decline added; None when nobody does.

    Only a player who belongs to another category with a larger money prize than what he
    receives can gain: a share of a pool is never more than the pool's largest prize.
    """
    best: dict[str | None, Decimal] = {}
    for prize in ctx.table.prize:
        best[prize.category] = max(best.get(prize.category, ZERO), _money(prize))
    members = {c: {e.player for e in field} for c, field in ctx.eligible.items()}
    for award in sorted(awards.values(), key=lambda a: (a.rank, a.player)):
        elsewhere = max(
            (
                amount
                for c, amount in best.items()
                if c != award.category
                and award.player in members[c]
                and (award.player, c) not in declined
            ),
            default=ZERO,
        )
        if elsewhere <= award.amount:
            continue
        trial = declined | {(award.player, award.category)}
        other = _allocate_once(ctx, trial).get(award.player)
        if other is not None and other.amount > award.amount:
            return trial
    return None
