"""Reader for World Othello Federation result files (``.ELO``, formats.md §7).

The file is read into ordered entries (comments, player lines, games) so that a writer can
reproduce it, plus the header and the dates.  The reader is lenient where the real archive
needs it (free-form player fields, several games on one line, old result lines without
discs, trailing ``%`` comments) and strict elsewhere: a line that is none of comment, player
or result is *rejected* and reported as an :class:`~ingest.errors.IngestError` in
:attr:`EloFile.errors`; a file without its four header lines or without any date raises.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal, InvalidOperation
from enum import Enum
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from ingest.errors import IngestError, IngestWarning, ResultRecordError
from ingest.textio import read_text

__all__ = [
    "HEADER_KEYS",
    "Colour",
    "EloComment",
    "EloEntry",
    "EloFile",
    "EloGame",
    "EloHeader",
    "EloPlayer",
    "Outcome",
    "parse_elo",
    "parse_elo_date",
    "parse_file_name",
]

HEADER_KEYS = ("Tournament", "Country", "Date", "Sender")
UNKNOWN_ID = "??????"


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


class Colour(Enum):
    """Colour of the first player of a game line (Othello: black moves first)."""

    BLACK = "B"
    WHITE = "W"


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
_FILE_NAME = re.compile(r"(\d{8})([a-z]?)_(.+)\.elo", re.IGNORECASE)
_DATE = re.compile(r"(\d{1,2})/(\d{1,2})/(\d{4})")
_DATE_RANGE = re.compile(rf"{_DATE.pattern}(?:\s*-\s*{_DATE.pattern})?")
_ROUND = re.compile(r"round\s*:?\s*(\d+)", re.IGNORECASE)
_ADDED = re.compile(r"%+\s*added results", re.IGNORECASE)
_PLAYER_ID = re.compile(r"(\+?)\s*(\d+|\?+)")
# One game: ID [(discs)] glyph [(discs)] ID [colour]. Several may follow on one line.
_GAME = re.compile(
    r"[ \t]*(\d+|\?+)[ \t]*(?:\([ \t]*(\d+)[ \t]*\))?[ \t]*([<>=])[ \t]*"
    r"(?:\([ \t]*(\d+)[ \t]*\))?[ \t]*(\d+|\?+)(?:[ \t]+([BWbw])(?=[ \t%]|$))?[ \t]*"
)


def parse_file_name(file_name: str) -> tuple[date, str, str] | None:
    """``(date, letter, name)`` from ``YYYYMMDD[a-z]_NAME.ELO``, or ``None``.

    >>> parse_file_name("20251113_WOC_2025.ELO")
    (datetime.date(2025, 11, 13), '', 'WOC_2025')
    """
    match = _FILE_NAME.fullmatch(file_name)
    if match is None:
        return None
    digits = match.group(1)
    try:
        day = date(int(digits[:4]), int(digits[4:6]), int(digits[6:]))
    except ValueError:
        return None
    return day, match.group(2), match.group(3)


def parse_elo_date(text: str) -> tuple[date, date | None] | None:
    """``(start, end)`` from ``DD/MM/YYYY`` or ``DD/MM/YYYY - DD/MM/YYYY``; ``None`` if bad.

    >>> parse_elo_date("13/11/2025 - 15/11/2025")
    (datetime.date(2025, 11, 13), datetime.date(2025, 11, 15))
    """
    match = _DATE_RANGE.fullmatch(text.strip())
    if match is None:
        return None
    d, m, y, d2, m2, y2 = match.groups()
    try:
        start = date(int(y), int(m), int(d))
        end = date(int(y2), int(m2), int(d2)) if d2 is not None else None
    except ValueError:
        return None
    if end is not None and end < start:
        return None
    return start, end


def _date_problem(text: str) -> str:
    if _DATE_RANGE.fullmatch(text.strip()) is None:
        return "bad %%Date"
    return "impossible %%Date (no such day, or a range that ends before it starts)"


def _id(token: str) -> int | None:
    return None if token.startswith("?") else int(token)


class _Reader:
    """One pass over the lines of a file, collecting entries, errors and warnings."""

    def __init__(self, path: str, lines: tuple[str, ...]) -> None:
        self.path = path
        self.lines = lines
        self.entries: list[EloEntry] = []
        self.errors: list[IngestError] = []
        self.warnings: list[IngestWarning] = []
        self.round: int | None = None
        self.added = False

    def header(self) -> EloHeader:
        values: list[str] = []
        for index, key in enumerate(HEADER_KEYS):
            prefix = f"%%{key}:"
            if index >= len(self.lines):
                raise IngestError(
                    self.path, index + 1, 1, "file ends inside the header", expected=prefix
                )
            text = self.lines[index]
            if not text.startswith(prefix):
                raise IngestError(
                    self.path, index + 1, 1, "bad header line", found=text[:40], expected=prefix
                )
            values.append(text[len(prefix) :].strip())
        return EloHeader(tournament=values[0], country=values[1], date=values[2], sender=values[3])

    def body(self) -> None:
        for index in range(len(HEADER_KEYS), len(self.lines)):
            text = self.lines[index]
            number = index + 1
            stripped = text.strip()
            if not stripped:
                continue
            if text.startswith("%_%"):
                self.player(text, number)
            elif stripped.startswith("%"):
                self.comment(text.rstrip(), number)
            else:
                self.games(text, number)

    def comment(self, text: str, number: int) -> None:
        self.entries.append(EloComment(text, number))
        if _ADDED.match(text.lstrip()):
            self.added = True
        match = _ROUND.search(text)
        self.round = int(match.group(1)) if match else None

    def player(self, text: str, number: int) -> None:
        body = text[3:]
        data, _, comment = body.partition("%")
        parts = data.split(",")
        match = _PLAYER_ID.fullmatch(parts[0].strip())
        if match is None:
            # Real files put captions and notes on %_% lines ("%_% Classical tournament",
            # "%_%__________", "%_% ID, NAME, ..."): without an id they are comments.
            self.entries.append(EloComment(text.rstrip(), number))
            return
        if len(parts) < 3:
            self.errors.append(
                IngestError(
                    self.path,
                    number,
                    len(text.rstrip()) + 1,
                    "truncated player line",
                    found=text.strip(),
                    expected="'ID, NAME, Firstname[, COUNTRY, score, discs[, rating]]'",
                )
            )
            return
        token = match.group(2)
        if token.startswith("?") and token != UNKNOWN_ID:
            self.errors.append(
                IngestError(self.path, number, 4, "bad player id", found=token, expected="digits")
            )
            return
        fields = tuple(" ".join(part.split()) for part in parts[1:])
        self.entries.append(
            EloPlayer(_id(token), match.group(1) == "+", fields, comment.strip(), number)
        )

    def games(self, text: str, number: int) -> None:
        position = 0
        end = len(text)
        found = 0
        while position < end:
            if text.startswith("%", position):
                break
            match = _GAME.match(text, position)
            if match is None or match.end() == position:
                break
            first, d1, glyph, d2, second, colour = match.groups()
            if (d1 is None) != (d2 is None):
                break
            self.entries.append(
                EloGame(
                    _id(first),
                    _id(second),
                    Outcome(glyph),
                    int(d1) if d1 is not None else None,
                    int(d2) if d2 is not None else None,
                    Colour(colour.upper()) if colour else None,
                    self.round,
                    self.added,
                    "",
                    number,
                )
            )
            found += 1
            position = match.end()
        rest = text[position:].strip()
        if rest.startswith("%") and found:
            last = self.entries[-1]
            assert isinstance(last, EloGame)
            self.entries[-1] = EloGame(
                last.first,
                last.second,
                last.outcome,
                last.first_discs,
                last.second_discs,
                last.first_colour,
                last.round,
                last.added,
                rest[1:].strip(),
                number,
            )
            return
        if rest:
            del self.entries[len(self.entries) - found :]
            self.errors.append(
                ResultRecordError(
                    self.path,
                    number,
                    position + 1 + (len(text[position:]) - len(text[position:].lstrip())),
                    "unreadable result line",
                    found=rest[:30],
                    expected="'ID (discs)>(discs) ID [B|W]' or 'ID > ID'",
                )
            )

    def validate(self) -> None:
        """Cross-line checks that make a file unfit for import."""
        seen: dict[int, int] = {}
        for entry in self.entries:
            if isinstance(entry, EloPlayer) and entry.wof_id is not None:
                if entry.wof_id in seen:
                    self.errors.append(
                        IngestError(
                            self.path,
                            entry.line,
                            1,
                            f"duplicate player id {entry.wof_id} (first on line "
                            f"{seen[entry.wof_id]})",
                            found=str(entry.wof_id),
                            expected="each id once",
                        )
                    )
                else:
                    seen[entry.wof_id] = entry.line
        kept: list[EloEntry] = []
        listed = set(seen)
        in_round: dict[tuple[int, int], int] = {}
        for entry in self.entries:
            if not isinstance(entry, EloGame):
                kept.append(entry)
                continue
            if entry.first is not None and entry.first == entry.second:
                self.errors.append(
                    ResultRecordError(
                        self.path,
                        entry.line,
                        1,
                        "a player is paired with himself",
                        found=str(entry.first),
                        expected="two different ids",
                    )
                )
                continue
            kept.append(entry)
            for wof_id in (entry.first, entry.second):
                if wof_id is None:
                    continue
                # Warnings only: 2,066 archive files list no players at all, so a result
                # line's id stands on its own; and rounds come from free-form comments.
                if listed and wof_id not in listed:
                    self.warnings.append(
                        IngestWarning(
                            self.path,
                            entry.line,
                            1,
                            f"id {wof_id} plays but is not on a %_% player line",
                            found=str(wof_id),
                            expected="an id listed on a %_% line",
                        )
                    )
                if entry.round is not None:
                    key = (entry.round, wof_id)
                    if key in in_round:
                        self.warnings.append(
                            IngestWarning(
                                self.path,
                                entry.line,
                                1,
                                f"id {wof_id} plays twice in round {entry.round} "
                                f"(also on line {in_round[key]})",
                                found=str(wof_id),
                                expected="one game per player and round",
                            )
                        )
                    else:
                        in_round[key] = entry.line
        self.entries = kept


def parse_elo(path: Path, data: bytes | None = None) -> EloFile:
    """Read a ``.ELO`` file (from ``path``, or from ``data`` named by ``path``).

    :raises IngestError: when the header is missing or malformed, or no date can be found.
    Bad lines do not raise: they are listed in :attr:`EloFile.errors`.
    """
    decoded = read_text(path, data)
    reader = _Reader(str(path), decoded.lines)
    header = reader.header()
    reader.warnings.extend(decoded.warnings)
    named = parse_file_name(path.name)
    dated = parse_elo_date(header.date)
    if named is None and dated is None:
        raise IngestError(
            str(path),
            3,
            9,
            "no event date: neither the file name nor %%Date gives one",
            found=header.date,
            expected="'DD/MM/YYYY[ - DD/MM/YYYY]' or a file name 'YYYYMMDD_NAME.ELO'",
        )
    if dated is None:
        reader.warnings.append(
            IngestWarning(
                str(path),
                3,
                9,
                f"{_date_problem(header.date)}, using the file name's date",
                found=header.date,
                expected="'DD/MM/YYYY[ - DD/MM/YYYY]'",
            )
        )
    elif named is not None and named[0] != dated[0]:
        reader.warnings.append(
            IngestWarning(
                str(path),
                3,
                9,
                "%%Date does not start on the file name's date; using the file name's",
                found=header.date,
                expected=named[0].strftime("%d/%m/%Y"),
            )
        )
    reader.body()
    reader.validate()
    if named is not None:
        start, letter, name = named
    else:
        assert dated is not None
        start, letter, name = dated[0], "", path.stem
    end = dated[1] if dated is not None else None
    if end is not None and end < start:
        end = None
    return EloFile.model_construct(
        path=str(path),
        name=name,
        letter=letter,
        start=start,
        end=end,
        header=header,
        entries=tuple(reader.entries),
        encoding=decoded.encoding,
        warnings=tuple(reader.warnings),
        errors=tuple(reader.errors),
    )
