"""Reader for the French federation's ``.tou`` result files (formats.md §4).

Lines become the records of ``ingest.tou.records``; the cross table is checked as the h9
reader checks it (:func:`ingest.h9.reader.check_cross_table`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from ingest.errors import IngestError, ResultRecordError
from ingest.go_table.reader import check_cross_table
from ingest.go_table.records import GameResult, GoCell
from ingest.textio import read_text
from ingest.tou.records import (
    TouComment,
    TouEntry,
    TouFile,
    TouHeader,
    TouPlayer,
    parse_cell,
    parse_date,
)

__all__ = ["parse_tou"]

_HEADER = re.compile(r";([a-z]+)=(.*)")
_LEVEL = re.compile(r"\d{1,2}[kdpKDP]")
_LICENCE = re.compile(r"\d{7}|-{7}")
_TOKEN = re.compile(r"\S+")

_NO_GAME = GoCell(0, GameResult.LOSS)
"""``0-``: a round without a game."""


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
            cell = parse_cell(token)
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
            if (
                isinstance(entry, TouHeader)
                and entry.key == "date"
                and parse_date(entry.value) is None
            ):
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
