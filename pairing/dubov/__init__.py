"""FIDE Dubov system (C.04.4.1, rules in force from 1 February 2026)."""

from pairing.dubov.engine import DubovPairingError, pair
from pairing.dubov.explain import explain
from pairing.swiss.engine import swiss_engine

__all__ = ["DubovPairingError", "explain", "pair", "pair_round"]

pair_round = swiss_engine(pair, explain)
