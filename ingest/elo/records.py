"""World Othello Federation result files (``.ELO``, formats.md §7): the typed entries.

A file is its ordered entries (comments, player lines, games), so that the writer
(``projections.exports.elo``) can reproduce it, plus the header and the dates. The reader
(``ingest.elo.reader``) builds them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal, InvalidOperation
from enum import Enum

from pydantic import BaseModel, ConfigDict

from events.domain import Colour
from ingest.errors import IngestError, IngestWarning

__all__ = [
    "ANONYMOUS",
    "HEADER_KEYS",
    "PROVISIONAL_BASE",
    "EloComment",
    "EloEntry",
    "EloFile",
    "EloGame",
    "EloHeader",
    "EloPlayer",
    "Outcome",
    "bye_id",
    "bye_text",
    "provisional",
]

HEADER_KEYS = ("Tournament", "Country", "Date", "Sender")
UNKNOWN_ID = "??????"
"""The id of a player the file does not identify."""
ANONYMOUS = UNKNOWN_ID
"""The name such a player is registered under (the file names nobody)."""
PROVISIONAL_BASE = 900_000
"""A new player's (``+``) id from PROVISIONAL_BASE up is provisional: arbiter's export writes it
for a player registered without a WOF id (no id of the archive, 1977-2026, is in 900000..999999),
and the reader takes it back as no WOF id."""


def bye_text(wof_id: int) -> str:
    """The WOF files' comment for a round's bye (``%7148 had a bye``), after the round's games."""
    return f"%{wof_id} had a bye"


def bye_id(text: str) -> int | None:
    """The id of a `bye_text` comment (``% 6843 had a bye`` too), else ``None``.

    >>> bye_id("%7148 had a bye"), bye_id("% 6843 had a bye"), bye_id("%Round 3")
    (7148, 6843, None)
    """
    match = _BYE.fullmatch(text.strip())
    return int(match.group(1)) if match else None


_BYE = re.compile(r"%\s*(\d+)\s+had\s+a\s+bye", re.IGNORECASE)


def provisional(wof_id: int | None, new: bool) -> bool:
    """A ``+`` id in the provisional block (`PROVISIONAL_BASE`): not a WOF id.

    >>> provisional(900003, True), provisional(900003, False), provisional(210103, True)
    (True, False, False)
    """
    return new and wof_id is not None and PROVISIONAL_BASE <= wof_id < 1_000_000


class Outcome(Enum):
    """The result glyph of a game line, from the first player's side."""

    FIRST_WINS = ">"
    SECOND_WINS = "<"
    DRAW = "="

    @property
    def first_score(self) -> float:
        """Points of the first player: 1, 0 or 0.5."""
        return _FIRST_SCORE[self]


_FIRST_SCORE = {Outcome.FIRST_WINS: 1.0, Outcome.SECOND_WINS: 0.0, Outcome.DRAW: 0.5}


@dataclass(frozen=True, slots=True)
class EloComment:
    """A comment line, kept verbatim (without trailing blanks)."""

    text: str
    line: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class EloPlayer:
    """A ``%_%`` line: ``[+]ID, NAME, Firstname, COUNTRY, score, discs[, rating]``.

    ``fields`` holds every comma-separated field after the ID, whitespace-normalised; the
    named properties interpret them. Real files put almost anything there (2-letter and
    3-letter countries, clubs, ``5+2`` scores, ``262-186`` disc counts), so they are kept as
    text and interpreted on demand.
    """

    wof_id: int | None
    """WOF player id; ``None`` for ``??????`` (unknown player)."""
    new: bool
    """``+`` before the id: the player is new to the WOF database."""
    fields: tuple[str, ...]
    comment: str = ""
    """A trailing ``%`` comment on the line (``%Champion``), without the ``%``."""
    line: int = field(default=0, compare=False)

    def _field(self, index: int) -> str:
        return self.fields[index] if index < len(self.fields) else ""

    @property
    def surname(self) -> str:
        return self._field(0)

    @property
    def first_name(self) -> str:
        return self._field(1)

    @property
    def country(self) -> str:
        return self._field(2)

    @property
    def score(self) -> Decimal | None:
        """The points column when it is a plain number, else ``None``."""
        return _decimal(self._field(3))

    @property
    def discs(self) -> int | None:
        """The disc-count column when it is a plain integer, else ``None``."""
        return _integer(self._field(4))

    @property
    def rating(self) -> int | None:
        """The 7th field (Papp >= 1.35): WOF rating when paired; 0 means unrated.

        Only read when the line is a well-formed Papp line (numeric score and discs), so a
        shifted line such as ``NL, 2,5+1, 185`` does not yield a rating of 185.
        """
        if len(self.fields) < 6 or self.score is None or self.discs is None:
            return None
        return _integer(self.fields[5])


