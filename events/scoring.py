"""A tournament's points table, as a user enters it (``--scoring``, the API, a file's
declared points): validated by pydantic, kept in the tournament's events."""

from __future__ import annotations

from pydantic import Field, model_validator

from events.domain import ByeKind, Game, Outcome
from events.frozen import Frozen

__all__ = ["Scoring"]


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
