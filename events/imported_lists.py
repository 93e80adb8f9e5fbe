"""Imported rating lists: what a federation published (FIDE, EGD, AGA, a national list) as the
rating officer imported it (``arbiter ratings import``), and the reads other commands make of it.

Each import is a ``RatingListImported`` event in the stream ``ratinglists`` (`STREAM`): the
list's name (``fide-standard``, ``fide-rapid``, ``fide-blitz``, ``egd``, ``aga``, or a national
list's own), its date, the source file and its SHA-256, the counts. The rows are in the store's
``rating_list_rows`` table (`events.columns.LIST_ROW_COLUMNS`), written in the same transaction
as the event and keyed by (list, date, player id), so a 1.2-million-player list is read back as
one indexed table scan, and one player as one indexed row, on DuckDB and PostgreSQL alike.

One list per name and date: importing the same file again is a no-op, another file for the same
name and date replaces the rows only when asked (the new event's ``replaces`` names the old
file). The *current* import of a (name, date) is its latest event.

Each kind of list has its own columns (`KINDS`), stored in the shared table's columns:

* ``fide``: ``player_id`` (the FIDE id, text), ``name``, ``federation`` (stored in
  ``country``), ``sex``, ``title``, ``birth_year``, ``rating``, ``games``, ``k``, ``flag``;
* ``egd``: ``player_id`` (the EGD PIN), ``name``, ``country``, ``club``, ``grade`` (the rank
  as the list writes it, ``5d``), ``gor`` (stored in ``rating``);
* ``aga``: ``player_id`` (the AGA id), ``name``, ``rating`` (stones, a float), ``club``,
  ``expires`` (the membership's end), ``membership`` (Full, Youth, Forgn ...: stored in
  ``flag``), ``state`` (stored in ``country``);
* ``national``: ``player_id``, ``name``, ``federation`` (in ``country``), ``rating``, ``sex``,
  ``title``, ``birth_year``, ``games``, ``k``, ``flag``, ``club``.

The reads (`imported_lists`, `latest_list`, `lookup`) never change the store. `lookup` reads
one row through the table's key, without loading the list.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Literal

from events.schema import RatingListImported

if TYPE_CHECKING:
    import polars as pl

    from events.store import Store

__all__ = [
    "FIDE_LISTS",
    "KINDS",
    "STREAM",
    "Column",
    "ImportedList",
    "Kind",
    "ListImport",
    "ListedPlayer",
    "current_imports",
    "from_table",
    "imported_lists",
    "kind_schema",
    "latest_list",
    "latest_list_import",
    "lookup",
    "rows_digest",
    "to_table",
    "verify_rows",
]

STREAM = "ratinglists"
"""The federation stream of every import."""

FIDE_LISTS = {"standard": "fide-standard", "rapid": "fide-rapid", "blitz": "fide-blitz"}
"""The FIDE lists by rating type: one list per type, as FIDE publishes them."""


class Kind(StrEnum):
    """Which columns a list's rows have (`KINDS`)."""

    FIDE = "fide"
    EGD = "egd"
    AGA = "aga"
    NATIONAL = "national"


ColumnType = Literal["str", "int", "float", "date"]


@dataclass(frozen=True, slots=True)
class Column:
    """A column of a kind of list: its name, the table column holding it, its type."""

    name: str
    stored: str
    type: ColumnType


def _columns(*spec: tuple[str, str, ColumnType]) -> tuple[Column, ...]:
    return tuple(Column(*entry) for entry in spec)


KINDS: dict[Kind, tuple[Column, ...]] = {
    Kind.FIDE: _columns(
        ("player_id", "player_id", "str"),
        ("name", "name", "str"),
        ("federation", "country", "str"),
        ("sex", "sex", "str"),
        ("title", "title", "str"),
        ("birth_year", "birth_year", "int"),
        ("rating", "rating", "int"),
        ("games", "games", "int"),
        ("k", "k", "int"),
        ("flag", "flag", "str"),
    ),
    Kind.EGD: _columns(
        ("player_id", "player_id", "str"),
        ("name", "name", "str"),
        ("country", "country", "str"),
        ("club", "club", "str"),
        ("grade", "grade", "str"),
        ("gor", "rating", "int"),
    ),
    Kind.AGA: _columns(
        ("player_id", "player_id", "str"),
        ("name", "name", "str"),
        ("rating", "rating", "float"),
        ("club", "club", "str"),
        ("expires", "expires", "date"),
        ("membership", "flag", "str"),
        ("state", "country", "str"),
    ),
    Kind.NATIONAL: _columns(
        ("player_id", "player_id", "str"),
        ("name", "name", "str"),
        ("federation", "country", "str"),
        ("rating", "rating", "int"),
        ("sex", "sex", "str"),
        ("title", "title", "str"),
        ("birth_year", "birth_year", "int"),
        ("games", "games", "int"),
        ("k", "k", "int"),
        ("flag", "flag", "str"),
        ("club", "club", "str"),
    ),
}
"""Each kind's columns, in order (the module's table)."""


