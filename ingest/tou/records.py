"""The French federation's ``.tou`` result files (formats.md §4): the typed lines.

Header ``;key=value`` lines, then one line per player: number, ``SURNAME Firstname``, level,
7-digit FFG licence (``-------`` or blank when none), club, and per round ``opp`` + ``+|-|=``
+ ``b|w`` + handicap, or ``0=``/``0+``/``0-``. Cells share the h9 model
(:class:`ingest.h9.GoCell`). The reader is ``ingest.tou.reader``, the writer
``projections.exports.tou``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date, datetime

from pydantic import BaseModel, ConfigDict

from events.domain import Colour
from events.go import Rank
from ingest.errors import IngestError, IngestWarning
from ingest.go_table.records import GameResult, GoCell, name_parts

__all__ = [
    "TouComment",
    "TouEntry",
    "TouFile",
    "TouHeader",
    "TouPlayer",
    "parse_cell",
    "parse_date",
    "tou_cell",
]


@dataclass(frozen=True, slots=True)
class TouHeader:
    """A ``;key=value`` line (``name``, ``date``, ``vill``, ``comm``, ``prog``, ``size``…)."""

    key: str
    value: str
    line: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class TouComment:
    text: str
    line: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class TouPlayer:
    number: int
    name: tuple[str, ...]
    """Name tokens: surname first, ``_`` joins words inside a part."""
    level: str
    licence: str | None
    """7-digit FFG licence; ``None`` when blank or ``-------``."""
    club: str
    results: tuple[GoCell, ...]
    line: int = field(default=0, compare=False)

    @property
    def surname(self) -> str:
        return name_parts(self.name)[0]

    @property
    def first_name(self) -> str:
        return name_parts(self.name)[1]

    @property
    def rank(self) -> Rank | None:
        return Rank.parse(self.level)


TouEntry = TouHeader | TouComment | TouPlayer


class TouFile(BaseModel):
    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True)

    path: str
    entries: tuple[TouEntry, ...]
    rounds: int
    encoding: str = "iso-8859-15"
    warnings: tuple[IngestWarning, ...] = ()
    errors: tuple[IngestError, ...] = ()

    @property
    def players(self) -> tuple[TouPlayer, ...]:
        return tuple(e for e in self.entries if isinstance(e, TouPlayer))

    def header(self, key: str) -> str | None:
        for entry in self.entries:
            if isinstance(entry, TouHeader) and entry.key == key:
                return entry.value
        return None

    @property
    def date(self) -> date | None:
        value = self.header("date")
        return None if value is None else parse_date(value)

    @property
    def komi(self) -> float | None:
        value = self.header("komi")
        try:
            return None if value is None else float(value)
        except ValueError:
            return None

    def raise_first_error(self) -> None:
        if self.errors:
            raise self.errors[0]


def parse_date(value: str) -> date | None:
    try:
        return datetime.strptime(value.strip(), "%d/%m/%Y").date()  # noqa: DTZ007 - a day
    except ValueError:
        return None


_CELL = re.compile(r"(\d+)([-+=?])([bwBW])?(\d{1,2})?")


def parse_cell(token: str) -> GoCell | None:
    """A result cell as .tou writes it (``15+w4``, ``0=``), or ``None`` when not one."""
    match = _CELL.fullmatch(token)
    if match is None:
        return None
    opponent, symbol, colour, handicap = match.groups()
    return GoCell(
        int(opponent),
        GameResult(symbol),
        Colour(colour.lower()) if colour else None,
        int(handicap) if handicap is not None else None,
    )


def tou_cell(cell: GoCell) -> str:
    """A cell as .tou writes it: ``15+w4``, ``0=`` (no ``/``; forfeits are not marked)."""
    text = f"{cell.opponent}{cell.result.value}"
    if cell.colour is not None:
        text += cell.colour.value
    if cell.handicap is not None:
        text += str(cell.handicap)
    return text
