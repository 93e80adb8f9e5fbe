"""FIDE Dutch system, 2017 rules (C.04.3 as in force 2017-2025), as bbpPairings v5.0.1 pairs it."""

from pairing.dutch2017.engine import pair
from pairing.swiss.engine import swiss_engine
from pairing.swiss.errors import NoValidPairingError
from pairing.swiss.explain import explain

__all__ = ["NoValidPairingError", "explain", "pair", "pair_round"]

pair_round = swiss_engine(pair, explain)
