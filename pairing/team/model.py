"""Pure input/output model of team pairing (FIDE C.04.6 vocabulary).

A team is a pairing node: its history is one `TeamHistory` per round, already aggregated from
the boards (game points = sum of the boards, colour = board 1's colour when the match was
played, match points by comparing game points). Building it from a TRF or from the log is the
caller's job (`ingest.trf.teams`, `projections.teams`).
"""

from __future__ import annotations

from decimal import Decimal
from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field

from events.domain import Colour

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


class MatchKind(StrEnum):
    """How a team's round went (the `299` type letters where one exists)."""

    WIN = "W"
    DRAW = "D"
    LOSS = "L"
    FORFEIT_WIN = "+"
    FORFEIT_LOSS = "-"
    PAB = "U"
    FULL_BYE = "F"
    HALF_BYE = "H"
    ZERO_BYE = "Z"

    @property
    def played(self) -> bool:
        """Over the board (C.04.6 1.6.1: only these count for colours)."""
        return self in (MatchKind.WIN, MatchKind.DRAW, MatchKind.LOSS)

    @property
    def blocks_pab(self) -> bool:
        """C.04.6 2.1.2 [C2]: a PAB, a forfeit win or a full-point bye bars a further PAB."""
        return self in (MatchKind.PAB, MatchKind.FORFEIT_WIN, MatchKind.FULL_BYE)


class ColourType(StrEnum):
    """C.04.6 1.7: colour preferences of Type A (simple), Type B (strong/mild) or none."""

    A = "A"
    B = "B"
    NONE = "none"


class PrimaryScore(StrEnum):
    """C.04.6 1.2: the score that makes scoregroups."""

    MATCH_POINTS = "MP"
    GAME_POINTS = "GP"


class TeamHistory(_Frozen):
    """One round of a team."""

    kind: MatchKind
    opponent: int | None = None
    """The opponent's team pairing number (forfeits included); None for byes."""
    colour: Colour = Colour.NONE
    """Board 1's colour, only when the match was played."""
    match_points: Decimal = Decimal(0)
    game_points: Decimal = Decimal(0)


class TeamEntry(_Frozen):
    """A team: its pairing number (TPN) and its history."""

    number: int = Field(ge=1)
    name: str = ""
    history: tuple[TeamHistory, ...] = ()
    accelerations: tuple[tuple[Decimal, Decimal], ...] = ()
    """Fictitious (match points, game points) per round, index 0 = round 1 (record 250)."""


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
