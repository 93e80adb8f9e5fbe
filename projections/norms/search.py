"""The subsets of a player's games that the regulations let a norm be counted over.

1.4.1e: in an event whose pairings are not fixed in advance (a Swiss), the games after the
norm was reached may be left out: the norm is counted over rounds 1..k. 1.4.1f: any game
against an opponent the player defeated may be left out, as long as the rest still meets the
opponents' mix and the minimum number of games (in a round robin the mix must also allow a
norm over the whole event). Every subset is tried: leaving out games only removes games, so
with at least nine kept there are at most C(13,0)+...+C(13,4) = 1,093 of them in a 13-round
event, per title, and a bound (the lowest-rated wins left out give the best average for a
score; leaving out games never adds title-holders) skips every size of subset that cannot
make the norm, so a 20-round event costs little more.

The best subset of a title: the most games, then the highest performance, then the fewest
and earliest-numbered rounds left out.
"""

from __future__ import annotations

from itertools import combinations

from projections.norms.model import Applicant, Check, CountedGame, EventFacts, NormResult
from projections.norms.rules import (
    MIN_GAMES,
    NORM_TITLES,
    REQUIREMENTS,
    TITLE_HOLDERS,
    UNRATED,
    check,
    holds,
    performance,
)

__all__ = ["best_subsets", "sought", "whole_event"]

_MIX = ("1.4.3", "1.4.4", "1.4.5")
"""The articles of the opponents' mix (titles and federations)."""


def sought(applicant: Applicant) -> tuple[str, ...]:
    """The norms a player may seek: not his title or below it; WGM and WIM for women only.

    >>> from projections.norms.model import Applicant
    >>> sought(Applicant(1, "A", "IM", "GER", "m", ()))
    ('GM',)
    """
    woman = (applicant.sex or "").lower() in ("f", "w")
    return tuple(
        t for t in NORM_TITLES if not holds(applicant.title, t) and (woman or not t.startswith("W"))
    )


def _credited(applicant: Applicant, event: EventFacts, games: int) -> int:
    """1.4.1c: in a nine-round event, eight games and a forfeit win or a pairing-allocated bye."""
    if event.rounds == MIN_GAMES and games == MIN_GAMES - 1 and applicant.credited_rounds:
        return 1
    return 0


def whole_event(applicant: Applicant, event: EventFacts, title: str) -> Check:
    """The norm ``title`` over every game the player played in the event."""
    return check(
        title,
        applicant.federation,
        applicant.games,
        credited=_credited(applicant, event, len(applicant.games)),
        federation_exempt=event.federation_exempt,
    )


def _sizes(applicant: Applicant, event: EventFacts) -> list[tuple[int, int]]:
    """Each (rounds 1..end kept, wins left out) pair that keeps at least nine games, the most
    games kept first, then the longest prefix."""
    n = len(applicant.games)
    ends = [n] if event.predetermined else list(range(n, MIN_GAMES - 1, -1))
    pairs = [(end, size) for end in ends for size in range(end - MIN_GAMES + 1)]
    pairs = [(e, k) for e, k in pairs if (e, k) != (n, 0)]  # the whole event, checked first
    return sorted(pairs, key=lambda p: (-(p[0] - p[1]), -p[0]))


def _may_make(title: str, prefix: tuple[CountedGame, ...], wins: list[int], size: int) -> bool:
    """A bound: can any ``size`` wins left out of ``prefix`` make the norm? Leaving out the
    lowest-rated wins gives the highest average for that score (the floor of 1.4.6 keeps the
    order), and leaving out games never adds title-holders."""
    req = REQUIREMENTS[title]
    kept = len(prefix) - size
    titled = sum(1 for g in prefix if g.opponent.title in TITLE_HOLDERS)
    qualifying = sum(1 for g in prefix if g.opponent.title in req.qualifying)
    if titled < -(-kept // 2) or qualifying < max(3, -(-kept // 3)):
        return False
    lowest = set(sorted(wins, key=lambda i: prefix[i].opponent.rating or UNRATED)[:size])
    best = [g for i, g in enumerate(prefix) if i not in lowest]
    ra, _, _, _, rp = performance(title, best)
    return ra >= req.average and rp >= req.performance


def _search(applicant: Applicant, event: EventFacts, title: str) -> NormResult | None:
    """The best subset that makes the norm ``title`` (the whole event left aside)."""
    games = applicant.games
    best: tuple[tuple[int, int, int, tuple[int, ...]], NormResult] | None = None
    for end, size in _sizes(applicant, event):
        if best is not None and end - size < best[1].check.games:
            break  # no longer subset is left
        prefix = games[:end]
        wins = [i for i, g in enumerate(prefix) if g.points == 1]
        if size > len(wins) or not _may_make(title, prefix, wins, size):
            continue
        tail = {g.round for g in games[end:]}
        for drop in combinations(wins, size):
            left = set(drop)
            kept = tuple(g for i, g in enumerate(prefix) if i not in left)
            result = check(
                title, applicant.federation, kept, federation_exempt=event.federation_exempt
            )
            if not result.made:
                continue
            dropped = tuple(sorted({prefix[i].round for i in drop} | tail))
            key = (-result.games, -result.rp, len(dropped), dropped)
            if best is None or key < best[0]:
                best = (key, NormResult(result, dropped))
    return None if best is None else best[1]


def best_subsets(
    applicant: Applicant, event: EventFacts
) -> tuple[dict[str, Check], dict[str, NormResult]]:
    """Each sought title's check over the whole event, and the norms made (best subset)."""
    whole: dict[str, Check] = {}
    made: dict[str, NormResult] = {}
    for title in sought(applicant):
        full = whole_event(applicant, event, title)
        whole[title] = full
        if full.made:
            made[title] = NormResult(full, ())
            continue
        if event.predetermined and any(f.startswith(_MIX) for f in full.failures):
            continue  # 1.4.1f: a round robin's mix must allow a norm over the whole event
        found = _search(applicant, event, title)
        if found is not None:
            made[title] = found
    return whole, made
