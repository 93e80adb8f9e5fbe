"""Plain input records of a go tournament as the Mac-Mahon / Swiss engine reads them."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, model_validator

from events.errors import PairingError
from events.go import GoResult

__all__ = [
    "GoBye",
    "GoGame",
    "GoPlayer",
    "GoResult",
    "GoTournament",
    "MacMahonError",
    "PairedGame",
    "Pairing",
]


class MacMahonError(PairingError):
    """The Mac-Mahon / Swiss engine cannot pair the round asked for."""


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class GoPlayer(_Frozen):
    """A registered player. ``rank``: 30k = -30 ... 1k = -1, 1d = 0 ... 9d = 8."""

    key: str
    name: str
    first_name: str = ""
    rank: int = Field(ge=-30, le=8)
    rating: int = 0
    club: str = ""
    country: str = ""
    smms_correction: int = 0
    participating: tuple[bool, ...] = ()
    """One flag per round (1-based round n is index n-1); missing rounds count as present."""
    final_registration: bool = True

    def plays_in(self, round_number: int) -> bool:
        index = round_number - 1
        return index >= len(self.participating) or self.participating[index]


class GoGame(_Frozen):
    round: int = Field(ge=1)
    white: str
    black: str
    handicap: int = Field(default=0, ge=0)
    result: GoResult = GoResult.UNKNOWN
    by_default: bool = False


class GoBye(_Frozen):
    round: int = Field(ge=1)
    player: str


class GoTournament(_Frozen):
    """Everything the engine needs: players, past games and byes, the number of rounds."""

    number_of_rounds: int = Field(ge=1)
    players: tuple[GoPlayer, ...]
    games: tuple[GoGame, ...] = ()
    byes: tuple[GoBye, ...] = ()
    clubs_groups: tuple[tuple[str, ...], ...] = ()
    """Each entry lists the clubs of one clubs group (the geography criterion)."""

    @model_validator(mode="after")
    def _check(self) -> GoTournament:
        keys = [p.key for p in self.players]
        if len(set(keys)) != len(keys):
            raise ValueError("duplicate player key")
        known = set(keys)
        for game in self.games:
            for key in (game.white, game.black):
                if key not in known:
                    raise ValueError(f"game of round {game.round} names unknown player {key!r}")
            if game.round > self.number_of_rounds:
                raise ValueError(f"game of round {game.round} beyond {self.number_of_rounds}")
        for bye in self.byes:
            if bye.player not in known:
                raise ValueError(f"bye of round {bye.round} names unknown player {bye.player!r}")
        return self

    def before(self, round_number: int) -> GoTournament:
        """The tournament as it stood when round ``round_number`` was about to be paired."""
        return self.model_copy(
            update={
                "games": tuple(g for g in self.games if g.round < round_number),
                "byes": tuple(b for b in self.byes if b.round < round_number),
            }
        )


class PairedGame(_Frozen):
    white: str
    black: str
    handicap: int = 0


class Pairing(_Frozen):
    """The engine's answer for one round."""

    round: int
    games: tuple[PairedGame, ...]
    bye: str | None = None
