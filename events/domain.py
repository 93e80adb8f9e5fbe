"""Value types shared by events, projections and pairing: games, systems, results, scoring."""

from __future__ import annotations

from enum import Enum, StrEnum

from pydantic import BaseModel, ConfigDict, Field, model_validator

from events.errors import UserError


class Frozen(BaseModel):
    """Base of every immutable value object: frozen, no unknown fields."""

    model_config = ConfigDict(frozen=True, extra="forbid")


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


class Scoring(Frozen):
    """Points for each kind of round result; defaults are chess 1/½/0."""

    win: float = Field(1.0, ge=0)
    draw: float = Field(0.5, ge=0)
    loss: float = Field(0.0, ge=0)
    forfeit_win: float | None = Field(None, ge=0, description="defaults to win")
    forfeit_loss: float = Field(0.0, ge=0)
    pairing_bye: float | None = Field(None, ge=0, description="PAB points; defaults to win")
    full_bye: float | None = Field(None, ge=0, description="defaults to win")
    half_bye: float | None = Field(None, ge=0, description="defaults to draw")
    zero_bye: float = Field(0.0, ge=0)

    @model_validator(mode="after")
    def _ordered(self) -> Scoring:
        if not self.win >= self.draw >= self.loss:
            raise ValueError("scoring must satisfy win >= draw >= loss")
        return self

    def for_bye(self, kind: ByeKind) -> float:
        match kind:
            case ByeKind.PAIRING:
                return self.win if self.pairing_bye is None else self.pairing_bye
            case ByeKind.FULL:
                return self.win if self.full_bye is None else self.full_bye
            case ByeKind.HALF:
                return self.draw if self.half_bye is None else self.half_bye
            case ByeKind.ZERO:
                return self.zero_bye

    def for_game(self, outcome: Outcome) -> tuple[float, float] | None:
        """Points (white, black) for a board outcome; None while the result is unknown."""
        fw = self.win if self.forfeit_win is None else self.forfeit_win
        match outcome:
            case Outcome.WHITE_WINS:
                return self.win, self.loss
            case Outcome.BLACK_WINS:
                return self.loss, self.win
            case Outcome.DRAW:
                return self.draw, self.draw
            case Outcome.WHITE_WINS_FORFEIT:
                return fw, self.forfeit_loss
            case Outcome.BLACK_WINS_FORFEIT:
                return self.forfeit_loss, fw
            case Outcome.DOUBLE_FORFEIT:
                return self.forfeit_loss, self.forfeit_loss
            case Outcome.BOTH_LOSE:
                return self.loss, self.loss
            case Outcome.BOTH_WIN:
                return self.win, self.win
            case Outcome.UNKNOWN:
                return None

    @classmethod
    def for_game_kind(cls, game: Game) -> Scoring:
        """The usual scoring of each game: carrom counts 2/1/0 (SoL), the others 1/½/0."""
        if game is Game.CARROM:
            return cls(win=2, draw=1, loss=0)
        return cls()


class Board(Frozen):
    """One board of a round: a game, or a pairing-allocated bye when `black` is None."""

    board: int = Field(ge=1)
    white: int = Field(ge=1, description="tournament player id")
    black: int | None = Field(None, ge=1)
    handicap: int = Field(0, ge=0, description="go: handicap stones given to black")
    komi: float | None = Field(None, description="go: komi for white")

    @model_validator(mode="after")
    def _distinct(self) -> Board:
        if self.black == self.white:
            raise ValueError(f"board {self.board}: a player cannot play himself")
        return self

    @property
    def is_bye(self) -> bool:
        return self.black is None
