"""A tournament's prize list: places, categories, amounts, how tied players share.

`PrizeTable` is what a director writes in ``prizes.toml`` (`arbiter prizes T set FILE`) and
what the `PrizesSet` event stores; the allocation that reads it is
`projections.prizes.allocate`. The keys are documented in ``docs/prizes.md``.
"""

from __future__ import annotations

from decimal import Decimal
from enum import StrEnum
from typing import Literal

from pydantic import Field, field_validator, model_validator

from events.frozen import Frozen

__all__ = ["Category", "Prize", "PrizeTable", "Sharing"]


class Sharing(StrEnum):
    """How tied players (equal points) share the money of the places they occupy."""

    NONE = "none"
    """No sharing: the tie-break chain decides every prize."""
    EQUAL = "equal"
    """The pooled amount is divided equally."""
    HORT = "hort"
    """Hort system: half of each player's own (tie-break) prize, plus an equal share of the
    other half of the pool."""


class Category(Frozen):
    """Who may win a category's prizes; every condition given must hold."""

    name: str = Field(min_length=1, max_length=40)
    rating_min: int | None = Field(None, ge=0)
    """Lowest rating (inclusive); an unrated player is below every floor."""
    rating_max: int | None = Field(None, ge=0)
    """Highest rating (inclusive), as in "under 2000": ``rating_max = 1999``."""
    unrated: bool = True
    """Whether an unrated player belongs (when no ``rating_min`` rules him out)."""
    born_min: int | None = Field(None, ge=1850, le=2200)
    """Born in this year or later (a youth category)."""
    born_max: int | None = Field(None, ge=1850, le=2200)
    """Born in this year or earlier (a senior category)."""
    under: int | None = Field(None, ge=1, le=120)
    """An age category as FIDE's youth events count it (U8..U20): born in or after
    ``year - under`` (U12 in 2026: born in 2014 or later), the year being the event's."""
    sex: Literal["m", "f"] | None = None
    federations: tuple[str, ...] = ()
    """FIDE (or national) federation codes; empty: any."""

    @field_validator("sex", mode="before")
    @classmethod
    def _sex(cls, value: object) -> object:
        if isinstance(value, str):
            found = {"m": "m", "male": "m", "f": "f", "female": "f", "w": "f"}.get(value.lower())
            return found if found is not None else value
        return value

    @field_validator("federations", mode="before")
    @classmethod
    def _federations(cls, value: object) -> object:
        if isinstance(value, str):
            value = [value]
        if isinstance(value, list | tuple):
            return tuple(str(v).strip().upper() for v in value)
        return value

    @model_validator(mode="after")
    def _bounds(self) -> Category:
        rating = (self.rating_min, self.rating_max)
        if rating[0] is not None and rating[1] is not None and rating[0] > rating[1]:
            raise ValueError("rating_min is above rating_max")
        born = (self.born_min, self.born_max)
        if born[0] is not None and born[1] is not None and born[0] > born[1]:
            raise ValueError("born_min is after born_max")
        return self


class Prize(Frozen):
    """One prize: a place in the whole field (no category) or in a category; money, a thing
    (a cup, a book), or both."""

    place: int = Field(ge=1, le=10_000)
    amount: Decimal | None = Field(None, gt=0, le=10**12, max_digits=16, decimal_places=4)
    item: str | None = Field(None, min_length=1, max_length=80)
    """A prize that is not money (never shared: the tie-break decides who gets it)."""
    category: str | None = None
    """The category's name (see `PrizeTable.category`); none: the whole field."""

    @model_validator(mode="after")
    def _something(self) -> Prize:
        if self.amount is None and self.item is None:
            raise ValueError("a prize needs an amount or an item")
        return self

    @property
    def money(self) -> bool:
        return self.amount is not None


class PrizeTable(Frozen):
    """The prize list of a tournament (the TOML file, as validated)."""

    sharing: Sharing = Sharing.EQUAL
    round_to: Decimal = Field(Decimal("0.01"), gt=0, le=1000, decimal_places=4)
    """Shares are rounded to a multiple of this (half up): 1 pays whole units."""
    currency: str | None = Field(None, max_length=8)
    category: tuple[Category, ...] = ()
    """The categories (TOML ``[[category]]``)."""
    prize: tuple[Prize, ...] = Field(min_length=1, max_length=1000)
    """The prizes (TOML ``[[prize]]``), in the organiser's order: equal amounts go in this
    order, and a category's places should be listed best first."""

    @model_validator(mode="after")
    def _consistent(self) -> PrizeTable:
        names = [c.name for c in self.category]
        twice = sorted({n for n in names if names.count(n) > 1})
        if twice:
            raise ValueError(f"category '{twice[0]}' is defined twice")
        seen: set[tuple[str | None, int]] = set()
        for prize in self.prize:
            if prize.category is not None and prize.category not in names:
                known = ", ".join(names) or "none defined"
                raise ValueError(f"prize names category '{prize.category}' (known: {known})")
            key = (prize.category, prize.place)
            if key in seen:
                where = f"category '{prize.category}'" if prize.category else "the whole field"
                raise ValueError(f"place {prize.place} of {where} is listed twice")
            seen.add(key)
        return self
