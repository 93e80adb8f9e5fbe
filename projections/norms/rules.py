"""The requirements of one title norm over one set of counted games (B.01 1.4.1-1.4.9).

Every threshold is written once here, with its article. Counts that are minimums are rounded
up, maximums rounded down (1.4.4, 1.4.5); averages and percentages are rounded to the nearest
whole number, .5 upwards (1.4.7, 1.4.9).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from projections.norms.model import Check, CountedGame
from ratings.fide_tables import dp_for_percent

__all__ = [
    "MIN_GAMES",
    "NORM_TITLES",
    "REQUIREMENTS",
    "Requirement",
    "check",
    "holds",
    "performance",
]

MIN_GAMES = 9
"""1.4.1a: at least nine games."""
UNRATED = 1400
"""1.4.6c: an unrated opponent (not raised to the floor) counts as 1400."""
MIN_SCORE = Fraction(35, 100)
"""1.4.8b: at least 35 % of the points."""
NO_FEDERATION = "FID"
"""1.4.2a: FID players are accepted but belong to no federation."""
TITLE_HOLDERS = frozenset({"GM", "IM", "WGM", "WIM", "FM", "WFM"})
"""1.4.5a: the titles of 0.31 that count as title-holders (CM and WCM do not)."""


@dataclass(frozen=True, slots=True)
class Requirement:
    """One title's figures (0.5 definitions, 1.4.5b-e, 1.4.6a, 1.4.8)."""

    title: str
    performance: int
    """1.4.8: the performance Rp at least."""
    average: int
    """1.4.8a: the opponents' average Ra at least."""
    floor: int
    """1.4.6a: the adjusted rating floor of the lowest opponent."""
    qualifying: frozenset[str]
    """1.4.5b-e: the opponents' titles that count for the one-third rule."""


REQUIREMENTS: dict[str, Requirement] = {
    "GM": Requirement("GM", 2600, 2380, 2200, frozenset({"GM"})),
    "IM": Requirement("IM", 2450, 2230, 2050, frozenset({"GM", "IM"})),
    "WGM": Requirement("WGM", 2400, 2180, 2000, frozenset({"GM", "IM", "WGM"})),
    "WIM": Requirement("WIM", 2250, 2030, 1850, frozenset({"GM", "IM", "WGM", "WIM"})),
}
NORM_TITLES = tuple(REQUIREMENTS)
"""The titles gained by norms (1.4), highest first."""

_HELD = {
    "GM": frozenset(NORM_TITLES),
    "IM": frozenset({"IM", "WGM", "WIM"}),
    "WGM": frozenset({"WGM", "WIM"}),
    "WIM": frozenset({"WIM"}),
}


def holds(title: str | None, norm: str) -> bool:
    """The player's title already is the norm's, or above it: that norm is not sought.

    >>> holds("IM", "GM"), holds("IM", "IM"), holds("IM", "WGM"), holds(None, "WIM")
    (False, True, True, False)
    """
    return title is not None and norm in _HELD.get(title, frozenset())


def _ceil(value: Fraction) -> int:
    return int(value.__ceil__())


def _floor(value: Fraction) -> int:
    return int(value.__floor__())


def adjusted_ratings(games: Sequence[CountedGame], floor: int) -> tuple[list[int], int | None]:
    """1.4.6: the opponents' ratings (unrated 1400), the lowest raised to the floor if below it.

    Returns the ratings in game order and the id of the opponent raised (None if nobody).

    >>> from projections.norms.model import Opponent
    >>> g = [CountedGame(r, Opponent(r, None, None, x), 1) for r, x in enumerate([2100, None])]
    >>> adjusted_ratings(g, 2200)
    ([2100, 2200], 1)
    """
    ratings = [UNRATED if g.opponent.rating is None else g.opponent.rating for g in games]
    if not ratings:
        return ratings, None
    lowest = min(range(len(ratings)), key=lambda i: ratings[i])
    if ratings[lowest] >= floor:
        return ratings, None
    ratings[lowest] = floor
    return ratings, games[lowest].opponent.id


