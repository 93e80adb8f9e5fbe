"""Reader for World Othello Federation result files (``.ELO``, formats.md §7).

The file is read into ordered entries (``ingest.elo.records``).  The reader is lenient where
the real archive needs it (free-form player fields, several games on one line, old result
lines without discs, trailing ``%`` comments) and strict elsewhere: a line that is none of
comment, player or result is *rejected* and reported as an :class:`~ingest.errors.IngestError`
in :attr:`EloFile.errors`; a file without its four header lines or without any date raises.
"""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path

from events.domain import Colour
from events.text import text_problem
from ingest.elo.records import (
    HEADER_KEYS,
    UNKNOWN_ID,
    EloComment,
    EloEntry,
    EloFile,
    EloGame,
    EloHeader,
    EloPlayer,
    Outcome,
)
from ingest.errors import IngestError, IngestWarning, ResultRecordError
from ingest.limits import MAX_RATING
from ingest.textio import read_text

__all__ = ["parse_elo", "parse_elo_date", "parse_file_name"]

_FILE_NAME = re.compile(r"(\d{8})([a-z]?)_(.+)\.elo", re.IGNORECASE)
_DATE = re.compile(r"(\d{1,2})/(\d{1,2})/(\d{4})")
_DATE_RANGE = re.compile(rf"{_DATE.pattern}(?:\s*-\s*{_DATE.pattern})?")
_ROUND = re.compile(r"round\s*:?\s*(\d+)", re.IGNORECASE)
_ADDED = re.compile(r"%+\s*added results", re.IGNORECASE)
_RATING = re.compile(r"-?\d+")
"""A WOF rating: whole, and negative for some weak players (95 archive files hold one)."""
_SCORE = re.compile(r"-?(?:\d+(?:\.\d*)?|\.\d+)")
_DISCS = re.compile(r"-?\d+")
_PLAYER_ID = re.compile(r"(\+?)\s*(\d+|\?+)")
# One game: ID [(discs)] glyph [(discs)] ID [colour]. Several may follow on one line.
_GAME = re.compile(
    r"[ \t]*(\d+|\?+)[ \t]*(?:\([ \t]*(\d+)[ \t]*\))?[ \t]*([<>=])[ \t]*"
    r"(?:\([ \t]*(\d+)[ \t]*\))?[ \t]*(\d+|\?+)(?:[ \t]+([BWbw])(?=[ \t%]|$))?[ \t]*"
)

# The enum members by the letters the game regex admits (a lookup is a tenth of a call).
_OUTCOMES = {outcome.value: outcome for outcome in Outcome}
_COLOURS = {letter: Colour(letter.lower()) for letter in "BWbw"}


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
        self.cut = False
        """The file does not end with a line end: maybe cut short (a transfer broken off)."""

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
        problem = self.field_problem(parts, number)
        if problem is not None:
            self.errors.append(problem)
            return
        fields = tuple(" ".join(part.split()) for part in parts[1:])
        player = EloPlayer(_id(token), match.group(1) == "+", fields, comment.strip(), number)
        self.entries.append(player)
        if player.rating is not None and player.rating < 0:
            self.warnings.append(
                IngestWarning(
                    self.path,
                    number,
                    1,
                    f"negative WOF rating {player.rating} registered as unrated",
                    found=str(player.rating),
                    expected=f"0 .. {MAX_RATING}",
                )
            )

    def field_problem(self, parts: list[str], number: int) -> IngestError | None:
        """A field the reader would otherwise rewrite or drop: a name holding a line or
        paragraph separator or another control character (whitespace is normalised, which
        made U+2028 a space), or a rating that is not a whole number within the limits
        (``1e308`` became "no rating")."""
        start = 3 + len(parts[0]) + 1
        columns = []
        for part in parts[1:]:
            columns.append(start)
            start += len(part) + 1
        for index, (part, column) in enumerate(zip(parts[1:3], columns, strict=False)):
            # A tab between words is whitespace, as real files write it; any other control
            # character is not.
            value = part.strip(" \t")
            # Characters only: the length is the limits' (on the whole name, ingest.limits).
            problem = text_problem(value.replace("\t", " "), limit=len(value))
            if problem is not None:
                field = ("name", "first name")[index]
                return IngestError(
                    self.path,
                    number,
                    column + 1 + len(part) - len(part.lstrip(" \t")),
                    f"{field} {problem}",
                    found=value[:30],
                    expected="a name without control characters or line separators",
                )
        if len(parts) >= 7:
            raw = parts[6].strip()
            score, discs = (" ".join(parts[i].split()) for i in (4, 5))
            papp = _SCORE.fullmatch(score) is not None and _DISCS.fullmatch(discs) is not None
            # A whole number beyond the limits is the limits' to refuse ("rating is out of
            # range", ingest.limits); here what is no whole number at all (1e308, 15.5, n/a).
            # A negative one is a WOF rating (a warning, below) unless beyond any scale.
            if (
                papp
                and raw not in ("", "-")
                and (
                    _RATING.fullmatch(raw) is None
                    or len(raw) > 40
                    or (raw.startswith("-") and int(raw) < -MAX_RATING)
                )
            ):
                return IngestError(
                    self.path,
                    number,
                    columns[5] + 1 + (len(parts[6]) - len(parts[6].lstrip())),
                    "bad rating (7th field)",
                    found=raw[:30],
                    expected=f"a whole number up to {MAX_RATING}, or '-' for none",
                )
        return None

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
                    _OUTCOMES[glyph],
                    int(d1) if d1 is not None else None,
                    int(d2) if d2 is not None else None,
                    _COLOURS[colour] if colour else None,
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
            if (
                self.cut
                and entry is self.entries[-1]
                and listed
                and not ({entry.first, entry.second} - {None} <= listed)
            ):
                self.errors.append(
                    ResultRecordError(
                        self.path,
                        entry.line,
                        1,
                        "the file ends inside this result line: cut short?",
                        found=self.lines[entry.line - 1].strip(),
                        expected="a complete file, its last game naming listed players",
                    )
                )
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
    raw = path.read_bytes() if data is None else data
    decoded = read_text(path, raw)
    reader = _Reader(str(path), decoded.lines)
    reader.cut = not raw.rstrip(b" \t\x1a").endswith((b"\n", b"\r"))
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
