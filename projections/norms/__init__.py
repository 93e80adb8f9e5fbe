"""FIDE title norms (GM, IM, WGM, WIM) of a chess tournament: pure functions.

The text implemented is the FIDE Handbook's B.01 Title Regulations, the 1 July 2017 text as
amended by the FIDE Council, in force from 1 January 2024 (handbook.fide.com/chapter/B012024),
articles 1.4.1 to 1.4.9; ``docs/norms.md`` lists each article and what is and is not done.

    model       the inputs (applicant, counted games, event facts) and the verdicts
    rules       the requirements of one title over one set of counted games (1.4.1-1.4.9)
    search      the subsets 1.4.1e (fewer rounds) and 1.4.1f (won games ignored), exhaustive
    from_state  a tournament's projected state as those inputs (1.4.2: what is not a game)
"""

from __future__ import annotations

from projections.norms.from_state import norm_report
from projections.norms.model import (
    Applicant,
    Check,
    CountedGame,
    EventFacts,
    NormResult,
    Opponent,
    PlayerNorms,
)
from projections.norms.rules import NORM_TITLES, Requirement, check
from projections.norms.search import best_subsets

__all__ = [
    "NORM_TITLES",
    "Applicant",
    "Check",
    "CountedGame",
    "EventFacts",
    "NormResult",
    "Opponent",
    "PlayerNorms",
    "Requirement",
    "best_subsets",
    "check",
    "norm_report",
]
