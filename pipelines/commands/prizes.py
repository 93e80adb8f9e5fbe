"""The prize list: read from a TOML file (``prizes.toml``) and set (the service around
`decide.prizes.set_prizes`).

The file is the `events.prizes.PrizeTable` model's fields (``docs/prizes.md``). A file that
cannot be read or a value the model refuses is one `BadLine`, ``FILE:LINE:COL: where: why``
(the line of the key when the file has it), and nothing is appended.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from decide import prizes as decide
from events.errors import NotFound
from events.prizes import PrizeTable
from events.store import Store
from pipelines.commands.base import CommandError, append, decided_again, load
from pipelines.commands.files import BadLine

__all__ = ["NoPrizeList", "checked", "parse_table", "read_table", "set_prizes"]


class NoPrizeList(CommandError, NotFound):
    """The tournament has no prize list yet (`arbiter prizes T set FILE`)."""


def _text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise BadLine(f"{path}: no such file") from None
    except IsADirectoryError:
        raise BadLine(f"{path}: a folder, not a file") from None
    except UnicodeDecodeError as exc:
        raise BadLine(f"{path}: not UTF-8 text (byte {exc.start})") from None


_HEADER = re.compile(r"^\s*\[\[?\s*([A-Za-z0-9_-]+)\s*\]?\]")


def _locate(text: str, loc: tuple[int | str, ...]) -> tuple[int, int]:
    """The line and column of the key at ``loc`` (``("prize", 1, "amount")``) in the TOML
    text, or of the table that holds it; ``(0, 0)`` when the file does not show it."""
    lines = text.splitlines()
    table: str | None = None
    count: dict[str, int] = {}
    array, index, key = (loc[0], loc[1], loc[2] if len(loc) > 2 else None) if (
        len(loc) > 1 and isinstance(loc[1], int)
    ) else (None, None, loc[0] if loc else None)  # fmt: skip
    found = (0, 0)
    for number, line in enumerate(lines, start=1):
        header = _HEADER.match(line)
        if header is not None:
            table = header.group(1)
            if array is None and table == key and found == (0, 0):
                found = (number, line.index("[") + 1)
            count[table] = count.get(table, 0) + 1
            if array is not None and table == array and count[table] - 1 == index:
                found = (number, line.index("[") + 1)
            continue
        inside = (table is None) if array is None else (
            table == array and count.get(table, 0) - 1 == index
        )  # fmt: skip
        match = re.match(rf"^(\s*){re.escape(str(key))}\s*=", line) if key is not None else None
        if inside and match is not None:
            return number, len(match.group(1)) + 1
    return found


def _where(loc: tuple[int | str, ...]) -> str:
    """``prize 2: amount`` for ``("prize", 1, "amount")``: entries counted from 1."""
    parts: list[str] = []
    for part in loc:
        if isinstance(part, int):
            parts[-1] = f"{parts[-1]} {part + 1}:"
        else:
            parts.append(part)
    return " ".join(parts).rstrip(":")


def read_table(path: Path) -> PrizeTable:
    """The prize list of a TOML file, validated."""
    return parse_table(_text(path), str(path))


def parse_table(text: str, source: str) -> PrizeTable:
    """The prize list of TOML ``text`` (a file's, or a form's field called ``source``),
    validated; a refusal names ``source:LINE:COL``."""
    try:
        data: dict[str, Any] = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        at = re.search(r"\(at line (\d+), column (\d+)\)", str(exc))
        line, col = at.groups() if at else ("0", "0")
        message = re.sub(r"\s*\(at .*\)$", "", str(exc))
        raise BadLine(f"{source}:{line}:{col}: {message}") from None
    return checked(data, source, text)


def checked(data: Mapping[str, Any], source: str, text: str = "") -> PrizeTable:
    """``data`` as a `PrizeTable`; the first value it refuses is a `BadLine` naming
    ``source`` (and the line of ``text`` the value is on)."""
    try:
        return PrizeTable.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        loc = tuple(first["loc"])
        message = str(first["msg"]).removeprefix("Value error, ")
        if first["type"] == "extra_forbidden":
            message = "unknown key (see docs/prizes.md)"
        elif first["type"] == "tuple_type" and loc in (("prize",), ("category",)):
            message = f"a list of tables: write [[{loc[0]}]] above each one"
        line, col = _locate(text, loc)
        where = _where(loc)
        place = f"{source}:{line}:{col}" if line else source
        raise BadLine(f"{place}: {where}: {message}" if where else f"{place}: {message}") from None


@decided_again
def set_prizes(store: Store, tournament_id: str, table: PrizeTable | Mapping[str, Any]) -> int:
    """Append the tournament's prize list (`decide.prizes.set_prizes`, replacing any earlier
    one); the number of prizes."""
    prizes = table if isinstance(table, PrizeTable) else checked(table, "prizes")
    loaded = load(store, tournament_id)
    append(store, loaded, decide.set_prizes(loaded.state, prizes))
    return len(prizes.prize)
