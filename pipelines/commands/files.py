"""The file door: a field registered from a CSV file, a round's results from a text file.

Each line becomes the same input model the other doors use (`decide.inputs`) and
goes through the same command (`players.register_all`, `results.record`). The file is checked
whole first; one bad line refuses the file (FILE:LINE:COL and why, the field named as the CSV
column names it) and nothing is appended. A good file lands as one append.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from decide.inputs import PlayerInput
from events.errors import UserError, braced
from events.results import InvalidResult, ResultSyntaxError
from events.store import Store
from events.validate import InvalidField
from pipelines.commands import players, results
from pipelines.commands.results import Entered

__all__ = ["COLUMNS", "BadLine", "import_players", "record_results"]

COLUMNS: tuple[str, ...] = tuple(PlayerInput.model_fields)
"""The CSV header's columns: the registration's fields; ``name`` is required."""
REQUIRED = frozenset(n for n, f in PlayerInput.model_fields.items() if f.is_required())


class BadLine(UserError):
    """A line of a bulk file that cannot be taken; the file is refused whole."""


@dataclass(frozen=True, slots=True)
class Where:
    """A line of a file, and the column of each field on it."""

    path: str
    line: int
    columns: dict[str, int]

    def __str__(self) -> str:
        return f"line {self.line}"

    def error(self, column: int, message: str) -> BadLine:
        return BadLine(f"{self.path}:{self.line}:{column}: {message}")

    def refused(self, exc: UserError) -> BadLine:
        """``exc`` located on this line, at the column of the field it is about. A field of the
        line is named as the file names it (its column); a flag the command takes (such as
        ``correct``) as the door that runs the command says it."""
        fields: tuple[str, ...] = ()
        if isinstance(exc, InvalidField):
            field, (template, named) = exc.field, exc.template()
            # The field is the line's (its column's name); a flag it names besides
            # (``not_on_list``) is the command's, said as the door says it.
            fields = named[1:]
            template = _PLACE.sub(
                lambda m: braced(field) if m[1] == "0" else f"{{{int(m[1]) - 1}}}", template
            )
        else:
            field = "result" if isinstance(exc, ResultSyntaxError | InvalidResult) else "board"
            template, fields = exc.template()
        column = self.columns.get(field, 1)
        return BadLine.naming(f"{braced(f'{self.path}:{self.line}:{column}')}: {template}", *fields)


_PLACE = re.compile(r"(?<!\{)\{(\d+)\}")
"""A field's place in a `naming` template (``{0}``; ``{{0}}`` is literal text)."""


def _located(where: Where, exc: UserError) -> UserError:
    return where.refused(exc)


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise BadLine(f"{path}: no such file") from None
    except UnicodeDecodeError as exc:
        raise BadLine(f"{path}: not UTF-8 text (byte {exc.start})") from None


def _rows(path: Path) -> list[tuple[dict[str, Any], Where]]:
    """The CSV's rows as registration fields, with each field's column for messages."""
    reader = csv.reader(io.StringIO(_read(path)))
    header = next(reader, None)
    if not header:
        raise BadLine(f"{path}:1:1: empty file; expected a header such as name,rating,federation")
    names = [h.strip().lower().replace("-", "_").replace(" ", "_") for h in header]
    for i, h in enumerate(names, start=1):
        if h not in COLUMNS:
            raise BadLine(
                f"{path}:1:{i}: unknown column '{header[i - 1]}' (known: {', '.join(COLUMNS)})"
            )
    ids = [source.field for source in players.LIST_SOURCES]
    if "name" not in names and not any(i in names for i in ids):
        raise BadLine(
            f"{path}:1:1: the header has no 'name' column (nor {', '.join(map(repr, ids))})"
        )
    rows = []
    for row in reader:
        if not any(row):  # a blank line; a line of blanks is a row (its name is empty)
            continue
        columns = {h: col for col, h in enumerate(names, start=1)}
        where = Where(str(path), reader.line_num, columns)
        if len(row) != len(names):
            raise where.error(1, f"{len(row)} fields, the header has {len(names)}")
        fields = {
            h: cell.strip()
            for h, cell in zip(names, row, strict=True)
            if cell.strip() or h in REQUIRED  # an empty required cell is refused as empty
        }
        rows.append((fields, where))
    return rows


def import_players(
    store: Store,
    tournament_id: str,
    path: Path,
    *,
    force: bool = False,
    not_on_list: bool = False,
) -> list[int]:
    """Register every row of a CSV file; returns the new players' ids. A row with a
    ``fide_id``, ``egd_pin`` or ``aga_id`` and no name is completed from the imported list
    (`players.from_list`)."""
    rows = _rows(path)
    return players.register_all(
        store,
        tournament_id,
        list(rows),
        force=force,
        not_on_list=not_on_list,
        command="player import",
        located=_located,
    )


def record_results(
    store: Store, tournament_id: str, round_no: int, path: Path, *, correct: bool = False
) -> int:
    """Enter a round's results from lines ``BOARD RESULT`` (``#`` starts a comment)."""
    entries: list[tuple[dict[str, Any], Where]] = []
    for number, raw in enumerate(_read(path).splitlines(), start=1):
        text = raw.split("#", 1)[0]
        words = text.split()
        if not words:
            continue
        col = len(text) - len(text.lstrip()) + 1
        where = Where(str(path), number, {"board": col, "round": col})
        if len(words) != 2:
            raise where.error(col, f"expected 'BOARD RESULT', found '{text.strip()}'")
        board_text, result_text = words  # N or M.B: checked once, by ResultInput
        where.columns["result"] = text.index(result_text, col - 1 + len(board_text)) + 1
        entries.append(
            ({"round": round_no, "board": board_text, "result": result_text, "correct": correct},
             where)
        )  # fmt: skip
    done: list[Entered] = results.record(
        store, tournament_id, entries, command="results", located=_located
    )
    return len(done)
