"""Every tunable of OpenGotha's Mac-Mahon / Swiss pairing, with OpenGotha's defaults.

Weights are exact integers (OpenGotha's ``long``); the concavity factor is a ``Fraction``
so that no cost is ever computed in floating point (pairing.md §4.4-4.10).
"""

from __future__ import annotations

import enum
from fractions import Fraction

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from events.errors import UserError

__all__ = [
    "Criterion",
    "DuddMode",
    "Edition",
    "HandicapBase",
    "MacMahonParams",
    "SeedSystem",
    "SystemKind",
    "UnknownCriterion",
]


class UnknownCriterion(UserError):
    """A placement criterion this engine does not implement."""


class SeedSystem(enum.StrEnum):
    SPLIT_AND_RANDOM = "SPLITANDRANDOM"
    SPLIT_AND_FOLD = "SPLITANDFOLD"
    SPLIT_AND_SLIP = "SPLITANDSLIP"


class DuddMode(enum.StrEnum):
    TOP = "TOP"
    MID = "MID"
    BOT = "BOT"


class HandicapBase(enum.StrEnum):
    RANK = "RANK"
    MMS = "MMS"


class Edition(enum.StrEnum):
    """Which OpenGotha the costs follow.

    ``V3_51``: the public 3.51.02 / 3.52.03 source. ``V2024``: the newer OpenGotha behind the
    reference pairings (pairing.md §4.11): DU/DD for any group gap, players above the
    thresholds freed from geography, Swiss bye by rank + 40·wins.
    """

    V3_51 = "3.51"
    V2024 = "2024"


class SystemKind(enum.StrEnum):
    """OpenGotha's tournament type, from the first placement criterion."""

    MCMAHON = "MCMAHON"
    SWISS = "SWISS"
    SWISS_CAT = "SWISSCAT"
    UNDEFINED = "UNDEFINED"


class Criterion(enum.StrEnum):
    """Placement criteria by OpenGotha's long names (XML ``PlacementCriterion/@name``)."""

    NUL = "NULL"
    CAT = "CAT"
    RANK = "Rank"
    RATING = "Rating"
    NBW = "NBW"
    MMS = "MMS"
    STS = "STS"
    CUSSW = "CUSSW"
    CUSSM = "CUSSM"
    SOSW = "SOSW"
    SOSWM1 = "SOSW-1"
    SOSWM2 = "SOSW-2"
    SODOSW = "SODOSW"
    SOSM = "SOSM"
    SOSMM1 = "SOSM-1"
    SOSMM2 = "SOSM-2"
    SODOSM = "SODOSM"
    SOSTS = "SOSTS"
    SOSOSW = "SOSOSW"
    SOSOSM = "SOSOSM"
    EXT = "EXT"
    EXR = "EXR"
    DC = "DC"
    SDC = "SDC"

    @classmethod
    def parse(cls, name: str) -> Criterion:
        """A criterion from its XML name; ``None``/empty mean no criterion.

        >>> Criterion.parse("SOSW-1"), Criterion.parse("")
        (<Criterion.SOSWM1: 'SOSW-1'>, <Criterion.NUL: 'NULL'>)

        :raises UnknownCriterion: a name the engine does not know (a cup's ``CPS``).
        """
        if name in ("", "None", "NONE"):
            return cls.NUL
        try:
            return cls(name)
        except ValueError:
            raise UnknownCriterion(f"{name!r} is not a valid Criterion") from None


