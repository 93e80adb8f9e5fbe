"""Reader for EGF/EGD tournament tables (``.h9``, formats.md §3).

The cross table is checked as every go table is (``ingest.go_table.reader``: opponent
numbers, symmetry, double pairings). Bad lines and inconsistent cells are collected in
:attr:`H9File.errors`; they never abort the read.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from events.go import Rank
from ingest.errors import IngestError
from ingest.go_table.reader import check_cross_table
from ingest.go_table.records import CELL_PATTERN, parse_cell
from ingest.h9.records import (
    H9Comment,
    H9Entry,
    H9File,
    H9Player,
    H9Tag,
    parse_dates,
)
from ingest.textio import read_text

__all__ = ["parse_h9"]

_TAG = re.compile(r";\s*([A-Z]{2})\[(.*)\]\s*")
_TOKEN = re.compile(r"\S+")
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?=?")
_CELL_LIKE = re.compile(r"\d+[-+=?][/!]\S*")
"""A token written as a result cell (opponent, symbol, separator): no criterion looks so."""


class _Reader:
    def __init__(self, path: str) -> None:
        self.path = path
        self.entries: list[H9Entry] = []
        self.errors: list[IngestError] = []
        self.rounds: int | None = None
        self.columns: dict[int, tuple[int, ...]] = {}
        self.seen = 0

    def error(self, line: int, column: int, message: str, found: str, expected: str) -> None:
        self.errors.append(IngestError(self.path, line, column, message, found, expected))

    def read(self, lines: Sequence[str]) -> None:
        for index, text in enumerate(lines):
            number = index + 1
            data, semicolon, comment = text.partition(";")
            if not data.strip():
                if semicolon:
                    tag = _TAG.fullmatch(text.strip())
                    if tag is not None:
                        self.entries.append(H9Tag(tag.group(1), tag.group(2), number))
                    else:
                        self.entries.append(H9Comment(text.rstrip(), number))
                continue
            self.player(data, comment.strip() if semicolon else "", number)

    def player(self, data: str, comment: str, line: int) -> None:
        # A rejected line still takes its number, so later opponents keep their meaning.
        self.seen += 1
        tokens = [(m.group(), m.start() + 1) for m in _TOKEN.finditer(data)]
        pin: str | None = None
        if tokens and tokens[-1][0].startswith("|"):
            pin = tokens.pop()[0][1:]
            if not pin.isdecimal():
                self.error(line, data.index("|") + 1, "bad EGD PIN", pin, "digits after '|'")
                return
        position = 0
        place: int | None = None
        if tokens and tokens[0][0].isdecimal():
            place = int(tokens[0][0])
            position = 1
        rank_at = next(
            (i for i in range(position + 1, len(tokens)) if Rank.parse(tokens[i][0]) is not None),
            None,
        )
        if rank_at is None or rank_at + 2 >= len(tokens):
            self.error(
                line,
                len(data.rstrip()) + 1,
                "truncated player line",
                data.strip()[:40],
                "'place Surname Firstname rank country club results...'",
            )
            return
        name = tuple(t for t, _ in tokens[position:rank_at])
        rest = tokens[rank_at + 3 :]
        # The results are the run of cells that ends at the last cell: criteria before it
        # may look like cells too (tie marks such as "154=" in EGD downloads).
        last = len(rest)
        while last > 0 and not CELL_PATTERN.fullmatch(rest[last - 1][0]):
            last -= 1
        first = last
        while first > 0 and CELL_PATTERN.fullmatch(rest[first - 1][0]):
            first -= 1
        if first == last:
            first = last = len(rest)
        for token, column in rest[:first]:
            # A cell the pattern cannot take (``2+/b12345``) would otherwise be read as a
            # criterion and its game dropped without a word.
            if _CELL_LIKE.fullmatch(token):
                self.error(line, column, "bad result cell", token, "e.g. '12+/w3' (handicap 0-99)")
                return
        for token, column in rest[last:]:
            # Placement columns after the results are numbers; anything else is a bad cell.
            if not _NUMBER.fullmatch(token):
                self.error(line, column, "unknown result code", token, "e.g. '12+/w3', '0='")
                return
        cells = tuple(c for c in (parse_cell(t) for t, _ in rest[first:last]) if c is not None)
        count = self.seen
        self.columns[count] = tuple(c for _, c in rest[first:last])
        self.entries.append(
            H9Player(
                number=count,
                place=place,
                name=name,
                rank=tokens[rank_at][0],
                country=tokens[rank_at + 1][0],
                club=tokens[rank_at + 2][0],
                criteria=tuple(t for t, _ in rest[:first]),
                results=cells,
                after=tuple(t for t, _ in rest[last:]),
                pin=pin,
                comment=comment,
                line=line,
            )
        )

    def validate(self) -> None:
        players = [e for e in self.entries if isinstance(e, H9Player)]
        self.rounds = max((len(p.results) for p in players), default=0)
        for player in players:
            if len(player.results) != self.rounds:
                self.error(
                    player.line,
                    0,
                    f"player {player.number} has {len(player.results)} result cells",
                    str(len(player.results)),
                    f"{self.rounds} (every line has one cell per round)",
                )
            if player.place is not None and player.place != player.number:
                self.error(
                    player.line,
                    1,
                    "place number out of order",
                    str(player.place),
                    f"{player.number} (the line's position)",
                )
        pins: dict[str, int] = {}
        for player in players:
            if player.pin is None:
                continue
            if player.pin in pins:
                self.error(
                    player.line,
                    0,
                    f"duplicate EGD PIN (also player {pins[player.pin]})",
                    player.pin,
                    "each PIN once",
                )
            else:
                pins[player.pin] = player.number
        self.errors.extend(
            check_cross_table(
                self.path,
                [(p.number, p.line, p.results, self.columns[p.number]) for p in players],
            )
        )


def _check_tags(path: str, entries: Sequence[H9Entry]) -> list[IngestError]:
    errors: list[IngestError] = []
    for entry in entries:
        if not isinstance(entry, H9Tag):
            continue
        if entry.key == "DT" and parse_dates(entry.value) is None:
            errors.append(
                IngestError(
                    path, entry.line, 1, "bad DT date", entry.value, "'YYYY-MM-DD[,YYYY-MM-DD]'"
                )
            )
        if entry.key == "HA" and re.fullmatch(r"[hH]\d", entry.value.strip()) is None:
            errors.append(IngestError(path, entry.line, 1, "bad HA tag", entry.value, "'h0'..'h9'"))
    return errors


def parse_h9(path: Path, data: bytes | None = None) -> H9File:
    """Read an h9 table (UTF-8, else ISO-8859-15 as OpenGotha writes)."""
    decoded = read_text(path, data, prefer="iso-8859-15")
    reader = _Reader(str(path))
    reader.read(decoded.lines)
    reader.validate()
    errors = _check_tags(str(path), reader.entries) + reader.errors
    return H9File.model_construct(
        path=str(path),
        entries=tuple(reader.entries),
        rounds=reader.rounds or 0,
        encoding=decoded.encoding,
        warnings=decoded.warnings,
        errors=tuple(errors),
    )
