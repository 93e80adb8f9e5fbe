"""SoL's pairing methods (carrom; pairing.md §6): serial, dazed, staggered, seeds, circle, all,
knockout, with delay-top-players, delay-compatriots, the phantom and finals."""

from pairing.sol.engine import pair
from pairing.sol.finals import pair_final
from pairing.sol.model import (
    Couplings,
    FinalKind,
    Retirements,
    SolCompetitor,
    SolError,
    SolMatch,
    SolPairing,
    SolParams,
    SolRound,
    SolSystem,
    SolTourney,
)
from pairing.sol.ranking import Standing, ranking, standings
from pairing.sol.round import SolRequest, pair_round

__all__ = [
    "Couplings",
    "FinalKind",
    "Retirements",
    "SolCompetitor",
    "SolError",
    "SolMatch",
    "SolPairing",
    "SolParams",
    "SolRequest",
    "SolRound",
    "SolSystem",
    "SolTourney",
    "Standing",
    "pair",
    "pair_final",
    "pair_round",
    "ranking",
    "standings",
]
