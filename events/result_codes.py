"""FIDE's result codes of a player's round (TRF, formats.md 1.5), as files and engines use them.

A TRF round block holds one code per player and round; the Swiss engines read a player's
history in the same codes (as bbpPairings does). This module says, once, how a code relates
to a board's `Outcome` and to a requested `ByeKind`.
"""

from __future__ import annotations

from enum import Enum

from events.domain import ByeKind, Outcome

__all__ = ["ResultCode"]


class ResultCode(Enum):
    """Result code of a round block (formats.md 1.5); ``BLANK`` is read as a zero-point bye."""

    WIN = "1"
    DRAW = "="
    LOSS = "0"
    FORFEIT_WIN = "+"
    FORFEIT_LOSS = "-"
    WIN_UNRATED = "W"
    DRAW_UNRATED = "D"
    LOSS_UNRATED = "L"
    HALF_BYE = "H"
    FULL_BYE = "F"
    PAB = "U"
    ZERO_BYE = "Z"
    UNKNOWN = "?"
    BLANK = " "

    @property
    def is_played_game(self) -> bool:
        """A game that counts for colour history and rematches (1 = 0 W D L)."""
        return self in _PLAYED

    @classmethod
    def for_outcome(cls, outcome: Outcome, white: bool) -> ResultCode:
        """The code of the white (``white``) or black player of a board with ``outcome``.

        >>> ResultCode.for_outcome(Outcome.BLACK_WINS_FORFEIT, white=True)
        <ResultCode.FORFEIT_LOSS: '-'>
        """
        return _FOR_OUTCOME[outcome][0 if white else 1]

    @classmethod
    def for_bye(cls, kind: ByeKind) -> ResultCode:
        """The code of a round without a game: ``H``, ``F``, ``Z`` or the PAB's ``U``.

        >>> ResultCode.for_bye(ByeKind.PAIRING)
        <ResultCode.PAB: 'U'>
        """
        return _FOR_BYE[kind]

    @property
    def white_outcome(self) -> Outcome | None:
        """The board's outcome when this is the white player's code (``None``: no game).

        >>> ResultCode.WIN_UNRATED.white_outcome, ResultCode.HALF_BYE.white_outcome
        (<Outcome.WHITE_WINS: '1-0'>, None)
        """
        return _WHITE_OUTCOME.get(self)


_PLAYED = frozenset(
    {
        ResultCode.WIN,
        ResultCode.DRAW,
        ResultCode.LOSS,
        ResultCode.WIN_UNRATED,
        ResultCode.DRAW_UNRATED,
        ResultCode.LOSS_UNRATED,
    }
)
# outcome -> (white's code, black's code)
_FOR_OUTCOME: dict[Outcome, tuple[ResultCode, ResultCode]] = {
    Outcome.WHITE_WINS: (ResultCode.WIN, ResultCode.LOSS),
    Outcome.BLACK_WINS: (ResultCode.LOSS, ResultCode.WIN),
    Outcome.DRAW: (ResultCode.DRAW, ResultCode.DRAW),
    Outcome.WHITE_WINS_FORFEIT: (ResultCode.FORFEIT_WIN, ResultCode.FORFEIT_LOSS),
    Outcome.BLACK_WINS_FORFEIT: (ResultCode.FORFEIT_LOSS, ResultCode.FORFEIT_WIN),
    Outcome.DOUBLE_FORFEIT: (ResultCode.FORFEIT_LOSS, ResultCode.FORFEIT_LOSS),
    Outcome.BOTH_WIN: (ResultCode.WIN, ResultCode.WIN),
    Outcome.BOTH_LOSE: (ResultCode.LOSS, ResultCode.LOSS),
    Outcome.UNKNOWN: (ResultCode.UNKNOWN, ResultCode.UNKNOWN),
}
_FOR_BYE = {
    ByeKind.HALF: ResultCode.HALF_BYE,
    ByeKind.FULL: ResultCode.FULL_BYE,
    ByeKind.ZERO: ResultCode.ZERO_BYE,
    ByeKind.PAIRING: ResultCode.PAB,
}
_WHITE_OUTCOME = {
    ResultCode.WIN: Outcome.WHITE_WINS,
    ResultCode.WIN_UNRATED: Outcome.WHITE_WINS,
    ResultCode.LOSS: Outcome.BLACK_WINS,
    ResultCode.LOSS_UNRATED: Outcome.BLACK_WINS,
    ResultCode.DRAW: Outcome.DRAW,
    ResultCode.DRAW_UNRATED: Outcome.DRAW,
    ResultCode.FORFEIT_WIN: Outcome.WHITE_WINS_FORFEIT,
    ResultCode.FORFEIT_LOSS: Outcome.BLACK_WINS_FORFEIT,
    ResultCode.UNKNOWN: Outcome.UNKNOWN,
}
