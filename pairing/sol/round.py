"""SoL's pairing in the engines' calling convention (pairing.contract)."""

from __future__ import annotations

from dataclasses import dataclass

from events.domain import Board
from pairing.contract import PairedRound
from pairing.sol.engine import pair
from pairing.sol.model import SolParams, SolTourney

__all__ = ["SolRequest", "pair_round"]


@dataclass(frozen=True, slots=True)
class SolRequest:
    """The tourney to pair the next round of, and the seed of a random first-round draw."""

    tourney: SolTourney
    random_seed: int | None = None


def pair_round(request: SolRequest, params: SolParams, /, *, explain: bool = False) -> PairedRound:
    """:func:`~pairing.sol.engine.pair`: boards in SoL's board order (the phantom's opponent
    has the bye); the note names SoL's method and the round."""
    result = pair(request.tourney, params, random_seed=request.random_seed)
    boards = tuple(
        Board(board=i, white=p.competitor1, black=p.competitor2)
        for i, p in enumerate(result.by_board(), start=1)
    )
    notes = (f"SoL {params.couplings.value} pairing of round {result.round}",) if explain else ()
    return PairedRound(boards, notes)
