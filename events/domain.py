"""Value types shared by events, projections and pairing: games, systems, colours, results,
boards.

Plain enums and a frozen dataclass, without pydantic: the engines and ``arbiter-pairings``
import this module, and pydantic costs a tenth of a second at start-up. The event schemas that
hold a `Board` validate it there (`events.schema`); the points table, a thing a user enters,
is a pydantic model of its own (`events.scoring`).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum, StrEnum

from events.errors import UserError


class Game(StrEnum):
    CHESS = "chess"
    GO = "go"
    OTHELLO = "othello"
    CARROM = "carrom"


class System(StrEnum):
    """Pairing systems; each maps to one engine in `pairing/`."""

    ROUNDROBIN = "roundrobin"
    DUTCH = "dutch"
    BURSTEIN = "burstein"
    DUBOV = "dubov"
    MACMAHON = "macmahon"
    SWISS = "swiss"
    KNOCKOUT = "knockout"
    GOPAIR = "gopair"
    IMPORTED = "imported"  # pairings came from a result file; arbiter does not pair further rounds
    TEAM_SWISS = "team-swiss"  # FIDE Team Swiss (C.04.6): teams are paired, boards follow
    TEAM_ROUNDROBIN = "team-roundrobin"  # Berger tables for teams

    @property
    def is_team(self) -> bool:
        """Teams are paired (the boards follow from the line-ups)."""
        return self in (System.TEAM_SWISS, System.TEAM_ROUNDROBIN)


class Colour(Enum):
    """A player's colour in a game, or ``NONE`` when there was no game (bye, absence).

    The values are the letters TRF round blocks and go tables write (``w``, ``b``, ``-``);
    in go and othello black moves first, in chess white.
    """

    WHITE = "w"
    BLACK = "b"
    NONE = "-"

    def invert(self) -> Colour:
        """The opponent's colour.

        >>> Colour.WHITE.invert(), Colour.NONE.invert()
        (<Colour.BLACK: 'b'>, <Colour.NONE: '-'>)
        """
        return _INVERSE[self]

    @property
    def word(self) -> str | None:
        """``white``, ``black`` (``None`` for ``NONE``), as commands and settings spell it."""
        return None if self is Colour.NONE else self.name.lower()

    @classmethod
    def parse(cls, text: str) -> Colour:
        """A colour from ``w``/``white`` or ``b``/``black``, any case.

        >>> Colour.parse("White"), Colour.parse("b")
        (<Colour.WHITE: 'w'>, <Colour.BLACK: 'b'>)

        :raises UserError: any other text.
        """
        found = _WORDS.get(text.strip().lower())
        if found is None:
            raise UserError(f"not a colour: {text!r} (expected white or black)")
        return found


_INVERSE = {Colour.WHITE: Colour.BLACK, Colour.BLACK: Colour.WHITE, Colour.NONE: Colour.NONE}
_WORDS = {"w": Colour.WHITE, "white": Colour.WHITE, "b": Colour.BLACK, "black": Colour.BLACK}


class ByeKind(StrEnum):
    """A round without a game: requested in advance, or allocated by the pairing (PAB)."""

    HALF = "half"  # half-point bye, requested
    ZERO = "zero"  # zero-point bye / absent, requested
    FULL = "full"  # full-point bye, requested or granted by the arbiter
    PAIRING = "pairing"  # pairing-allocated bye (odd number of players)


class Outcome(StrEnum):
    """Outcome of a board, from the white (first-named) player's side."""

    WHITE_WINS = "1-0"
    BLACK_WINS = "0-1"
    DRAW = "1/2-1/2"
    WHITE_WINS_FORFEIT = "+-"  # black did not play
    BLACK_WINS_FORFEIT = "-+"  # white did not play
    DOUBLE_FORFEIT = "--"
    BOTH_LOSE = "0-0"  # go (OpenGotha): both players lose
    BOTH_WIN = "1-1"  # go (OpenGotha): both players win
    UNKNOWN = "*"  # adjourned or not yet known

    @property
    def is_forfeit(self) -> bool:
        return self in {
            Outcome.WHITE_WINS_FORFEIT,
            Outcome.BLACK_WINS_FORFEIT,
            Outcome.DOUBLE_FORFEIT,
        }

    @property
    def is_known(self) -> bool:
        return self is not Outcome.UNKNOWN

    @property
    def mirror(self) -> Outcome:
        """The same result with the colours swapped.

        >>> Outcome.WHITE_WINS_FORFEIT.mirror, Outcome.DRAW.mirror
        (<Outcome.BLACK_WINS_FORFEIT: '-+'>, <Outcome.DRAW: '1/2-1/2'>)
        """
        return _MIRROR.get(self, self)


_MIRROR = {
    Outcome.WHITE_WINS: Outcome.BLACK_WINS,
    Outcome.BLACK_WINS: Outcome.WHITE_WINS,
    Outcome.WHITE_WINS_FORFEIT: Outcome.BLACK_WINS_FORFEIT,
    Outcome.BLACK_WINS_FORFEIT: Outcome.WHITE_WINS_FORFEIT,
}


@dataclass(frozen=True, slots=True, kw_only=True)
class Board:
    """One board of a round: a game, or a pairing-allocated bye when `black` is None.

    :raises ValueError: a number below its minimum, or a player against himself (inside a
        pydantic event, a validation error naming the field's path).
    """

    board: int
    """From 1."""
    white: int
    """Tournament player id, from 1."""
    black: int | None = None
    """From 1; None for the pairing-allocated bye."""
    handicap: int = 0
    """Go: handicap stones given to black, from 0."""
    komi: float | None = None
    """Go: komi for white."""

    def __post_init__(self) -> None:
        for name, value, least in (
            ("board", self.board, 1),
            ("white", self.white, 1),
            ("black", self.black, 1),
            ("handicap", self.handicap, 0),
        ):
            if value is not None and value < least:
                raise ValueError(f"{name} must be at least {least} (found {value})")
        if self.black == self.white:
            raise ValueError(f"board {self.board}: a player cannot play himself")

    @property
    def is_bye(self) -> bool:
        return self.black is None