def performance(title: str, games: Sequence[CountedGame]) -> tuple[int, int | None, int, int, int]:
    """1.4.6-1.4.9 over at least one game: Ra (after the floor), the opponent raised, the
    percentage, dp and Rp, in whole numbers (halves rounded up).

    >>> from projections.norms.model import Opponent
    >>> g = [CountedGame(r, Opponent(r, None, None, 2380), 1 if r < 5 else 0.5) for r in range(9)]
    >>> performance("GM", g)
    (2380, None, 78, 220, 2600)
    """
    n = len(games)
    ratings, raised = adjusted_ratings(games, REQUIREMENTS[title].floor)
    ra = (2 * sum(ratings) + n) // (2 * n)
    halves = round(2 * sum(g.points for g in games))
    percent = (100 * halves + n) // (2 * n)
    dp = dp_for_percent(percent)
    return ra, raised, percent, dp, ra + dp


def check(
    title: str,
    federation: str | None,
    games: Sequence[CountedGame],
    *,
    credited: int = 0,
    federation_exempt: bool = False,
) -> Check:
    """The norm ``title`` over ``games`` for an applicant of ``federation``.

    ``credited``: rounds 1.4.1c counts as games (a forfeit win or a pairing-allocated bye in a
    nine-round event with eight games played); the score, the average and the opponents' mix
    are those of the games played. ``federation_exempt``: 1.4.3a-d apply (1.4.3 and 1.4.4
    waived).
    """
    req = REQUIREMENTS[title]
    n = len(games)
    failures: list[str] = []
    played = n + credited
    if played < MIN_GAMES:
        failures.append(f"1.4.1: {played} games, at least {MIN_GAMES}")
    points = sum((Fraction(g.points) for g in games), Fraction(0))
    titled = sum(1 for g in games if g.opponent.title in TITLE_HOLDERS)
    qualifying = sum(1 for g in games if g.opponent.title in req.qualifying)
    feds = Counter(
        g.opponent.federation for g in games if g.opponent.federation not in (None, NO_FEDERATION)
    )
    federations = {str(k): v for k, v in sorted(feds.items(), key=lambda kv: (-kv[1], str(kv[0])))}
    if n == 0:
        failures.append("no game played")
        return Check(title, (), played, 0.0, 0, 0, {}, 0, None, 0, 0, 0, tuple(failures))
    need_titled = _ceil(Fraction(n, 2))
    if titled < need_titled:
        failures.append(f"1.4.5a: {titled} title-holders, at least {need_titled}")
    need_qualifying = max(3, _ceil(Fraction(n, 3)))
    if qualifying < need_qualifying:
        names = "/".join(sorted(req.qualifying, key=NORM_TITLES.index))
        failures.append(f"1.4.5: {qualifying} {names}, at least {need_qualifying}")
    if not federation_exempt:
        foreign = [f for f in federations if f != federation]
        if len(foreign) < 2:
            failures.append(f"1.4.3: {len(foreign)} federations other than his own, at least 2")
        own = federations.get(federation, 0) if federation is not None else 0
        own_max = _floor(Fraction(3 * n, 5))
        if own > own_max:
            failures.append(f"1.4.4: {own} opponents of his own federation, at most {own_max}")
        one_max = _floor(Fraction(2 * n, 3))
        for fed, count in federations.items():
            if count > one_max:
                failures.append(f"1.4.4: {count} opponents from {fed}, at most {one_max}")
    ra, raised, percent, dp, rp = performance(title, games)
    if ra < req.average:
        failures.append(f"1.4.8a: average rating {ra}, at least {req.average}")
    if rp < req.performance:
        failures.append(f"1.4.8: performance {rp}, at least {req.performance}")
    if points / n < MIN_SCORE:
        failures.append(f"1.4.8b: {float(points):g} points, at least 35 %")
    return Check(
        title=title,
        rounds_counted=tuple(g.round for g in games),
        games=played,
        points=float(points),
        titled=titled,
        qualifying=qualifying,
        federations=federations,
        ra=ra,
        raised=raised,
        percent=percent,
        dp=dp,
        rp=rp,
        failures=tuple(failures),
    )
