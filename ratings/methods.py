"""The rating methods a list can be run with (no numerics here: the CLI imports this module)."""

from __future__ import annotations

from enum import StrEnum

__all__ = ["Method"]


class Method(StrEnum):
    WOF = "wof"
    FIDE = "fide"
    EGF = "egf"
    GLICKO2 = "glicko2"
