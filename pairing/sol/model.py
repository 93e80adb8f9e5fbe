"""Plain inputs and outputs of the SoL engines (carrom, or any game scored with points)."""

from __future__ import annotations

import enum

from pydantic import BaseModel, ConfigDict, Field, model_validator

from events.errors import PairingError

__all__ = [
    "Couplings",
    "FinalKind",
    "Retirements",
    "SolCompetitor",
    "SolError",
    "SolMatch",
    "SolPairing",
    "SolParams",
    "SolRound",
    "SolSystem",
    "SolTourney",
]


class SolError(PairingError):
    """SoL refuses to pair (no more combinations, bad knockout field, missing seeds...)."""


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class SolSystem(enum.StrEnum):
    SWISS = "swiss"
    ROUNDROBIN = "roundrobin"
    KNOCKOUT = "knockout"


class Couplings(enum.StrEnum):
    """SoL's pairing methods (``Tourney.couplings``)."""

    SERIAL = "serial"
    DAZED = "dazed"
    STAGGERED = "staggered"
    SEEDS = "seeds"
    CIRCLE = "circle"
    ALL = "all"


class FinalKind(enum.StrEnum):
    SIMPLE = "simple"
    BEST_OF_THREE = "bestof3"


class Retirements(enum.StrEnum):
    """How retired competitors weigh in their opponents' bucholz."""

    NONE = "none"
    TREND = "trend"
    TREND70 = "trend70"


class SolParams(_Frozen):
    """A tourney's pairing settings with SoL's defaults."""

    system: SolSystem = SolSystem.SWISS
    couplings: Couplings = Couplings.SERIAL
    rated: bool = False
    """The tourney is linked to a rating: rates order the first rounds."""
    delaytoppairing: int = Field(1, ge=0)
    """Rounds during which the rate comes right after bucholz (rated tourneys only)."""
    delaycompatriotpairing: int = Field(0, ge=0)
    """Rounds during which compatriots with equal points are paired last."""
    phantomscore: int = Field(25, ge=1, le=25)
    finals: int = Field(0, ge=0, le=2)
    finalkind: FinalKind = FinalKind.SIMPLE
    retirements: Retirements = Retirements.NONE

    @model_validator(mode="after")
    def _method_fits_system(self) -> SolParams:
        allowed = {
            SolSystem.SWISS: {
                Couplings.SERIAL,
                Couplings.DAZED,
                Couplings.STAGGERED,
                Couplings.ALL,
            },
            SolSystem.ROUNDROBIN: {Couplings.SEEDS, Couplings.CIRCLE, Couplings.ALL},
            SolSystem.KNOCKOUT: {Couplings.SEEDS},
        }[self.system]
        if self.couplings not in allowed:
            raise ValueError(
                f"couplings {self.couplings.value!r} is not a {self.system.value} method"
            )
        return self


class SolCompetitor(_Frozen):
    id: int = Field(ge=1)
    name: str
    """Sort name, last name first: SoL's rankings start from a sort by (last name, first name)."""
    nationality: str = ""
    rate: int | None = None
    position: int = Field(0, ge=0)
    """Seed position (0 = none)."""
    retired: bool = False


class SolMatch(_Frozen):
    """A match of an earlier round; ``competitor2`` None is the phantom (bye)."""

    round: int = Field(ge=1)
    board: int = Field(ge=1)
    competitor1: int
    competitor2: int | None
    score1: int = Field(ge=0)
    score2: int = Field(ge=0)
    final: bool = False


class SolTourney(_Frozen):
    competitors: tuple[SolCompetitor, ...]
    matches: tuple[SolMatch, ...] = ()

    @model_validator(mode="after")
    def _known_ids(self) -> SolTourney:
        ids = {c.id for c in self.competitors}
        if len(ids) != len(self.competitors):
            raise ValueError("duplicate competitor ids")
        for m in self.matches:
            for cid in (m.competitor1, m.competitor2):
                if cid is not None and cid not in ids:
                    raise ValueError(f"round {m.round} board {m.board}: unknown competitor {cid}")
        return self

    @property
    def current_round(self) -> int:
        return max((m.round for m in self.matches), default=0)


class SolPairing(_Frozen):
    board: int
    competitor1: int
    competitor2: int | None
    """None: the phantom; the match scores phantomscore to 0."""


class SolRound(_Frozen):
    round: int
    pairings: tuple[SolPairing, ...]
    """In creation order (the order SoL's procedure produced them); boards are assigned apart."""
    final: bool = False

    def by_board(self) -> list[SolPairing]:
        return sorted(self.pairings, key=lambda p: p.board)
