"""Burstein system as bbpPairings implements it (not endorsed by FIDE; pairing.md 3)."""

from pairing.burstein.engine import pair

__all__ = ["pair"]
