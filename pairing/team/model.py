"""Pure input/output model of team pairing (FIDE C.04.6 vocabulary).

A team is a pairing node: its history is one `TeamHistory` per round, already aggregated from
the boards (game points = sum of the boards, colour = board 1's colour when the match was
played, match points by comparing game points). Building it from a TRF or from the log is the
caller's job (`ingest.trf.teams`, `projections.teams`).
"""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field

from events.domain import Colour
from events.team_results import MatchKind, TeamEntry, TeamHistory

__all__ = [
    "ColourType",
    "MatchKind",
    "PrimaryScore",
    "TeamEntry",
    "TeamHistory",
    "TeamPair",
    "TeamRound",
    "TeamSwissInput",
]


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class ColourType(StrEnum):
    """C.04.6 1.7: colour preferences of Type A (simple), Type B (strong/mild) or none."""

    A = "A"
    B = "B"
    NONE = "none"


class PrimaryScore(StrEnum):
    """C.04.6 1.2: the score that makes scoregroups."""

    MATCH_POINTS = "MP"
    GAME_POINTS = "GP"


class TeamSwissInput(_Frozen):
    """Everything the team Swiss needs to pair round ``rounds_played + 1``."""

    teams: tuple[TeamEntry, ...]
    rounds_played: int = Field(ge=0)
    total_rounds: int = Field(ge=1)
    initial_colour: Colour = Colour.WHITE
    colour_type: ColourType = ColourType.A
    primary: PrimaryScore = PrimaryScore.MATCH_POINTS
    secondary_for_colour: bool = True
    """C.04.6 4.2.2: use the secondary score to choose the first team."""
    absent: frozenset[int] = frozenset()
    """Teams not paired this round (requested byes, withdrawals)."""
    forbidden: frozenset[frozenset[int]] = frozenset()
    """Pairs that must not meet this round (record 260, director's restrictions)."""


class TeamPair(_Frozen):
    """A match: the team with White on board 1, the other one."""

    white: int
    black: int


class TeamRound(_Frozen):
    """The team pairing of a round: matches in order, and the team PAB."""

    pairs: tuple[TeamPair, ...]
    pab: int | None = None