def _dtype(kind: ColumnType) -> pl.DataType:
    import polars as pl

    types: dict[ColumnType, pl.DataType] = {
        "str": pl.String(),
        "int": pl.Int32(),
        "float": pl.Float64(),
        "date": pl.Date(),
    }
    return types[kind]


def kind_schema(kind: Kind) -> dict[str, pl.DataType]:
    """The polars schema of a kind's rows."""
    return {c.name: _dtype(c.type) for c in KINDS[kind]}


def to_table(kind: Kind, list_name: str, list_date: dt.date, rows: pl.DataFrame) -> pl.DataFrame:
    """A kind's rows as rows of the table (LIST_ROW_COLUMNS), sorted by player id."""
    import polars as pl

    from events.columns import LIST_ROW_COLUMNS

    stored = {c.stored: c.name for c in KINDS[kind]}
    columns = []
    for name, dtype in LIST_ROW_COLUMNS.items():
        if name == "list_name":
            columns.append(pl.lit(list_name, dtype=dtype).alias(name))
        elif name == "list_date":
            columns.append(pl.lit(list_date, dtype=dtype).alias(name))
        elif name in stored:
            columns.append(pl.col(stored[name]).cast(dtype).alias(name))
        else:
            columns.append(pl.lit(None, dtype=dtype).alias(name))
    return rows.select(columns).sort("player_id")


def from_table(kind: Kind, rows: pl.DataFrame) -> pl.DataFrame:
    """Rows of the table as a kind's rows (its columns, names and types)."""
    import polars as pl

    return rows.select(pl.col(c.stored).cast(_dtype(c.type)).alias(c.name) for c in KINDS[kind])


def rows_digest(table_rows: pl.DataFrame) -> str:
    """The SHA-256 of a list's table rows (LIST_ROW_COLUMNS, sorted by player id) as CSV:
    what its event records, and what `verify_rows` recomputes from the store."""
    from events.columns import LIST_ROW_COLUMNS

    digest = hashlib.sha256(",".join(LIST_ROW_COLUMNS).encode())
    step = 200_000
    for start in range(0, table_rows.height, step):
        part = table_rows.slice(start, step).select(list(LIST_ROW_COLUMNS))
        digest.update(part.write_csv(include_header=False).encode())
    return digest.hexdigest()


# --------------------------------------------------------------------------- reads


@dataclass(frozen=True, slots=True)
class ListImport:
    """One import of a list, as its event records it."""

    list_name: str
    kind: Kind
    list_date: dt.date
    source: str
    source_format: str
    source_sha256: str
    players: int
    skipped: int
    rows_sha256: str
    replaces: str | None
    position: int
    recorded_at: dt.datetime
    actor: str | None
    current: bool
    """The latest import of its (list, date): its rows are the ones in the store."""


def imported_lists(store: Store) -> list[ListImport]:
    """Every import, in log order; ``current`` marks the one whose rows the store holds."""
    found: list[ListImport] = []
    for recorded in store.read_stream(STREAM):
        event = recorded.event
        if not isinstance(event, RatingListImported):
            continue
        found.append(
            ListImport(
                list_name=event.list_name,
                kind=Kind(event.kind),
                list_date=event.list_date,
                source=event.source,
                source_format=event.source_format,
                source_sha256=event.source_sha256,
                players=event.players,
                skipped=event.skipped,
                rows_sha256=event.rows_sha256,
                replaces=event.replaces,
                position=recorded.position,
                recorded_at=recorded.recorded_at,
                actor=recorded.meta.get("actor"),
                current=False,
            )
        )
    latest = {(i.list_name, i.list_date): n for n, i in enumerate(found)}
    return [
        _replace_current(i, latest[(i.list_name, i.list_date)] == n) for n, i in enumerate(found)
    ]


