"""Moving a whole log between stores, and proving two logs equal.

`copy_log` reads the source in one snapshot (`Store.export_image`) and loads it into an empty
destination in one transaction: events keep their positions, versions, ids, payload bytes and
recording times; the archive, the truncation records, the counters (next position, epoch,
next truncation id) and the rows of the imported rating lists come along, so the copy continues
exactly where the source would.

`summarise` reduces a log to counts and SHA-256 digests: of every event's (position, stream,
version, id, type, schema version, payload hash, metadata hash, time), of the archive, of the
truncations and of the imported rating lists' rows. Two stores hold the same log when their
summaries are equal; `differences` names the first rows that differ when they are not.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path

import polars as pl

from events.store import LogImage, Store, StoreError

__all__ = ["LogSummary", "backup_log", "copy_log", "differences", "summarise"]


@dataclass(frozen=True, slots=True)
class LogSummary:
    events: int
    streams: int
    head_position: int
    archived: int
    truncations: int
    next_position: int
    epoch: int
    next_truncation: int
    events_sha256: str
    archive_sha256: str
    truncations_sha256: str
    list_rows: int = 0
    """Rows of the imported rating lists (`events.imported_lists`)."""
    list_rows_sha256: str = ""

    def as_json(self) -> dict[str, object]:
        return asdict(self)


def _hashes(column: pl.Series) -> pl.Series:
    return pl.Series(
        [hashlib.sha256(text.encode()).hexdigest() for text in column.to_list()], dtype=pl.Utf8
    )


def _canonical(frame: pl.DataFrame) -> pl.DataFrame:
    """Text columns with payload and metadata replaced by their SHA-256, times in µs."""
    out = frame
    for column in ("payload", "metadata"):
        if column in out.columns:
            out = out.with_columns(_hashes(out.get_column(column)).alias(column))
    return out.with_columns(
        pl.col(c).dt.epoch("us") for c, t in out.schema.items() if isinstance(t, pl.Datetime)
    )


def _digest(frame: pl.DataFrame) -> str:
    h = hashlib.sha256()
    canonical = _canonical(frame)
    h.update(",".join(canonical.columns).encode())
    h.update(canonical.write_csv(include_header=False).encode())
    return h.hexdigest()


def summarise(image: LogImage) -> LogSummary:
    events = image.events
    return LogSummary(
        events=events.height,
        streams=events.get_column("stream_id").n_unique(),
        head_position=int(events.get_column("global_position").max() or 0),  # type: ignore[arg-type]
        archived=image.archive.height,
        truncations=image.truncations.height,
        next_position=image.counters["next_position"],
        epoch=image.counters["epoch"],
        next_truncation=image.counters["next_truncation"],
        events_sha256=_digest(events),
        archive_sha256=_digest(image.archive),
        truncations_sha256=_digest(image.truncations),
        list_rows=_list_rows(image).height,
        list_rows_sha256=_digest(_list_rows(image)),
    )


def _list_rows(image: LogImage) -> pl.DataFrame:
    from events.columns import LIST_ROW_COLUMNS

    if image.list_rows is None:
        return pl.DataFrame(schema=LIST_ROW_COLUMNS)
    return image.list_rows


def differences(a: LogImage, b: LogImage, limit: int = 5) -> list[str]:
    """Up to ``limit`` lines naming what differs between two logs (empty when equal)."""
    found: list[str] = []
    if a.counters != b.counters:
        found.append(f"counters differ: {a.counters} vs {b.counters}")
    for name, key in (("events", "global_position"), ("archive", "global_position")):
        left = _canonical(getattr(a, name))
        right = _canonical(getattr(b, name))
        if left.equals(right):
            continue
        if left.height != right.height:
            found.append(f"{name}: {left.height} rows vs {right.height}")
        joined = left.join(right, on=key, how="full", suffix="_b", coalesce=True)
        columns = [c for c in left.columns if c != key]
        unequal = pl.any_horizontal(pl.col(c).ne_missing(pl.col(f"{c}_b")) for c in columns)
        for row in joined.filter(unequal).head(limit).iter_rows(named=True):
            which = [c for c in columns if row[c] != row[f"{c}_b"]]
            found.append(f"{name}: position {row[key]} differs in {', '.join(which)}")
    if not _canonical(a.truncations).equals(_canonical(b.truncations)):
        found.append("truncation records differ")
    rows_a, rows_b = _list_rows(a), _list_rows(b)
    if not rows_a.equals(rows_b):
        row_key = ["list_name", "list_date", "player_id"]
        only = rows_a.join(rows_b, on=row_key, how="anti").height
        only_b = rows_b.join(rows_a, on=row_key, how="anti").height
        found.append(
            f"rating-list rows differ: {rows_a.height} rows vs {rows_b.height} "
            f"({only} only in the first, {only_b} only in the second)"
        )
    return found[:limit]


def copy_log(source: Store, destination: Store) -> tuple[LogSummary, LogSummary]:
    """Copy the whole log into an empty store and read it back; (source, copy) summaries.

    :raises StoreError: the destination is not empty, or the copy reads back different.
    """
    image = source.export_image()
    destination.import_image(image)
    again = destination.export_image()
    problems = differences(image, again)
    if problems:
        raise StoreError(f"the copy in {destination.url} differs: {problems[0]}")
    return summarise(image), summarise(again)


def backup_log(source: Store, path: Path) -> LogSummary:
    """One consistent DuckDB file of the whole store (archive included), written beside
    ``path`` and renamed into place, so a reader never sees half a backup. Caches are not
    included: they are rebuilt from the log."""
    from events.duckdb_store import DuckDBStore

    if path.exists():
        raise StoreError(f"{path} exists; give a new file name for the backup")
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    os.close(fd)
    tmp = Path(tmp_name)
    tmp.unlink()  # DuckDB creates the file itself
    try:
        with DuckDBStore(tmp) as copy:
            summary, _ = copy_log(source, copy)
            copy.checkpoint()
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
        Path(f"{tmp}.wal").unlink(missing_ok=True)
        Path(f"{tmp}.queue").unlink(missing_ok=True)  # the temp file's queue (ticket_lock)
    return summary
