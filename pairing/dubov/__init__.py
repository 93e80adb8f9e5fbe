"""FIDE Dubov system (C.04.4.1, rules in force from 1 February 2026)."""

from pairing.dubov.engine import DubovPairingError, pair
from pairing.dubov.explain import explain

__all__ = ["DubovPairingError", "explain", "pair"]
