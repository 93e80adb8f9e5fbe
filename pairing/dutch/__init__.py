"""FIDE Dutch system, 2025 rules (C.04.3 applied from 2026), as bbpPairings v6 pairs it."""

from pairing.dutch.engine import NoValidPairingError, pair
from pairing.swiss.engine import swiss_engine
from pairing.swiss.explain import explain

__all__ = ["NoValidPairingError", "explain", "pair", "pair_round"]

pair_round = swiss_engine(pair, explain)
