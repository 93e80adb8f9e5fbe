"""SoL's next round (``Tourney.makeNextTurn``), dispatched by system and couplings (§6.1).

1. ``all``: greedy round over all unplayed pairs, in competitor list order.
2. knockout: the seeded bracket first, then winners of consecutive boards.
3. round robin ``circle``: the next circle rotation.
4. a rated tourney, a later round or round robin ``seeds``: ranking-driven backtracking.
5. otherwise (first round, no rating): random, as SoL draws it (``random_seed``).

Within a match the better ranked competitor is competitor 1; the phantom is competitor 2.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from pairing.sol import knockout
from pairing.sol.boards import assign_boards
from pairing.sol.combine import combine, count_remaining_matches
from pairing.sol.model import (
    Couplings,
    SolCompetitor,
    SolError,
    SolPairing,
    SolParams,
    SolRound,
    SolSystem,
    SolTourney,
)
from pairing.sol.ranking import match_outcome, order_for_pairing, ranking, standings
from pairing.sol.roundrobin import circle_round, seeds_order
from pairing.sol.visitors import delay_compatriots, visit_order

__all__ = ["pair"]

Slot = SolCompetitor | None
Pair = tuple[Slot, Slot]


def _done(tourney: SolTourney) -> set[frozenset[int]]:
    return {frozenset((m.competitor1, m.competitor2 or 0)) for m in tourney.matches}


def _random_round(active: list[SolCompetitor], seed: int | None) -> list[Pair]:
    draw = random.Random(seed)
    pool = list(active)
    pairs: list[Pair] = []
    while pool:
        c1 = pool.pop(draw.randint(0, len(pool) - 1))
        c2 = pool.pop(draw.randint(0, len(pool) - 1)) if pool else None
        pairs.append((c1, c2))
    return pairs


def _all_matches(competitors: Sequence[Slot], done: set[frozenset[int]]) -> list[Pair]:
    pairs: list[Pair] = []
    playing: set[int] = set()
    for i, a in enumerate(competitors):
        for b in competitors[i + 1 :]:
            ka, kb = (a.id if a else 0), (b.id if b else 0)
            if frozenset((ka, kb)) in done or ka in playing or kb in playing:
                continue
            pairs.append((a, b))
            if len(pairs) == len(competitors) // 2:
                return pairs
            playing.update((ka, kb))
    return pairs


def _knockout_next(tourney: SolTourney, by_id: dict[int, SolCompetitor]) -> list[Pair]:
    last = tourney.current_round
    boards = sorted((m for m in tourney.matches if m.round == last), key=lambda m: m.board)
    winners = []
    for m in boards:
        winner, _, net = match_outcome(m)
        if net == 0 or winner is None:
            raise SolError(f"round {last} board {m.board}: a knockout match cannot be drawn")
        winners.append(by_id[winner])
    if len(winners) == 1:
        raise SolError("Cannot create another round: no more possible combinations!")
    return list(zip(winners[0::2], winners[1::2], strict=True))


def _backtracking(
    tourney: SolTourney, params: SolParams, active: list[SolCompetitor]
) -> list[Pair]:
    table = standings(tourney, params)
    points = {cid: s.points for cid, s in table.items()}
    first_round = tourney.current_round == 0
    if params.system is SolSystem.ROUNDROBIN:
        competitors: list[Slot] = seeds_order(active)
    else:
        by_id = {c.id: c for c in active}
        competitors = [by_id[cid] for cid in order_for_pairing(tourney, params) if cid in by_id]
        if len(competitors) % 2:
            competitors.append(None)
    compatriots = tourney.current_round < params.delaycompatriotpairing

    def visit(rest: Sequence[Slot]) -> list[int]:
        order = visit_order(params.couplings, rest, points, first_round=first_round)
        if compatriots and len(order) > 2:
            order = delay_compatriots(order, rest, points)
        return order

    done = _done(tourney)
    pairs = combine(competitors, done, visit)
    if pairs is None:
        # SoL 5.26 suggests "all possible matches" for a Swiss only (rr_seeds_6 stops plainly)
        remaining = count_remaining_matches(competitors, done)
        if remaining and params.system is SolSystem.SWISS:
            raise SolError(
                f"Cannot create next round: there are further {remaining} possible matches but "
                "they cannot be grouped together with the current pairing rules"
            )
        raise SolError("Cannot create another round: no more possible combinations!")
    return pairs


def pair(tourney: SolTourney, params: SolParams, random_seed: int | None = None) -> SolRound:
    """The next round of ``tourney``; ``random_seed`` only matters for a random first round."""
    by_id = {c.id: c for c in tourney.competitors}
    active = [c for c in tourney.competitors if not c.retired]
    round_no = tourney.current_round + 1
    if params.couplings is Couplings.ALL:
        slots: list[Slot] = list(active) + ([None] if len(active) % 2 else [])
        pairs = _all_matches(slots, _done(tourney))
    elif params.system is SolSystem.KNOCKOUT:
        if round_no == 1:
            if any(not c.position for c in active) and not params.rated:
                raise SolError("Missing seeds position for some competitor")
            pairs = list(knockout.first_round(active))
        else:
            pairs = _knockout_next(tourney, by_id)
    elif params.couplings is Couplings.CIRCLE:
        pairs = circle_round(active, tourney.current_round)
    elif params.rated or round_no > 1 or params.system is SolSystem.ROUNDROBIN:
        pairs = _backtracking(tourney, params, active)
    else:
        pairs = _random_round(active, random_seed)
    if not pairs:
        raise SolError("Cannot create another round: no more possible combinations!")

    rank = {cid: i for i, cid in enumerate(ranking(tourney, params))}
    ordered: list[tuple[int, int | None]] = []
    for pair_ in pairs:
        first, second = pair_ if pair_[0] is not None else (pair_[1], pair_[0])
        assert first is not None
        if second is not None and rank[second.id] < rank[first.id]:
            first, second = second, first
        ordered.append((first.id, None if second is None else second.id))
    ordered.sort(key=lambda p: p[1] is None)  # SoL creates the phantom's match last
    if params.system is SolSystem.KNOCKOUT:
        boards = list(range(1, len(ordered) + 1))
    else:
        history = [
            (cid, m.board)
            for m in tourney.matches
            for cid in (m.competitor1, m.competitor2)
            if cid is not None
        ]
        boards = assign_boards(ordered, history)
    return SolRound(
        round=round_no,
        pairings=tuple(
            SolPairing(board=b, competitor1=c1, competitor2=c2)
            for b, (c1, c2) in zip(boards, ordered, strict=True)
        ),
    )
