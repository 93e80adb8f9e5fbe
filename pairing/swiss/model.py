"""Pure input/output model for Swiss pairing, mirroring TRF semantics (formats.md 1.4-1.5).

The model is what a caller knows about a tournament before a round is paired: every player's
history (opponent, colour and result code per round), the scoring, the total number of rounds,
the initial colour, prohibited pairs, acceleration and the requested byes of the round to pair.
It is built from a TRF file by :func:`pipelines.engines.swiss_from_trf.swiss_input_from_trf`, or
from the live tournament state by :func:`pipelines.engines.live.swiss_input`.

Plain frozen dataclasses checked on construction, without pydantic: ``arbiter-pairings``
builds them on its start-up path; the user-facing doors validate before they get here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

from events.domain import Colour
from events.history import HistoryEntry, Scoring
from events.result_codes import ResultCode as Result

__all__ = ["Colour", "HistoryEntry", "Result", "Scoring", "SwissInput", "SwissPlayer", "SwissRound"]


def _at_least(name: str, value: int, least: int) -> None:
    if value < least:
        raise ValueError(f"{name} must be at least {least} (found {value})")


@dataclass(frozen=True, slots=True, kw_only=True)
class SwissPlayer:
    """A player: pairing number, rating and history of the rounds already played.

    :raises ValueError: a pairing number below 1 or a negative rating.
    """

    number: int
    rating: int = 0
    history: tuple[HistoryEntry, ...] = ()
    accelerations: tuple[Decimal, ...] = ()
    """Fictitious points per round (index 0 = round 1), from XXA/250 or Baku acceleration."""

    def __post_init__(self) -> None:
        _at_least("number", self.number, 1)
        _at_least("rating", self.rating, 0)


@dataclass(frozen=True, slots=True, kw_only=True)
class SwissInput:
    """Everything a Swiss system needs to pair round ``rounds_played + 1``.

    :raises ValueError: pairing numbers other than 1..n, more history than rounds played,
        nothing left to pair.
    """

    players: tuple[SwissPlayer, ...]
    rounds_played: int
    total_rounds: int
    initial_colour: Colour = Colour.WHITE
    scoring: Scoring = field(default_factory=Scoring)
    forbidden: tuple[frozenset[int], ...] = ()
    """Groups of players who must not meet each other in the round to pair."""
    absent: frozenset[int] = frozenset()
    """Players not paired in the round (requested H/F/Z byes, withdrawals)."""

    def __post_init__(self) -> None:
        _at_least("rounds_played", self.rounds_played, 0)
        _at_least("total_rounds", self.total_rounds, 1)
        numbers = [p.number for p in self.players]
        if sorted(numbers) != list(range(1, len(numbers) + 1)):
            raise ValueError("pairing numbers must be 1..n without gaps or repeats")
        for player in self.players:
            if len(player.history) > self.rounds_played:
                raise ValueError(
                    f"player {player.number} has {len(player.history)} rounds of history, "
                    f"expected at most {self.rounds_played}"
                )
        if self.rounds_played >= self.total_rounds:
            raise ValueError(
                f"{self.rounds_played} rounds played out of {self.total_rounds}: nothing to pair"
            )

    @property
    def round_to_pair(self) -> int:
        """1-based number of the round being paired."""
        return self.rounds_played + 1


@dataclass(frozen=True, slots=True, kw_only=True)
class SwissRound:
    """A paired round: boards in order as (white, black) pairing numbers, and the PAB."""

    boards: tuple[tuple[int, int], ...]
    pab: int | None = None
