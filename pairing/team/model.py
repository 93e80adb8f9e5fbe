"""Pure input/output model of team pairing (FIDE C.04.6 vocabulary).

A team is a pairing node: its history is one `TeamHistory` per round, already aggregated from
the boards (game points = sum of the boards, colour = board 1's colour when the match was
played, match points by comparing game points). Building it from a TRF or from the log is the
caller's job (`ingest.trf.teams`, `projections.teams`).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

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


class ColourType(StrEnum):
    """C.04.6 1.7: colour preferences of Type A (simple), Type B (strong/mild) or none."""

    A = "A"
    B = "B"
    NONE = "none"


class PrimaryScore(StrEnum):
    """C.04.6 1.2: the score that makes scoregroups."""

    MATCH_POINTS = "MP"
    GAME_POINTS = "GP"


@dataclass(frozen=True, slots=True, kw_only=True)
class TeamSwissInput:
    """Everything the team Swiss needs to pair round ``rounds_played + 1``."""

    teams: tuple[TeamEntry, ...]
    rounds_played: int
    """0 or more."""
    total_rounds: int
    """1 or more."""
    initial_colour: Colour = Colour.WHITE
    colour_type: ColourType = ColourType.A
    primary: PrimaryScore = PrimaryScore.MATCH_POINTS
    secondary_for_colour: bool = True
    """C.04.6 4.2.2: use the secondary score to choose the first team."""
    absent: frozenset[int] = frozenset()
    """Teams not paired this round (requested byes, withdrawals)."""
    forbidden: frozenset[frozenset[int]] = frozenset()
    """Pairs that must not meet this round (record 260, director's restrictions)."""

    def __post_init__(self) -> None:
        if self.rounds_played < 0:
            raise ValueError(f"rounds_played {self.rounds_played}: must be 0 or more")
        if self.total_rounds < 1:
            raise ValueError(f"total_rounds {self.total_rounds}: must be 1 or more")


@dataclass(frozen=True, slots=True, kw_only=True)
class TeamPair:
    """A match: the team with White on board 1, the other one."""

    white: int
    black: int


@dataclass(frozen=True, slots=True, kw_only=True)
class TeamRound:
    """The team pairing of a round: matches in order, and the team PAB."""

    pairs: tuple[TeamPair, ...]
    pab: int | None = None