@dataclass(frozen=True, slots=True)
class EloGame:
    """One game: ``first (d1)>(d2) second [B|W]`` or the old form ``first > second``."""

    first: int | None
    """WOF id of the first player; ``None`` for ``??????``."""
    second: int | None
    outcome: Outcome
    first_discs: int | None = None
    second_discs: int | None = None
    first_colour: Colour | None = None
    round: int | None = None
    """Round number from the latest comment naming a round (``%Round: 3``), if any."""
    added: bool = False
    """The game follows a ``%%Added results`` comment (results sent in later)."""
    comment: str = ""
    """A trailing ``%`` comment on the line, without the ``%``."""
    line: int = field(default=0, compare=False)

    @property
    def first_score(self) -> float:
        return self.outcome.first_score


EloEntry = EloComment | EloPlayer | EloGame


class EloHeader(BaseModel):
    """The four ``%%Key: value`` header lines, values verbatim."""

    model_config = ConfigDict(frozen=True)

    tournament: str
    country: str
    date: str
    sender: str


class EloFile(BaseModel):
    """A parsed ``.ELO`` file.

    ``start`` comes from the file name (``YYYYMMDD[a-z]_NAME.ELO``) or, failing that, from
    ``%%Date``; ``end`` from a ``%%Date`` range. ``errors`` lists rejected lines: a file with
    errors should not be imported as a whole. ``warnings`` are non-fatal findings.
    """

    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True)

    path: str
    name: str
    """NAME part of the file name (or the file stem when it does not follow the convention)."""
    letter: str = ""
    """Optional ``[a-z]`` after the date in the file name."""
    start: date
    end: date | None = None
    header: EloHeader
    entries: tuple[EloEntry, ...]
    encoding: str = "utf-8"
    warnings: tuple[IngestWarning, ...] = ()
    errors: tuple[IngestError, ...] = ()

    @property
    def players(self) -> tuple[EloPlayer, ...]:
        return tuple(e for e in self.entries if isinstance(e, EloPlayer))

    @property
    def games(self) -> tuple[EloGame, ...]:
        return tuple(e for e in self.entries if isinstance(e, EloGame))

    @property
    def comments(self) -> tuple[EloComment, ...]:
        return tuple(e for e in self.entries if isinstance(e, EloComment))

    def raise_first_error(self) -> None:
        """Raise the first rejected line's error, if any (for strict, all-or-nothing use)."""
        if self.errors:
            raise self.errors[0]


def _decimal(text: str) -> Decimal | None:
    if not text or not _NUMBER.fullmatch(text):
        return None
    try:
        return Decimal(text)
    except InvalidOperation:  # pragma: no cover - guarded by the regex
        return None


def _integer(text: str) -> int | None:
    return int(text) if _INTEGER.fullmatch(text) else None


_NUMBER = re.compile(r"-?(?:\d+(?:\.\d*)?|\.\d+)")
_INTEGER = re.compile(r"-?\d+")
