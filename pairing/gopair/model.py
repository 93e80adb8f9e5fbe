"""Plain inputs and outputs of the gopair engine."""

from __future__ import annotations

import enum
from decimal import Decimal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from events.errors import PairingError

__all__ = [
    "GopairBoard",
    "GopairError",
    "GopairGame",
    "GopairInput",
    "GopairParams",
    "GopairPlayer",
    "GopairRound",
    "HandicapMode",
    "rating_of_rank",
]


class GopairError(PairingError):
    """The input cannot be paired (unknown bye or drop id, bad round number)."""


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class HandicapMode(enum.StrEnum):
    """``## HANDICAPS MAX`` (handicap games) or ``## HANDICAPS MIN`` / ``-nh`` (even games)."""

    MAX = "MAX"
    MIN = "MIN"


class GopairPlayer(_Frozen):
    """A registered player; ``rating`` is the AGA rating (dan positive, kyu negative)."""

    id: int
    rating: Decimal
    club: str = ""
    bye_candidate: bool = False
    """``BYE`` flag in register.tde: the only pool for the bye when an odd field is paired."""
    drop_rounds: frozenset[int] = frozenset()
    """Rounds the player will miss (``DROPn`` comments); a bye prefers players with none ahead."""

    @model_validator(mode="after")
    def _valid_rating(self) -> GopairPlayer:
        if -1 < self.rating < 1:
            raise ValueError(f"player {self.id}: AGA rating {self.rating} is inside the -1..1 gap")
        return self


def rating_of_rank(rank: int) -> Decimal:
    """The AGA rating of a player known only by rank (OpenGotha's scale: 1d = 0, 1k = -1):
    the middle of the rank's interval, a dan 1..2 above zero, a kyu 1..2 below.

    >>> rating_of_rank(2), rating_of_rank(0), rating_of_rank(-5)
    (Decimal('3.5'), Decimal('1.5'), Decimal('-5.5'))
    """
    if rank >= 0:
        return Decimal(rank + 1) + Decimal("0.5")
    return Decimal(rank) - Decimal("0.5")


class GopairGame(_Frozen):
    """A played game; ``winner`` is None while the result is unknown."""

    round: int = Field(ge=1)
    white: int
    black: int
    winner: int | None = None


class GopairParams(_Frozen):
    """gopair's options with its defaults (``window`` is 7 in gopair, 5 in the library)."""

    handicaps: HandicapMode = HandicapMode.MAX
    window: int = Field(7, ge=1, le=12)
    early_adjustment: bool = True
    """Off with ``## NOEARLY`` / ``-ne``."""
    ing_rules: bool = False
    """``## RULES ING``: komi 7 instead of 6 (the half point is implied)."""
    bye_seed: int = 0
    """gopair draws the bye at random among the candidates; we draw with this seed."""


class GopairInput(_Frozen):
    """The tournament as gopair reads it before pairing round ``round``."""

    players: tuple[GopairPlayer, ...]
    games: tuple[GopairGame, ...] = ()
    rounds: int = Field(ge=1)
    """``## ROUNDS``: the planned number of rounds (drives the early-round adjustment)."""
    round: int = Field(ge=1)
    """The round to pair."""
    bye: int | None = None
    """``-bye ID``: forces the bye for an odd field."""
    drops: frozenset[int] = frozenset()
    """Players not paired this round (``-drop ID``, ``DROP`` flags are the caller's job)."""

    @model_validator(mode="after")
    def _known_ids(self) -> GopairInput:
        ids = {p.id for p in self.players}
        if len(ids) != len(self.players):
            raise ValueError("duplicate player ids")
        for label, pid in [("bye", self.bye), *(("drop", d) for d in sorted(self.drops))]:
            if pid is not None and pid not in ids:
                raise ValueError(f"{label} player {pid} is not registered")
        for g in self.games:
            if g.white not in ids or g.black not in ids:
                raise ValueError(f"round {g.round}: game {g.white}-{g.black} has an unknown id")
        return self


class GopairBoard(_Frozen):
    """One game: white, black, handicap stones and AGA komi (integer; the half point implied)."""

    board: int
    white: int
    black: int
    handicap: int
    komi: int
    score: Decimal
    """gopair's (unadjusted) score of the pair."""


class GopairRound(_Frozen):
    boards: tuple[GopairBoard, ...]
    bye: int | None
    dropped: tuple[int, ...] = ()

    @property
    def total_score(self) -> Decimal:
        return sum((b.score for b in self.boards), Decimal(0))
