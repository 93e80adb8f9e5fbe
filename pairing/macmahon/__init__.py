"""Mac-Mahon and Swiss pairing as OpenGotha computes it (pairing.md §4)."""

from pairing.macmahon.cost import CostBreakdown
from pairing.macmahon.engine import pair, prepare_round
from pairing.macmahon.model import (
    GoBye,
    GoGame,
    GoPlayer,
    GoResult,
    GoTournament,
    MacMahonError,
    Pairing,
)
from pairing.macmahon.params import Edition, MacMahonParams
from pairing.macmahon.round import MacMahonRequest, pair_round

__all__ = [
    "CostBreakdown",
    "Edition",
    "GoBye",
    "GoGame",
    "GoPlayer",
    "GoResult",
    "GoTournament",
    "MacMahonError",
    "MacMahonParams",
    "MacMahonRequest",
    "Pairing",
    "pair",
    "pair_round",
    "prepare_round",
]
