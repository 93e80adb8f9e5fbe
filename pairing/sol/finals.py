"""SoL's finals: ranking 1 v 2 (and 3 v 4), one round (simple) or until two wins (best of 3)."""

from __future__ import annotations

from collections import Counter

from pairing.sol.model import FinalKind, SolError, SolPairing, SolParams, SolRound, SolTourney
from pairing.sol.ranking import match_outcome, ranking

__all__ = ["final_wins", "finals_complete", "pair_final"]

WINS_NEEDED = 2
MAX_FINAL_ROUNDS = 3


def final_wins(tourney: SolTourney) -> tuple[int, Counter[int]]:
    """(number of final rounds played, final matches won per competitor)."""
    finals = [m for m in tourney.matches if m.final]
    wins: Counter[int] = Counter()
    for m in finals:
        winner, _, net = match_outcome(m)
        if net and winner is not None:
            wins[winner] += 1
    return len({m.round for m in finals}), wins


def finals_complete(tourney: SolTourney, params: SolParams) -> bool:
    rounds, wins = final_wins(tourney)
    if params.finalkind is FinalKind.SIMPLE:
        return rounds == 1
    if rounds == MAX_FINAL_ROUNDS:
        return True
    return bool(wins) and all(w >= WINS_NEEDED for w in wins.values())


def pair_final(tourney: SolTourney, params: SolParams) -> SolRound:
    """The next final round (final matches do not count in the ranking)."""
    if not params.finals:
        raise SolError("Finals are not considered for this tourney!")
    if finals_complete(tourney, params):
        raise SolError("No further final matches are needed!")
    _, wins = final_wins(tourney)
    order = ranking(
        tourney.model_copy(update={"matches": tuple(m for m in tourney.matches if not m.final)}),
        params,
    )
    pairings: list[SolPairing] = []
    for final in range(params.finals):
        c1, c2 = order[2 * final], order[2 * final + 1]
        if wins[c1] < WINS_NEEDED and wins[c2] < WINS_NEEDED:
            pairings.append(SolPairing(board=len(pairings) + 1, competitor1=c1, competitor2=c2))
    return SolRound(round=tourney.current_round + 1, pairings=tuple(pairings), final=True)