class MacMahonParams(BaseModel):
    """Validated, frozen pairing parameters. Defaults are OpenGotha's ``initForMM``."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    edition: Edition = Edition.V2024
    number_of_rounds: int = Field(default=5, ge=1, le=20)
    # General parameters (ranks as integers, 30k = -30, 1d = 0).
    mm_floor: int = Field(default=-20, ge=-30, le=8)
    mm_bar: int = Field(default=3, ge=-30, le=8)
    mm_zero: int = Field(default=-30, ge=-30, le=8)
    category_lower_limits: tuple[int, ...] = ()
    """Lower rank limit of every category but the last; empty means one category."""
    nbw2_absent: int = 0
    nbw2_bye: int = 2
    mms2_absent: int = 1
    mms2_bye: int = 2
    round_down_nbw_mms: bool = True
    count_not_played_as_half_point: bool = False
    placement_criteria: tuple[Criterion, ...] = (Criterion.MMS, Criterion.SOSM, Criterion.SOSOSM)
    # Handicap.
    handicap_base: HandicapBase = HandicapBase.MMS
    no_handicap_rank_threshold: int = Field(default=0, ge=-30, le=8)
    handicap_correction: int = Field(default=1, ge=0)
    handicap_ceiling: int = Field(default=9, ge=0)
    # Base criteria.
    avoid_duplicate_game: int = Field(default=500_000_000_000_000, ge=0)
    random: int = Field(default=0, ge=0, le=2_000_000_000)
    balance_wb: int = Field(default=1_000_000, ge=0)
    # Main criteria.
    nx1_factor: Fraction = Fraction(1, 2)
    avoid_mixing_categories: int = Field(default=0, ge=0)
    minimize_score_difference: int = Field(default=100_000_000_000, ge=0)
    dudd_weight: int = Field(default=100_000_000, ge=0)
    compensate_dudd: bool = True
    dudd_upper_mode: DuddMode = DuddMode.MID
    dudd_lower_mode: DuddMode = DuddMode.MID
    maximize_seeding: int = Field(default=5_000_000, ge=0)
    last_round_for_seed_system1: int = Field(default=2, ge=0)
    """1-based: rounds 1..this use seed system 1 (the XML's stored value)."""
    seed_system1: SeedSystem = SeedSystem.SPLIT_AND_RANDOM
    seed_system2: SeedSystem = SeedSystem.SPLIT_AND_SLIP
    additional_criterion1: Criterion = Criterion.RATING
    additional_criterion2: Criterion = Criterion.NUL
    # Secondary criteria.
    bar_threshold_active: bool = True
    rank_threshold: int = Field(default=0, ge=-30, le=8)
    nb_wins_threshold_active: bool = False
    minimize_handicap: int = Field(default=0, ge=0)
    avoid_same_geo: int = Field(default=100_000_000_000, ge=0)
    prefer_mms_diff_rather_than_same_country: int = Field(default=1, ge=0)
    prefer_mms_diff_rather_than_same_club: int = Field(default=3, ge=0)

    @field_validator("nx1_factor")
    @classmethod
    def _factor_in_unit_interval(cls, value: Fraction) -> Fraction:
        if not 0 <= value <= 1:
            raise ValueError(f"NX1 factor must lie in [0, 1], got {value}")
        return value

    @model_validator(mode="after")
    def _check(self) -> MacMahonParams:
        if self.mm_floor > self.mm_bar:
            raise ValueError("MM floor above MM bar")
        if self.avoid_duplicate_game > 500_000_000_000_000:
            raise ValueError("avoid-duplicate weight must stay <= 5e14 (OpenGotha's bound)")
        if not self.placement_criteria:
            raise ValueError("at least one placement criterion is needed")
        return self

    @property
    def number_of_categories(self) -> int:
        return len(self.category_lower_limits) + 1

    @property
    def kind(self) -> SystemKind:
        first = self.placement_criteria[0]
        return {
            Criterion.MMS: SystemKind.MCMAHON,
            Criterion.NBW: SystemKind.SWISS,
            Criterion.CAT: SystemKind.SWISS_CAT,
        }.get(first, SystemKind.UNDEFINED)

    @property
    def main_criterion(self) -> Criterion:
        """The first NBW or MMS among the placement criteria (NBW when neither appears)."""
        for criterion in self.placement_criteria:
            if criterion in (Criterion.NBW, Criterion.MMS):
                return criterion
        return Criterion.NBW

    def uses_system1(self, round_number: int) -> bool:
        return round_number <= self.last_round_for_seed_system1

    @classmethod
    def swiss(cls, **changes: object) -> MacMahonParams:
        """OpenGotha's ``initForSwiss`` defaults, with ``changes`` applied."""
        base: dict[str, object] = {
            "mm_floor": -30,
            "mm_bar": 8,
            "placement_criteria": (Criterion.NBW, Criterion.SOSW, Criterion.SOSOSW),
            "seed_system1": SeedSystem.SPLIT_AND_SLIP,
            "seed_system2": SeedSystem.SPLIT_AND_SLIP,
            "additional_criterion2": Criterion.RATING,
            "rank_threshold": -30,
            "nb_wins_threshold_active": True,
            "avoid_same_geo": 0,
            "handicap_base": HandicapBase.RANK,
            "no_handicap_rank_threshold": -30,
            "handicap_correction": 0,
            "handicap_ceiling": 0,
        }
        base.update(changes)
        return cls.model_validate(base)
