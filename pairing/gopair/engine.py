"""One round of gopair's "best" pairing (gopair 1.001, ``pairBest``).

1. Players not dropped, sorted by rating (strongest first; even events keep the input order).
2. An odd field gives the bye first (forced, else drawn among the candidates of ``bye.py``).
3. Scores of every pair (``score.py``), then, unless the last two rounds are near, the
   early-round adjustment: with E = rounds - (round - 1) >= 3, each of the first 2E + 2 players
   adds twice the score of its candidate number E - 2 (itself included in the sorted list) to
   its top E - 2 candidates, pushing them below that one. Only that player's view changes.
4. Algorithm::Pair::Best with a window of 7 pairs (``best.py``); boards in the order pairs are
   fixed; colours and handicap from the AGA table (``handicap.py``).
"""

from __future__ import annotations

import random

from events.domain import Board
from pairing.contract import PairedRound
from pairing.gopair.best import pick, sorted_candidates
from pairing.gopair.bye import ByeFacts, bye_candidates
from pairing.gopair.handicap import handicap, komi_points
from pairing.gopair.model import (
    GopairBoard,
    GopairError,
    GopairInput,
    GopairParams,
    GopairRound,
    HandicapMode,
)
from pairing.gopair.score import PlayerFacts, pair_score, search_weight

__all__ = ["early_round_shift", "pair", "pair_round", "player_facts"]


def player_facts(tournament: GopairInput) -> dict[int, PlayerFacts]:
    """Wins and opponents from the games of the rounds before ``tournament.round``."""
    wins = {p.id: 0 for p in tournament.players}
    opponents: dict[int, list[int]] = {p.id: [] for p in tournament.players}
    for g in tournament.games:
        if g.round >= tournament.round:
            continue
        opponents[g.white].append(g.black)
        opponents[g.black].append(g.white)
        if g.winner is not None:
            wins[g.winner] += 1
    return {
        p.id: PlayerFacts(p.id, p.rating, p.club, wins[p.id], tuple(opponents[p.id]))
        for p in tournament.players
    }


def early_round_shift(rounds: int, round_no: int) -> int:
    """gopair's N (0 = no adjustment): rounds - completed rounds - 2, when that leaves >= 1."""
    remaining = rounds - (round_no - 1)
    return remaining - 2 if remaining >= 3 else 0  # the last two rounds are never adjusted


def _adjust_early(scores: list[list[float]], shift: int, remaining: int) -> None:
    candidates = sorted_candidates(scores)
    budget = 2 * remaining
    for i, cands in enumerate(candidates):
        if len(cands) < shift + 1:
            continue
        bump = 2 * scores[i][cands[shift]]
        for j in cands[:shift]:
            scores[i][j] += bump
        if budget < 0:
            break
        budget -= 1


def _choose_bye(
    tournament: GopairInput, params: GopairParams, order: list[int], facts: dict[int, PlayerFacts]
) -> int:
    if tournament.bye is not None:
        return tournament.bye
    by_id = {p.id: p for p in tournament.players}
    later = range(tournament.round, tournament.rounds + 1)
    pool = bye_candidates(
        [
            ByeFacts(
                pid,
                by_id[pid].bye_candidate,
                len(facts[pid].opponents),
                facts[pid].wins,
                any(r in by_id[pid].drop_rounds for r in later),
            )
            for pid in order
        ],
        tournament.round - 1,
    )
    return random.Random(params.bye_seed).choice(pool)


def pair(tournament: GopairInput, params: GopairParams | None = None) -> GopairRound:
    """Pair ``tournament.round``; boards in gopair's order, the bye (if any) apart."""
    params = params or GopairParams()
    if tournament.round > tournament.rounds:
        raise GopairError(f"round {tournament.round} is beyond ## ROUNDS {tournament.rounds}")
    facts = player_facts(tournament)
    ratings = {p.id: p.rating for p in tournament.players}
    dropped = {
        p.id
        for p in tournament.players
        if p.id in tournament.drops or tournament.round in p.drop_rounds
    }
    order = [p.id for p in tournament.players if p.id not in dropped]
    if params.handicaps is HandicapMode.MAX:
        order.sort(key=lambda pid: -ratings[pid])
    bye = _choose_bye(tournament, params, order, facts) if len(order) % 2 else None
    order = [pid for pid in order if pid != bye]

    scores = [[search_weight(facts[a], facts[b], params.handicaps) for b in order] for a in order]
    shift = early_round_shift(tournament.rounds, tournament.round)
    if params.early_adjustment and shift:
        _adjust_early(scores, shift, shift + 2)
    pairs = pick(scores, sorted_candidates(scores), params.window)

    boards: list[GopairBoard] = []
    for number, (i, j) in enumerate(pairs, 1):
        a, b = order[i], order[j]
        if params.handicaps is HandicapMode.MAX:
            stones, _ = handicap(ratings[a], ratings[b], ing=params.ing_rules)
            if stones < 0:
                a, b = b, a
            stones, komi = handicap(ratings[a], ratings[b], ing=params.ing_rules)
        else:
            stones, komi = handicap(ratings[a], ratings[a], ing=params.ing_rules)
        boards.append(
            GopairBoard(
                board=number,
                white=a,
                black=b,
                handicap=max(stones, 0),
                komi=komi,
                score=pair_score(facts[a], facts[b], params.handicaps).total,
            )
        )
    return GopairRound(boards=tuple(boards), bye=bye, dropped=tuple(sorted(dropped)))


def pair_round(
    request: GopairInput, params: GopairParams, /, *, explain: bool = False
) -> PairedRound:
    """:func:`pair` in the engines' calling convention: boards in gopair's order with their
    handicap and komi (gopair's integer AGA komi with the half point it implies), the bye
    last; the notes give each pair's gopair score."""
    result = pair(request, params)
    boards = [
        Board(
            board=i,
            white=b.white,
            black=b.black,
            handicap=b.handicap,
            komi=komi_points(b.komi),
        )
        for i, b in enumerate(result.boards, start=1)
    ]
    if result.bye is not None:
        boards.append(Board(board=len(boards) + 1, white=result.bye, black=None))
    notes = (
        tuple(f"board {i}: gopair score {b.score}" for i, b in enumerate(result.boards, start=1))
        if explain
        else ()
    )
    return PairedRound(tuple(boards), notes)