def _replace_current(item: ListImport, current: bool) -> ListImport:
    return replace(item, current=current)


def current_imports(store: Store) -> list[ListImport]:
    """The current import of every (list, date), by list name then date."""
    return sorted(
        (i for i in imported_lists(store) if i.current), key=lambda i: (i.list_name, i.list_date)
    )


def _latest(store: Store, name: str, at_or_before: dt.date | None) -> ListImport | None:
    candidates = [
        i
        for i in current_imports(store)
        if i.list_name == name and (at_or_before is None or i.list_date <= at_or_before)
    ]
    return max(candidates, key=lambda i: i.list_date, default=None)


def latest_list_import(
    store: Store, name: str, at_or_before: dt.date | None = None
) -> ListImport | None:
    """The current import of the list ``name`` of the latest date at or before
    ``at_or_before`` (any date when None), without its rows; None when there is none."""
    return _latest(store, name, at_or_before)


@dataclass(frozen=True)
class ImportedList:
    """A whole imported list: its name, date, source file's SHA-256, kind, and rows (the
    kind's columns, `kind_schema`), by player id."""

    name: str
    date: dt.date
    sha256: str
    kind: Kind
    rows: pl.DataFrame


def latest_list(
    store: Store, name: str, at_or_before: dt.date | None = None
) -> ImportedList | None:
    """The list ``name`` of the latest date at or before ``at_or_before`` (any date when None),
    or None when no such list was imported."""
    found = _latest(store, name, at_or_before)
    if found is None:
        return None
    rows = from_table(found.kind, store.list_rows(found.list_name, found.list_date))
    return ImportedList(found.list_name, found.list_date, found.source_sha256, found.kind, rows)


@dataclass(frozen=True, slots=True)
class ListedPlayer:
    """One player's row of an imported list. The attributes a kind has not are None;
    `as_dict` gives the kind's own columns."""

    list_name: str
    list_date: dt.date
    kind: Kind
    player_id: str
    name: str
    rating: int | float | None = None
    federation: str | None = None
    country: str | None = None
    sex: str | None = None
    title: str | None = None
    birth_year: int | None = None
    games: int | None = None
    k: int | None = None
    flag: str | None = None
    club: str | None = None
    grade: str | None = None
    gor: int | None = None
    expires: dt.date | None = None
    membership: str | None = None
    state: str | None = None

    def as_dict(self) -> dict[str, Any]:
        """The kind's columns (`KINDS`) with their values."""
        return {c.name: getattr(self, c.name) for c in KINDS[self.kind]}


def _value(column: Column, value: Any) -> Any:
    if value is None:
        return None
    if column.type == "int":
        return int(value)
    if column.type == "float":
        return float(value)
    return value


def lookup(
    store: Store, name: str, player_id: str, at_or_before: dt.date | None = None
) -> ListedPlayer | None:
    """Player ``player_id`` on the list ``name`` of the latest date at or before
    ``at_or_before`` (any date when None): one indexed row, the list is not loaded. None when
    no such list was imported, or the player is not on it."""
    found = _latest(store, name, at_or_before)
    if found is None:
        return None
    row = store.list_row(found.list_name, found.list_date, player_id)
    if row is None:
        return None
    values = {c.name: _value(c, row[c.stored]) for c in KINDS[found.kind]}
    return ListedPlayer(
        list_name=found.list_name, list_date=found.list_date, kind=found.kind, **values
    )


def verify_rows(store: Store, imports: Sequence[ListImport] | None = None) -> list[str]:
    """Problems with the stored rows of the current imports: a list whose rows no longer have
    the digest its event recorded (rows changed or deleted behind arbiter's back). Empty when
    every list is intact."""
    problems = []
    for item in current_imports(store) if imports is None else imports:
        rows = store.list_rows(item.list_name, item.list_date)
        if rows.height != item.players or rows_digest(rows) != item.rows_sha256:
            problems.append(
                f"rating list {item.list_name} {item.list_date}: {rows.height} stored rows "
                f"differ from the {item.players} its import recorded (position {item.position})"
            )
    return problems
