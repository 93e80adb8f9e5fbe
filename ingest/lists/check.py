"""Every value of a list's rows held to its field's rule, column by column (polars).

A reader turns its file into a frame of raw text columns (one row per player, None where the
file has nothing) and describes each column with a `Spec`; `check` gives the typed columns and
the rows that break a rule, each with the first field it breaks and a one-line reason. The
reader knows where each field is in the file and turns a `Bad` into a `ListRowError` there
(FILE:LINE:COL).

The test of a whole column is vectorised; the reason for a refused value is worked out again in
Python (`problem`), only for the few values refused.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import polars as pl

from events.text import BAD_CHARACTERS, text_problem
from ingest.lists.limits import MAX_ID_LENGTH, MAX_TEXT

__all__ = ["Bad", "FieldType", "Spec", "check", "problem"]

FieldType = Literal["id", "text", "code", "int", "float", "year", "date"]

_CONTROL = f"[{BAD_CHARACTERS}]"
"""What free text may not hold: `events.text`'s one rule (controls, bidirectional overrides)."""
_INTEGER = r"^[+-]?[0-9]+$"
_DECIMAL = r"^[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)$"
_DATE_FORMATS = ("%Y-%m-%d", "%m/%d/%Y", "%m-%d-%Y")


@dataclass(frozen=True, slots=True)
class Spec:
    """One raw column and its rule."""

    name: str
    """The raw column (and the typed column `check` gives)."""
    type: FieldType
    label: str
    """What a message calls the field: ``rating``, ``FIDE id``."""
    required: bool = False
    pattern: str | None = None
    """``id`` and ``code``: the whole value must match (default for an id: digits)."""
    expected: str = ""
    """What the field holds, in words, for a message."""
    low: float | None = None
    high: float | None = None
    none: tuple[str, ...] = ()
    """Raw values that mean "nothing" (FIDE's birth year ``0``)."""

    def expectation(self) -> str:
        if self.expected:
            return self.expected
        if self.low is not None and self.high is not None:
            kind = "a whole number" if self.type in ("int", "year") else "a number"
            return f"{kind} {self.low:g} .. {self.high:g}"
        return {"id": "digits", "date": "a date", "text": "text"}.get(self.type, "a value")


@dataclass(frozen=True, slots=True)
class Bad:
    """A refused row: its index in the raw frame, the first field it breaks, and why."""

    row: int
    spec: Spec
    message: str
    found: str | None
    expected: str | None


def _blank(spec: Spec) -> pl.Expr:
    """The raw value without surrounding white space; None when that leaves nothing, or one
    of the spec's values meaning nothing."""
    value = pl.col(spec.name).str.strip_chars()
    empty = value == ""
    for none in spec.none:
        empty = empty | (value == none)
    return pl.when(empty).then(None).otherwise(value).alias(spec.name)


def _typed(spec: Spec) -> tuple[pl.Expr, pl.Expr]:
    """(typed value, refused?) of one column of blank-normalised values (`_blank`)."""
    value = pl.col(spec.name)
    if spec.type in ("text", "id", "code"):
        pattern = spec.pattern or (r"^[0-9]+$" if spec.type == "id" else None)
        limit = MAX_ID_LENGTH if spec.type == "id" else MAX_TEXT
        bad = value.str.len_chars() > limit
        # A pattern admits no control character: the test for one is for free text only.
        bad = bad | (
            value.str.contains(_CONTROL) if pattern is None else ~value.str.contains(pattern)
        )
        return value, bad
    if spec.type in ("int", "year"):
        number = value.cast(pl.Int64, strict=False)
        bad = number.is_null()
        if spec.type == "year":
            bad = bad | (value.str.len_chars() != 4)
    elif spec.type == "float":
        number = value.cast(pl.Float64, strict=False)
        bad = number.is_null() | ~number.is_finite()
    else:
        number = pl.coalesce(*(value.str.to_date(f, strict=False) for f in _DATE_FORMATS))
        return number, value.is_not_null() & number.is_null()
    if spec.low is not None:
        bad = bad | (number < spec.low)
    if spec.high is not None:
        bad = bad | (number > spec.high)
    return number, value.is_not_null() & bad


def check(raw: pl.DataFrame, specs: Sequence[Spec]) -> tuple[pl.DataFrame, list[Bad]]:
    """The typed columns of ``raw`` (one per spec, None where a value is empty or refused) and
    its refused rows, in row order (`Bad`)."""
    blank = raw.select(_blank(spec) for spec in specs)
    typed = []
    flags = []
    for spec in specs:
        value, bad = _typed(spec)
        if spec.required:
            bad = pl.col(spec.name).is_null() | bad
        typed.append(value.alias(spec.name))
        flags.append(bad.fill_null(value=False).alias(spec.name))
    out = blank.select(typed)
    names = [pl.col(spec.name) for spec in specs]
    flagged = blank.select(flags).with_row_index("_row").filter(pl.any_horizontal(names))
    found: list[Bad] = []
    for row in flagged.iter_rows(named=True):
        index = int(row["_row"])
        for spec in specs:
            if not row[spec.name]:
                continue
            value = raw.item(index, spec.name)
            reason = problem(spec, value) or (f"bad {spec.label}", spec.expectation())
            shown = value if value is not None and value.strip() else None
            found.append(Bad(index, spec, reason[0], shown, reason[1]))
            break
    return out, found


def problem(spec: Spec, raw: str | None) -> tuple[str, str] | None:
    """Why ``raw`` breaks ``spec``'s rule, and what was expected; None when it does not."""
    value = (raw or "").strip()
    if not value or value in spec.none:
        return (f"{spec.label} is missing", spec.expectation()) if spec.required else None
    if spec.type in ("text", "id", "code"):
        limit = MAX_ID_LENGTH if spec.type == "id" else MAX_TEXT
        text = text_problem(value, limit)
        if text is not None:
            return f"{spec.label} {text}", spec.expectation()
        pattern = spec.pattern or (r"^[0-9]+$" if spec.type == "id" else None)
        if pattern is not None and not re.search(pattern, value):
            return f"bad {spec.label}", spec.expectation()
        return None
    if spec.type == "date":
        for f in _DATE_FORMATS:
            try:
                dt.datetime.strptime(value, f)  # noqa: DTZ007 (a calendar date, no time)
            except ValueError:
                continue
            return None
        return f"bad {spec.label}", spec.expectation()
    pattern = _DECIMAL if spec.type == "float" else _INTEGER
    if not re.search(pattern, value) or (spec.type == "year" and len(value) != 4):
        return f"bad {spec.label}", spec.expectation()
    number = float(value)
    if (spec.low is not None and number < spec.low) or (
        spec.high is not None and number > spec.high
    ):
        return f"{spec.label} out of range", spec.expectation()
    if spec.type != "float" and abs(int(value)) > 2**63 - 1:
        return f"{spec.label} out of range", spec.expectation()
    return None
