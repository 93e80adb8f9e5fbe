"""Bulk director commands: a field registered from a CSV file, a round's results from a text
file. Each file is checked whole first; one bad line refuses the file (FILE:LINE:COL and
why) and nothing is appended. A good file lands as one append.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from events.errors import UserError
from events.provenance import current_origin
from events.results import Result
from events.schema import PlayerRegistered, ResultCorrected, ResultRecorded
from events.store import NewEvent, Store
from pipelines import commands
from pipelines.game_checks import check_result, game_fields

__all__ = ["COLUMNS", "BadLine", "import_players", "record_results"]

COLUMNS: dict[str, tuple[str, type]] = {
    "name": ("name", str),
    "rating": ("rating", int),
    "federation": ("federation", str),
    "fide_id": ("fide_id", str),
    "title": ("title", str),
    "club": ("club", str),
    "rank": ("rank", str),
    "aga_rating": ("aga_rating", float),
    "birth": ("birth", str),
    "sex": ("sex", str),
    "seed": ("pairing_number", int),
}
"""CSV header -> registration field and its type; ``name`` is required."""


class BadLine(UserError):
    """A line of a bulk file that cannot be taken; the file is refused whole."""


@dataclass(frozen=True, slots=True)
class Where:
    path: str
    line: int

    def error(self, column: int, message: str) -> BadLine:
        return BadLine(f"{self.path}:{self.line}:{column}: {message}")


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise BadLine(f"{path}: no such file") from None
    except UnicodeDecodeError as exc:
        raise BadLine(f"{path}: not UTF-8 text (byte {exc.start})") from None


def _rows(path: Path) -> list[tuple[Where, dict[str, Any], dict[str, int]]]:
    """The CSV's rows as registration fields, with each field's column for messages."""
    text = _read(path)
    reader = csv.reader(io.StringIO(text))
    header = next(reader, None)
    if not header:
        raise BadLine(f"{path}:1:1: empty file; expected a header such as name,rating,federation")
    names = [h.strip().lower().replace("-", "_").replace(" ", "_") for h in header]
    for i, h in enumerate(names, start=1):
        if h not in COLUMNS:
            raise BadLine(
                f"{path}:1:{i}: unknown column '{header[i - 1]}' (known: {', '.join(COLUMNS)})"
            )
    if "name" not in names:
        raise BadLine(f"{path}:1:1: the header has no 'name' column")
    rows = []
    for row in reader:
        where = Where(str(path), reader.line_num)
        if not any(cell.strip() for cell in row):
            continue
        if len(row) != len(names):
            raise where.error(1, f"{len(row)} fields, the header has {len(names)}")
        fields: dict[str, Any] = {}
        columns: dict[str, int] = {}
        for col, (h, cell) in enumerate(zip(names, row, strict=True), start=1):
            value = cell.strip()
            if not value:
                continue
            field, kind = COLUMNS[h]
            try:
                fields[field] = kind(value)
            except ValueError:
                raise where.error(col, f"{h} '{value}' is not a {kind.__name__}") from None
            columns[field] = col
        if "name" not in fields:
            raise where.error(names.index("name") + 1, "empty name")
        rows.append((where, fields, columns))
    return rows


def import_players(store: Store, tournament_id: str, path: Path) -> list[int]:
    """Register every row of a CSV file; returns the new players' ids."""
    loaded = commands.load(store, tournament_id)
    state = loaded.state
    rows = _rows(path)
    events: list[PlayerRegistered] = []
    next_id = max(state.players, default=0) + 1
    seeds = {p.pairing_number for p in state.players.values() if p.pairing_number}
    for where, fields, columns in rows:
        try:
            checked = game_fields(state, fields)
        except UserError as exc:
            field = next((f for f in ("rank", "aga_rating", "pairing_number") if f in str(exc)), "")
            raise where.error(columns.get(field, 1), str(exc)) from None
        seed = checked.get("pairing_number")
        if seed is not None:
            if seed in seeds:
                raise where.error(columns["pairing_number"], f"seed {seed} is given twice")
            seeds.add(seed)
        try:
            events.append(PlayerRegistered(player=next_id, **checked))
        except ValidationError as exc:
            first = exc.errors()[0]
            field = str(first["loc"][0]) if first["loc"] else "name"
            raise where.error(columns.get(field, 1), f"{field}: {first['msg']}") from None
        next_id += 1
    if state.rounds and state.system.value == "roundrobin":
        raise commands.CommandError(
            f"{tournament_id}: a round robin's field is fixed once round 1 is paired"
        )
    if events:
        metadata = current_origin().metadata(command="player import")
        store.append(
            loaded.stream_id, [NewEvent(e, metadata=metadata) for e in events], loaded.version
        )
    return [e.player for e in events]


def record_results(
    store: Store, tournament_id: str, round_no: int, path: Path, *, correct: bool = False
) -> int:
    """Enter a round's results from lines ``BOARD RESULT`` (``#`` starts a comment)."""
    loaded = commands.load(store, tournament_id)
    state = loaded.state
    rnd = state.rounds.get(round_no)
    if rnd is None:
        raise commands.CommandError(
            f"{tournament_id}: round {round_no} is not paired yet "
            f"(last paired round: {state.last_round or 'none'})"
        )
    events: list[ResultRecorded | ResultCorrected] = []
    seen: dict[int, int] = {}
    for number, raw in enumerate(_read(path).splitlines(), start=1):
        where = Where(str(path), number)
        text = raw.split("#", 1)[0]
        words = text.split()
        if not words:
            continue
        col = len(text) - len(text.lstrip()) + 1
        if len(words) != 2:
            raise where.error(col, f"expected 'BOARD RESULT', found '{text.strip()}'")
        board_text, result_text = words
        rcol = text.index(result_text, col - 1 + len(board_text)) + 1
        if not board_text.isdigit():
            raise where.error(col, f"board '{board_text}' is not a number")
        board_no = int(board_text)
        board = rnd.board(board_no)
        if board is None:
            raise where.error(
                col, f"round {round_no} has no board {board_no} (boards 1..{len(rnd.boards)})"
            )
        if board_no in seen:
            raise where.error(col, f"board {board_no} is also on line {seen[board_no]}")
        seen[board_no] = number
        if board.black is None:
            raise where.error(col, f"board {board_no} is a bye; it needs no result")
        try:
            parsed = Result.parse(result_text, state.game)
            check_result(state.game, parsed, board.komi, result_text)
        except UserError as exc:
            raise where.error(rcol, str(exc)) from None
        known = board.outcome if board.outcome is not None and board.outcome.is_known else None
        if known is not None and not correct:
            raise where.error(
                rcol, f"board {board_no} already has result {known.value}; use --correct"
            )
        kind = ResultRecorded if known is None else ResultCorrected
        events.append(
            kind(
                round=round_no,
                board=board_no,
                outcome=parsed.outcome,
                white_score=parsed.white_score,
                black_score=parsed.black_score,
            )
        )
    if events:
        metadata = current_origin().metadata(command="results")
        store.append(
            loaded.stream_id, [NewEvent(e, metadata=metadata) for e in events], loaded.version
        )
    return len(events)
