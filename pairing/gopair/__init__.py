"""AGA "best" pairing as gopair 1.001 computes it with Algorithm::Pair::Best (pairing.md §5)."""

from pairing.gopair.engine import pair, pair_round
from pairing.gopair.model import (
    GopairBoard,
    GopairGame,
    GopairInput,
    GopairParams,
    GopairPlayer,
    GopairRound,
    HandicapMode,
    rating_of_rank,
)
from pairing.gopair.score import PairScore, pair_score

__all__ = [
    "GopairBoard",
    "GopairGame",
    "GopairInput",
    "GopairParams",
    "GopairPlayer",
    "GopairRound",
    "HandicapMode",
    "PairScore",
    "pair",
    "pair_round",
    "pair_score",
    "rating_of_rank",
]
