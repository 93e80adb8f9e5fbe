"""Burstein system as bbpPairings implements it (not endorsed by FIDE; pairing.md 3)."""

from pairing.burstein.engine import pair
from pairing.swiss.engine import swiss_engine
from pairing.swiss.errors import NoValidPairingError
from pairing.swiss.explain import explain

__all__ = ["NoValidPairingError", "pair", "pair_round"]

pair_round = swiss_engine(pair, explain)
"""Explained as the Dutch system explains a round: the same facts of the input."""
