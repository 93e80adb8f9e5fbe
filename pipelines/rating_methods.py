"""The rating methods a list can be run with (kept apart so the CLI loads no numerics)."""

from __future__ import annotations

from enum import StrEnum


class Method(StrEnum):
    WOF = "wof"
    FIDE = "fide"
    EGF = "egf"
    GLICKO2 = "glicko2"
