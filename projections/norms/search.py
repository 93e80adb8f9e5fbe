"""The subsets of a player's games that the regulations let a norm be counted over.

1.4.1e: in an event whose pairings are not fixed in advance (a Swiss), the games after the
norm was reached may be left out: the norm is counted over rounds 1..k. 1.4.1f: any game
against an opponent the player defeated may be left out, as long as the rest still meets the
opponents' mix and the minimum number of games (in a round robin the mix must also allow a
norm over the whole event). Every subset is tried: leaving out games only removes games, so
with at least nine kept there are at most C(13,0)+...+C(13,4) = 1,093 of them in a 13-round
event, per title.

The best subset of a title: the most games, then the highest performance, then the fewest
and earliest-numbered rounds left out.
"""

from __future__ import annotations

from itertools import combinations

from projections.norms.model import Applicant, Check, CountedGame, EventFacts, NormResult
from projections.norms.rules import MIN_GAMES, NORM_TITLES, REQUIREMENTS, check, holds, performance

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


def _candidates(
    applicant: Applicant, event: EventFacts
) -> list[tuple[tuple[CountedGame, ...], tuple[int, ...]]]:
    """Each subset worth a check (at least nine games kept) and the rounds it leaves out."""
    games = applicant.games
    if len(games) < MIN_GAMES:
        return []
    rounds = [g.round for g in games]
    ends = [len(games)] if event.predetermined else list(range(len(games), MIN_GAMES - 1, -1))
    out: list[tuple[tuple[CountedGame, ...], tuple[int, ...]]] = []
    for end in ends:
        prefix = games[:end]
        tail = tuple(rounds[end:])
        wins = [i for i, g in enumerate(prefix) if g.points == 1]
        for size in range(min(len(wins), end - MIN_GAMES) + 1):
            for drop in combinations(wins, size):
                if not drop and not tail:
                    continue  # the whole event, checked first
                left = set(drop)
                kept = tuple(g for i, g in enumerate(prefix) if i not in left)
                dropped = tuple(sorted({prefix[i].round for i in drop} | set(tail)))
                out.append((kept, dropped))
    out.sort(key=lambda c: -len(c[0]))  # stable: longest first, then the order built
    return out


def best_subsets(
    applicant: Applicant, event: EventFacts
) -> tuple[dict[str, Check], dict[str, NormResult]]:
    """Each sought title's check over the whole event, and the norms made (best subset)."""
    whole: dict[str, Check] = {}
    made: dict[str, NormResult] = {}
    candidates: list[tuple[tuple[CountedGame, ...], tuple[int, ...]]] | None = None
    for title in sought(applicant):
        full = whole_event(applicant, event, title)
        whole[title] = full
        if full.made:
            made[title] = NormResult(full, ())
            continue
        if event.predetermined and any(f.startswith(_MIX) for f in full.failures):
            continue  # 1.4.1f: a round robin's mix must allow a norm over the whole event
        if candidates is None:
            candidates = _candidates(applicant, event)
        req = REQUIREMENTS[title]
        best: tuple[tuple[int, int, int, tuple[int, ...]], NormResult] | None = None
        for kept, dropped in candidates:
            if best is not None and len(kept) < best[1].check.games:
                break  # candidates come longest first: no longer subset is left
            ra, _, _, _, rp = performance(title, kept)
            if ra < req.average or rp < req.performance:
                continue  # the cheap figures first: most subsets fail there
            result = check(
                title, applicant.federation, kept, federation_exempt=event.federation_exempt
            )
            if not result.made:
                continue
            key = (-result.games, -result.rp, len(dropped), dropped)
            if best is None or key < best[0]:
                best = (key, NormResult(result, dropped))
        if best is not None:
            made[title] = best[1]
    return whole, made
