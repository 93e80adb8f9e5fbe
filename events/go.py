"""Go's domain values, shared by readers, projections and the go pairing engines.

`Rank` is a go rank (``30k`` ... ``1k``, ``1d`` ... ``9d``, ``1p`` ... ``9p``); its `value` is
the integer scale OpenGotha keeps ranks on: 30k = -30 ... 1k = -1, 1d = 0 ... 9d = 8 (a
professional rank continues above 7d: 1p = 7). `parse_rank`/`format_rank` are that scale's
strict OpenGotha spelling. `GoResult` is a game's result as OpenGotha writes it, and
`starting_mms` the Mac-Mahon score a player starts from.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass
from typing import Literal

from events.domain import Outcome
from events.errors import UserError

__all__ = [
    "AGA_RATING_RANGE",
    "MAX_RANK",
    "MIN_RANK",
    "GoResult",
    "Rank",
    "RankError",
    "format_rank",
    "parse_rank",
    "starting_mms",
]

AGA_RATING_RANGE = (-50.0, 12.0)
"""An AGA rating in stones, gopair's scale: -50 (50 kyu) .. 12 (a strong professional); the
one place of the range (the events' schema, the input rule, the AGA list reader read it)."""

MIN_RANK = -30
"""30k on the OpenGotha scale."""
MAX_RANK = 8
"""9d on the OpenGotha scale."""

RankKind = Literal["k", "d", "p"]


class RankError(UserError):
    """Text that is not a go rank, or a rank outside 30k..9d."""


_RANK = re.compile(r"\s*(\d{1,2})\s*([kdpKDP]?)\s*")
_KINDS: dict[str, RankKind] = {"k": "k", "d": "d", "p": "p", "": "k"}


@dataclass(frozen=True, slots=True)
class Rank:
    """A go rank: ``12k``, ``3d``, ``1p``; a bare number is a kyu grade (old EGD files).

    >>> Rank.parse("3D"), Rank.parse("12").value, str(Rank.parse(" 1 p "))
    (Rank(kind='d', number=3), -12, '1p')
    >>> Rank.parse("3 dan") is None
    True
    """

    kind: RankKind
    """``k`` (kyu), ``d`` (dan) or ``p`` (professional dan)."""
    number: int

    @classmethod
    def parse(cls, text: str) -> Rank | None:
        """The rank ``text`` spells (case and blanks do not matter), else ``None``."""
        match = _RANK.fullmatch(text)
        if match is None:
            return None
        return cls(_KINDS[match.group(2).lower()], int(match.group(1)))

    @classmethod
    def from_value(cls, value: int) -> Rank:
        """The amateur rank of an OpenGotha-scale value.

        >>> Rank.from_value(0), Rank.from_value(-20)
        (Rank(kind='d', number=1), Rank(kind='k', number=20))
        """
        return cls("d", value + 1) if value >= 0 else cls("k", -value)

    @classmethod
    def from_aga(cls, rating: float) -> Rank:
        """The rank the AGA gives a rating: ``5.3`` is 5 dan, ``-5.5`` and ``-5.0`` are 5 kyu
        (the whole stones of the rating), kept within 30k..9d.

        >>> str(Rank.from_aga(5.3)), str(Rank.from_aga(-20.1)), str(Rank.from_aga(-1.2))
        ('5d', '20k', '1k')
        >>> str(Rank.from_aga(10.4)), str(Rank.from_aga(-34.0))
        ('9d', '30k')
        """
        if rating > 0:
            return cls("d", max(1, min(9, int(rating))))
        return cls("k", max(1, min(30, int(-rating))))

    @property
    def value(self) -> int:
        """Kyu negative, dan from 0 (1d = 0), pro above 7d: the usual MMS-style scale."""
        if self.kind == "k":
            return -self.number
        if self.kind == "d":
            return self.number - 1
        return self.number + 6

    @property
    def opengotha(self) -> str:
        """OpenGotha's spelling: ``3D``, ``20K``."""
        return f"{self.number}{self.kind.upper()}"

    def __str__(self) -> str:
        return f"{self.number}{self.kind}"


def parse_rank(text: str) -> int:
    """The OpenGotha-scale value of ``"3d"``, ``"20K"`` ...; `RankError` outside 30k..9d.

    The letter must be written, and a professional rank has no place on this scale.

    >>> parse_rank("1d"), parse_rank("1k"), parse_rank("30K"), parse_rank("9D")
    (0, -1, -30, 8)
    """
    rank = Rank.parse(text)
    if rank is None or rank.kind == "p" or not text.strip()[-1:].isalpha():
        raise RankError(f"not a go rank: {text!r} (expected 30k..1k or 1d..9d)")
    if rank.number < 1 or not MIN_RANK <= rank.value <= MAX_RANK:
        raise RankError(f"go rank out of range: {text!r} (expected 30k..1k or 1d..9d)")
    return rank.value


def format_rank(rank: int) -> str:
    """OpenGotha's spelling of a rank value: ``"3D"``, ``"20K"``.

    >>> format_rank(2), format_rank(-20)
    ('3D', '20K')
    """
    if not MIN_RANK <= rank <= MAX_RANK:
        raise RankError(f"go rank out of range: {rank} (expected {MIN_RANK}..{MAX_RANK})")
    return Rank.from_value(rank).opengotha


def starting_mms(rank: int, floor: int, bar: int, zero: int = MIN_RANK, correction: int = 0) -> int:
    """The Mac-Mahon score a player starts from: the rank clamped between floor and bar,
    counted from ``zero`` (30k by default), plus a manual correction (a super bar).

    >>> starting_mms(rank=-25, floor=-20, bar=3), starting_mms(rank=5, floor=-20, bar=3)
    (10, 33)
    """
    return min(max(rank, floor), bar) - zero + correction


class GoResult(enum.StrEnum):
    """A game's result; the values are OpenGotha's spellings (without ``_BYDEF``)."""

    UNKNOWN = "RESULT_UNKNOWN"
    WHITE_WINS = "RESULT_WHITEWINS"
    BLACK_WINS = "RESULT_BLACKWINS"
    EQUAL = "RESULT_EQUAL"
    BOTH_WIN = "RESULT_BOTHWIN"
    BOTH_LOSE = "RESULT_BOTHLOSE"

    def points2(self) -> tuple[int, int]:
        """Doubled points of (White, Black): 2 for a win, 1 for a jigo."""
        return _POINTS2[self]

    @classmethod
    def of(cls, outcome: Outcome) -> tuple[GoResult, bool]:
        """OpenGotha's result of a board and whether it was "by default" (a forfeit).

        >>> GoResult.of(Outcome.BLACK_WINS_FORFEIT)
        (<GoResult.BLACK_WINS: 'RESULT_BLACKWINS'>, True)
        """
        return _OF_OUTCOME[outcome], outcome.is_forfeit

    def outcome(self, by_default: bool) -> Outcome:
        """The board's outcome of this result (``by_default``: not played over the board).

        >>> GoResult.BOTH_LOSE.outcome(by_default=True)
        <Outcome.DOUBLE_FORFEIT: '--'>
        """
        return _TO_OUTCOME.get((self, by_default)) or _TO_OUTCOME[self, False]


_POINTS2 = {
    GoResult.UNKNOWN: (0, 0),
    GoResult.WHITE_WINS: (2, 0),
    GoResult.BLACK_WINS: (0, 2),
    GoResult.EQUAL: (1, 1),
    GoResult.BOTH_WIN: (2, 2),
    GoResult.BOTH_LOSE: (0, 0),
}
_OF_OUTCOME = {
    Outcome.WHITE_WINS: GoResult.WHITE_WINS,
    Outcome.WHITE_WINS_FORFEIT: GoResult.WHITE_WINS,
    Outcome.BLACK_WINS: GoResult.BLACK_WINS,
    Outcome.BLACK_WINS_FORFEIT: GoResult.BLACK_WINS,
    Outcome.DRAW: GoResult.EQUAL,
    Outcome.BOTH_WIN: GoResult.BOTH_WIN,
    Outcome.BOTH_LOSE: GoResult.BOTH_LOSE,
    Outcome.DOUBLE_FORFEIT: GoResult.BOTH_LOSE,
    Outcome.UNKNOWN: GoResult.UNKNOWN,
}
_TO_OUTCOME = {
    (GoResult.WHITE_WINS, False): Outcome.WHITE_WINS,
    (GoResult.WHITE_WINS, True): Outcome.WHITE_WINS_FORFEIT,
    (GoResult.BLACK_WINS, False): Outcome.BLACK_WINS,
    (GoResult.BLACK_WINS, True): Outcome.BLACK_WINS_FORFEIT,
    (GoResult.EQUAL, False): Outcome.DRAW,
    (GoResult.BOTH_WIN, False): Outcome.BOTH_WIN,
    (GoResult.BOTH_LOSE, False): Outcome.BOTH_LOSE,
    (GoResult.BOTH_LOSE, True): Outcome.DOUBLE_FORFEIT,
    (GoResult.UNKNOWN, False): Outcome.UNKNOWN,
}
