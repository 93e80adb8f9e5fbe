"""Rendering of read-command results as text, JSON or CSV on stdout."""

from __future__ import annotations

import csv
import io
import json
import sys
from collections.abc import Sequence
from enum import StrEnum
from typing import Any

from projections.csv_safe import csv_cell


class Format(StrEnum):
    TEXT = "text"
    JSON = "json"
    CSV = "csv"


class PageFormat(StrEnum):
    """Formats of the published tables (standings, crosstables): the read formats plus HTML."""

    TEXT = "text"
    JSON = "json"
    CSV = "csv"
    HTML = "html"


def _flat(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, dict):
        if "name" in value:
            return str(value["name"])
        return " ".join(f"{k}={_flat(v)}" for k, v in value.items())
    return str(value)


def flatten(row: dict[str, Any]) -> dict[str, str]:
    """Nested objects become columns `parent.child` (tie-breaks) or a display name (players)."""
    out: dict[str, str] = {}
    for key, value in row.items():
        if isinstance(value, dict) and "name" not in value:
            for sub, v in value.items():
                out[sub if key == "tiebreaks" else f"{key}.{sub}"] = _flat(v)
        else:
            out[key] = _flat(value)
    return out


def render(rows: Sequence[dict[str, Any]], fmt: Format) -> str:
    if fmt is Format.JSON:
        return json.dumps(list(rows), ensure_ascii=False, indent=2) + "\n"
    flat = [flatten(r) for r in rows]
    columns: list[str] = []
    for r in flat:
        columns.extend(c for c in r if c not in columns)
    if fmt is Format.CSV:
        buf = io.StringIO()
        writer = csv.DictWriter(buf, fieldnames=columns, lineterminator="\n")
        writer.writeheader()
        writer.writerows({k: csv_cell(v) for k, v in r.items()} for r in flat)
        return buf.getvalue()
    if not flat:
        return "(none)\n"
    widths = {c: max(len(c), *(len(r.get(c, "")) for r in flat)) for c in columns}
    lines = ["  ".join(c.ljust(widths[c]) for c in columns).rstrip()]
    lines.extend("  ".join(r.get(c, "").ljust(widths[c]) for c in columns).rstrip() for r in flat)
    return "\n".join(lines) + "\n"


def emit(rows: Sequence[dict[str, Any]], fmt: Format) -> None:
    sys.stdout.write(render(rows, fmt))
