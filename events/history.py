"""A player's round as the Swiss engines and the TRF hold it (opponent, colour, result code),
and the points it is worth: written once for the individual engines, the TRF checks and the
team aggregation.

Plain frozen dataclasses (no pydantic): they are the engines' input, built from a TRF file on
``arbiter-pairings``' start-up path.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING

from events.domain import ByeKind, Colour
from events.result_codes import ResultCode

if TYPE_CHECKING:
    from events.scoring import Scoring as PointsTable

__all__ = ["HistoryEntry", "Scoring", "entry_points"]


@dataclass(frozen=True, slots=True, kw_only=True)
class HistoryEntry:
    """One round of a player's history: opponent (pairing number), colour, result code."""

    opponent: int | None = None
    colour: Colour = Colour.NONE
    result: ResultCode = ResultCode.ZERO_BYE


@dataclass(frozen=True, slots=True, kw_only=True)
class Scoring:
    """Points per result (bbpPairings' BBW/BBD/BBL/BBZ/BBF/BBU, TRF ``162``); defaults 1 / ½ / 0."""

    win: Decimal = Decimal(1)
    draw: Decimal = Decimal("0.5")
    loss: Decimal = Decimal(0)
    zero_bye: Decimal = Decimal(0)
    forfeit_loss: Decimal = Decimal(0)
    pab: Decimal = Decimal(1)

    @classmethod
    def of(cls, table: PointsTable) -> Scoring:
        """A tournament's scoring (`events.scoring.Scoring`, floats), in exact decimals.

        >>> from events.scoring import Scoring as PointsTable
        >>> Scoring.of(PointsTable(win=3, draw=1.5)).draw
        Decimal('1.5')
        """

        def exact(points: float) -> Decimal:
            return Decimal(str(points))

        return cls(
            win=exact(table.win),
            draw=exact(table.draw),
            loss=exact(table.loss),
            zero_bye=exact(table.zero_bye),
            forfeit_loss=exact(table.forfeit_loss),
            pab=exact(table.for_bye(ByeKind.PAIRING)),
        )


_WINS = (ResultCode.WIN, ResultCode.WIN_UNRATED, ResultCode.FORFEIT_WIN, ResultCode.FULL_BYE)
_DRAWS = (ResultCode.DRAW, ResultCode.DRAW_UNRATED, ResultCode.HALF_BYE)


def entry_points(entry: HistoryEntry, scoring: Scoring) -> Decimal:
    """Points of one round under ``scoring``, as bbpPairings counts them (a round without an
    opponent and without a bye code scores the zero-point bye's value).

    >>> entry_points(HistoryEntry(opponent=3, result=ResultCode.FORFEIT_LOSS), Scoring())
    Decimal('0')
    >>> entry_points(HistoryEntry(result=ResultCode.HALF_BYE), Scoring())
    Decimal('0.5')
    """
    result = entry.result
    if result in _DRAWS:
        return scoring.draw
    if result in _WINS:
        return scoring.win
    if result is ResultCode.PAB:
        return scoring.pab
    if entry.opponent is not None and result is ResultCode.FORFEIT_LOSS:
        return scoring.forfeit_loss
    if entry.opponent is not None:
        return scoring.loss
    return scoring.zero_bye
