"""Reader for the French federation's ``.tou`` result files (formats.md §4).

Header ``;key=value`` lines, then one line per player: number, ``SURNAME Firstname``, level,
7-digit FFG licence (``-------`` or blank when none), club, and per round ``opp`` + ``+|-|=``
+ ``b|w`` + handicap, or ``0=``/``0+``/``0-``. Cells share the h9 model
(:class:`ingest.h9.GoCell`) and the cross-table checks.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from ingest.errors import IngestError, IngestWarning, ResultRecordError
from ingest.h9 import GameResult, GoCell, Rank, StoneColour, check_cross_table, name_parts
from ingest.textio import read_text

__all__ = ["TouComment", "TouEntry", "TouFile", "TouHeader", "TouPlayer", "parse_tou"]


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
        return None if value is None else _date(value)

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


def _date(value: str) -> date | None:
    try:
        return datetime.strptime(value.strip(), "%d/%m/%Y").date()  # noqa: DTZ007 - a day
    except ValueError:
        return None


_HEADER = re.compile(r";([a-z]+)=(.*)")
_LEVEL = re.compile(r"\d{1,2}[kdpKDP]")
_LICENCE = re.compile(r"\d{7}|-{7}")
_CELL = re.compile(r"(\d+)([-+=?])([bwBW])?(\d{1,2})?")
_TOKEN = re.compile(r"\S+")


_NO_GAME = GoCell(0, GameResult.LOSS)
"""``0-``: a round without a game."""


def _cell(token: str) -> GoCell | None:
    match = _CELL.fullmatch(token)
    if match is None:
        return None
    opponent, symbol, colour, handicap = match.groups()
    return GoCell(
        int(opponent),
        GameResult(symbol),
        StoneColour(colour.lower()) if colour else None,
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


class _Reader:
    def __init__(self, path: str) -> None:
        self.path = path
        self.entries: list[TouEntry] = []
        self.errors: list[IngestError] = []
        self.columns: dict[int, tuple[int, ...]] = {}

    def read(self, lines: Sequence[str]) -> None:
        for index, text in enumerate(lines):
            number = index + 1
            if not text.strip():
                continue
            if text.lstrip().startswith(";"):
                header = _HEADER.fullmatch(text.strip())
                if header is not None:
                    self.entries.append(TouHeader(header.group(1), header.group(2), number))
                else:
                    self.entries.append(TouComment(text.rstrip(), number))
                continue
            self.player(text, number)

    def player(self, text: str, line: int) -> None:
        tokens = [(m.group(), m.start() + 1) for m in _TOKEN.finditer(text)]
        if not tokens[0][0].isdecimal():
            self.errors.append(
                IngestError(
                    self.path, line, tokens[0][1], "bad player number", tokens[0][0], "digits"
                )
            )
            return
        level_at = next((i for i in range(2, len(tokens)) if _LEVEL.fullmatch(tokens[i][0])), None)
        if level_at is None or level_at + 1 >= len(tokens):
            self.errors.append(
                IngestError(
                    self.path,
                    line,
                    len(text.rstrip()) + 1,
                    "truncated player line",
                    text.strip()[:40],
                    "'num SURNAME Firstname level licence club results...'",
                )
            )
            return
        at = level_at + 1
        licence: str | None = None
        if _LICENCE.fullmatch(tokens[at][0]):
            licence = None if tokens[at][0].startswith("-") else tokens[at][0]
            at += 1
        if at >= len(tokens):
            self.errors.append(
                IngestError(self.path, line, len(text.rstrip()) + 1, "missing club", "", "club")
            )
            return
        club = tokens[at][0]
        cells: list[GoCell] = []
        for token, column in tokens[at + 1 :]:
            cell = _cell(token)
            if cell is None:
                self.errors.append(
                    ResultRecordError(
                        self.path, line, column, "unknown result code", token, "e.g. '9+b0', '0='"
                    )
                )
                # The row stays (as a round without a game there), so that its other cells
                # and the rows that name it are checked as they are.
                cell = _NO_GAME
            cells.append(cell)
        number = int(tokens[0][0])
        self.columns[number] = tuple(c for _, c in tokens[at + 1 :])
        self.entries.append(
            TouPlayer(
                number,
                tuple(t for t, _ in tokens[1:level_at]),
                tokens[level_at][0],
                licence,
                club,
                tuple(cells),
                line,
            )
        )

    def validate(self) -> int:
        players = [e for e in self.entries if isinstance(e, TouPlayer)]
        rounds = max((len(p.results) for p in players), default=0)
        numbers: dict[int, int] = {}
        licences: dict[str, int] = {}
        for player in players:
            if len(player.results) != rounds:
                self.errors.append(
                    IngestError(
                        self.path,
                        player.line,
                        0,
                        f"player {player.number} has {len(player.results)} result cells",
                        str(len(player.results)),
                        f"{rounds} (one cell per round)",
                    )
                )
            if player.number in numbers:
                self.errors.append(
                    IngestError(
                        self.path,
                        player.line,
                        1,
                        f"duplicate player number (also on line {numbers[player.number]})",
                        str(player.number),
                        "each number once",
                    )
                )
            numbers.setdefault(player.number, player.line)
            if player.licence is not None:
                if player.licence in licences:
                    self.errors.append(
                        IngestError(
                            self.path,
                            player.line,
                            0,
                            f"duplicate FFG licence (also player {licences[player.licence]})",
                            player.licence,
                            "each licence once",
                        )
                    )
                licences.setdefault(player.licence, player.number)
        for entry in self.entries:
            if isinstance(entry, TouHeader) and entry.key == "date" and _date(entry.value) is None:
                self.errors.append(
                    IngestError(self.path, entry.line, 7, "bad date", entry.value, "'dd/mm/yyyy'")
                )
        self.errors.extend(
            check_cross_table(
                self.path,
                [(p.number, p.line, p.results, self.columns[p.number]) for p in players],
            )
        )
        return rounds


def parse_tou(path: Path, data: bytes | None = None) -> TouFile:
    """Read a .tou file (ISO-8859-15 by convention; UTF-8 is recognised)."""
    decoded = read_text(path, data, prefer="iso-8859-15")
    reader = _Reader(str(path))
    reader.read(decoded.lines)
    rounds = reader.validate()
    return TouFile.model_construct(
        path=str(path),
        entries=tuple(reader.entries),
        rounds=rounds,
        encoding=decoded.encoding,
        warnings=decoded.warnings,
        errors=tuple(reader.errors),
    )
