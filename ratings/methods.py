"""The rating methods a list can be run with, and FIDE's rating types (no numerics here: the
CLI imports this module)."""

from __future__ import annotations

from enum import StrEnum

__all__ = ["Method", "RatingType"]


class Method(StrEnum):
    WOF = "wof"
    FIDE = "fide"
    EGF = "egf"
    GLICKO2 = "glicko2"


class RatingType(StrEnum):
    """FIDE's three lists; a tournament is rated for one of them (standard by default)."""

    STANDARD = "standard"
    RAPID = "rapid"
    BLITZ = "blitz"
