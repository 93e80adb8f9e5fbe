"""``arbiter ratings import``: a published rating list into the store, whole or not at all.

The job reads the file (`ingest.lists.read_list`), settles each list's name and date (``--list``
and ``--date`` over what the file states), and appends one ``RatingListImported`` event per list
with its rows in one transaction (`events.store.Store.append_with_list_rows`). A bad row refuses
the file before anything is written, unless ``skip_bad_lines``. The same file again is a no-op;
another file for a list and date already imported is refused unless ``replace``.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from dataclasses import dataclass
from pathlib import Path

import polars as pl

from events.errors import UserError
from events.imported_lists import STREAM, ListImport, current_imports, rows_digest, to_table
from events.provenance import current_origin
from events.schema import RatingListImported
from events.store import NewEvent, Store
from ingest.errors import IngestError
from ingest.limits import display_path
from ingest.lists import read_list
from ingest.lists.records import Progress

__all__ = ["ImportOutcome", "ImportRequest", "ImportedList", "ListImportError", "import_list"]


class ListImportError(UserError):
    """A list that cannot be imported as asked: no date, no name, already imported from
    another file (``--replace``)."""


@dataclass(frozen=True, slots=True)
class ImportRequest:
    """What ``ratings import`` was asked."""

    path: Path
    list_name: str | None = None
    date: dt.date | None = None
    skip_bad_lines: bool = False
    replace: bool = False


@dataclass(frozen=True, slots=True)
class ImportedList:
    """One list of the file and what became of it: ``imported``, ``replaced`` (another file's
    rows for the same list and date), or ``unchanged`` (this file was imported already)."""

    name: str
    kind: str
    date: dt.date
    players: int
    status: str


@dataclass(frozen=True, slots=True)
class ImportOutcome:
    """The file's format and SHA-256, its lists, and the rows left out."""

    source: str
    format: str
    sha256: str
    date_source: str
    lists: tuple[ImportedList, ...]
    skipped: tuple[IngestError, ...]


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while block := handle.read(1 << 22):
            digest.update(block)
    return digest.hexdigest()


def import_list(
    store: Store, request: ImportRequest, progress: Progress | None = None
) -> ImportOutcome:
    """Import the list file of ``request`` (see the module).

    :raises IngestError: the file is no list, or a row is wrong (without ``skip_bad_lines``).
    :raises ListImportError: no date or name for a list, or another file already gave it.
    """
    shown = display_path(request.path)
    read = read_list(request.path, shown, skip_bad_lines=request.skip_bad_lines, progress=progress)
    date = request.date or read.date
    if date is None:
        raise ListImportError(f"{shown}: the list states no date: give --date YYYY-MM-DD")
    date_source = "--date" if request.date is not None else str(read.date_source)
    if request.list_name is not None and len(read.lists) > 1:
        names = ", ".join(str(r.name) for r in read.lists)
        raise ListImportError(f"--list: {shown} holds {len(read.lists)} lists ({names})")
    sha = read.sha256 or file_sha256(request.path)
    current = {(i.list_name, i.list_date): i for i in current_imports(store)}
    events: list[NewEvent] = []
    tables: list[pl.DataFrame] = []
    replaced: list[tuple[str, dt.date]] = []
    done: list[ImportedList] = []
    origin = current_origin()
    for one in read.lists:
        if one.rows.height == 0 and len(read.lists) > 1:
            continue  # FIDE's combined file with nobody rated in a type: no such list
        name = request.list_name or one.name
        if name is None:
            raise ListImportError(
                f"{shown}: the file does not say which list it is: give --list NAME"
            )
        before: ListImport | None = current.get((name, date))
        if before is not None and before.source_sha256 == sha:
            done.append(ImportedList(name, one.kind.value, date, before.players, "unchanged"))
            continue
        if before is not None and not request.replace:
            raise ListImportError(
                f"{name} {date} was imported from {before.source} (sha256 "
                f"{before.source_sha256[:12]}), not this file: --replace to replace it"
            )
        table = to_table(one.kind, name, date, one.rows)
        event = RatingListImported(
            list_name=name,
            kind=one.kind.value,
            list_date=date,
            source=Path(shown).name,
            source_format=read.format.value,
            source_sha256=sha,
            players=table.height,
            skipped=len(read.skipped),
            rows_sha256=rows_digest(table),
            replaces=before.source_sha256 if before is not None else None,
        )
        events.append(
            NewEvent(
                event,
                event_id=f"ratinglist:{name}:{date}:{sha}",
                metadata=origin.file_metadata(shown, sha),
            )
        )
        tables.append(table)
        if before is not None:
            replaced.append((name, date))
        status = "replaced" if before is not None else "imported"
        done.append(ImportedList(name, one.kind.value, date, table.height, status))
    if events:
        store.append_with_list_rows(
            STREAM,
            events,
            store.stream_version(STREAM),
            pl.concat(tables) if len(tables) > 1 else tables[0],
            replace=replaced,
        )
    return ImportOutcome(
        shown, read.format.value, sha, date_source, tuple(done), tuple(read.skipped)
    )
