"""The ingest job: files in, one atomic and idempotent load per file.

For each file: read the bytes, skip it when its sha256 is already in the log (stream
``file-<sha256>``), detect the format, parse, convert to a tournament's events, link the
players to the federation registry, and append the tournament stream, the registry events and
the ``FileIngested`` event together. What depends on the file alone (reading to encoding:
`pipelines.jobs.ingest_read`) is done by worker processes for a long list of files; the registry
and the store stay with the job, which takes the files in their order.

Atomicity and speed: appending costs one store transaction (a few ms) whatever its size, so
the job packs the rows of many consecutive files into one ``append_frame`` call, made by a
second thread while the next files are read (the store's own work, a server's above all, then
overlaps the reading; one commit at a time, in order). A file that
fails to read, parse or convert never enters the pack, so a failing file is always dropped
before the commit. Should the commit itself be refused (another writer moved a stream on), the
job reloads what it knows from the store and appends the pack's files one transaction each, so
one refused file never takes the others down.
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any

import polars as pl

from events.provenance import current_origin
from events.schema import EventBase, FileIngested
from events.store import BULK_COLUMNS, Store, StoreBusy, StoreError, StoreUnavailable
from ingest.detect import FileFormat
from ingest.registry import Registry
from pipelines.commands.base import STREAM_PREFIX as TOURNAMENT_PREFIX
from pipelines.jobs.ingest_read import (
    EncodedEvent,
    FileRead,
    convert,
    encoded,
    file_reads,
    internal_error,
    shown_path,
)
from pipelines.process.collector import bulk_collection

__all__ = [
    "LINK_NOT_FOLLOWED",
    "FileResult",
    "IngestOptions",
    "IngestReport",
    "Status",
    "convert",
    "discover",
    "ingest",
]

FILE_PREFIX = "file-"
IGNORED_SUFFIXES = frozenset({".md", ".dtd", ".json", ".pdf", ".html"})
"""Documentation and schema files an inbox folder may hold; a walk does not offer them."""


class Status(StrEnum):
    INGESTED = "ingested"
    DUPLICATE = "duplicate"
    FAILED = "failed"


@dataclass(frozen=True, slots=True)
class FileResult:
    path: str
    status: Status
    tournament: str | None = None
    error: str | None = None
    format: str | None = None
    games: int = 0
    players: int = 0
    warnings: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    """Identity findings to report: players without an id registered as new."""
    skipped: tuple[str, ...] = ()
    """Result records left out (``--skip-bad-lines``): ``FILE:LINE:COL: why``."""
    accepted: tuple[str, ...] = ()
    """Records taken as written although a decider refuses them (not ``strict``)."""
    skippable: bool = False
    """Failed for bad result records alone: ``skip_bad_lines`` would take the rest."""

    def as_json(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "status": self.status.value,
            "tournament": self.tournament,
            "error": self.error,
            "format": self.format,
            "games": self.games,
            "players": self.players,
            "warnings": list(self.warnings),
            "notes": list(self.notes),
            "skipped": list(self.skipped),
            "accepted": list(self.accepted),
        }


@dataclass(frozen=True, slots=True)
class IngestReport:
    files: tuple[FileResult, ...]
    seconds: float

    def count(self, status: Status) -> int:
        return sum(1 for f in self.files if f.status is status)

    @property
    def ok(self) -> bool:
        return self.count(Status.FAILED) == 0

    def summary(self) -> dict[str, Any]:
        done = [f for f in self.files if f.status is Status.INGESTED]
        return {
            "files": len(self.files),
            "ingested": len(done),
            "duplicate": self.count(Status.DUPLICATE),
            "failed": self.count(Status.FAILED),
            "games": sum(f.games for f in done),
            "players": sum(f.players for f in done),
            "new_players_without_id": sum(len(f.notes) for f in done),
            "warnings": sum(len(f.warnings) for f in done),
            "skipped_records": sum(len(f.skipped) for f in done),
            "accepted_records": sum(len(f.accepted) for f in done),
            "seconds": round(self.seconds, 3),
        }

    def as_json(self) -> dict[str, Any]:
        return {"files": [f.as_json() for f in self.files], "summary": self.summary()}


@dataclass(frozen=True, slots=True)
class IngestOptions:
    format: FileFormat | None = None
    """Read every file as this format instead of detecting it."""
    strict: bool = False
    """A points column that disagrees with the results, or a record a decider refuses, fails
    the file (else a warning, or the record taken as written and listed:
    `ingest.commands`)."""
    skip_bad_lines: bool = False
    """Leave out unreadable or contradictory result records instead of refusing the file."""
    actor: str | None = None
    """Who ingests (default: the process's origin, see events.provenance)."""
    pack_rows: int = 200_000
    """Rows gathered before one store transaction; 0 appends every file on its own."""
    shown_from: Path | None = None
    """Name the files relative to this folder (a server's temporary upload folder)."""


def discover(paths: Iterable[Path], links: list[Path] | None = None) -> list[Path]:
    """The files to ingest: files as given, folders walked (hidden and doc files left out).

    A symbolic link met inside a folder (to a file or a folder, inside it or not) is not
    followed: a walk never leaves the folder it was given. Such links are added to ``links``
    for the caller to name (a file given by name is read even when it is a link).
    """
    found: list[Path] = []
    for path in paths:
        if not path.is_dir():
            found.append(path)
            continue
        for p in sorted(path.rglob("*")):
            if any(part.startswith(".") for part in p.relative_to(path).parts):
                continue
            if p.is_symlink():
                if links is not None and p.suffix.lower() not in IGNORED_SUFFIXES:
                    links.append(p)
            elif p.is_file() and p.suffix.lower() not in IGNORED_SUFFIXES:
                found.append(p)
    return found


LINK_NOT_FOLLOWED = "a symbolic link inside a folder, not followed (name its target to ingest it)"
"""Said of each link `discover` met in a folder."""


class _Context:
    """What the job knows of the store: files, tournament ids, the registry."""

    def __init__(self, store: Store) -> None:
        self.files: dict[str, str | None] = {}
        frame = store.read_frame(stream_prefix=FILE_PREFIX)
        for payload in frame["payload"]:
            data = json.loads(payload)
            self.files[data["sha256"]] = data.get("tournament_id")
        self.tournaments = {
            s.removeprefix(TOURNAMENT_PREFIX) for s in store.streams(TOURNAMENT_PREFIX)
        }
        self.registry = Registry.load(store)

    def tournament_id(self, base: str) -> str:
        """``base`` (the reader's id for the file), else ``base-2``, ``base-3`` ... when taken."""
        tid, n = base, 1
        while tid in self.tournaments:
            n += 1
            tid = f"{base}-{n}"
        self.tournaments.add(tid)
        return tid


@dataclass(slots=True)
class _Pack:
    """Rows of several files waiting for one transaction."""

    columns: dict[str, list[Any]] = field(
        default_factory=lambda: {name: [] for name in BULK_COLUMNS}
    )
    pending: list[tuple[Path, FileResult, FileRead]] = field(default_factory=list)

    @property
    def rows(self) -> int:
        return len(self.columns["stream_id"])

    def add(self, stream: str, version: int, event_id: str, event: EventBase, meta: str) -> None:
        self.add_encoded(stream, version, event_id, encoded(event), meta)

    def add_encoded(
        self, stream: str, version: int, event_id: str, event: EncodedEvent, meta: str
    ) -> None:
        self._extend([stream], [version], [event_id], [event], [meta])

    def add_rows(
        self,
        stream: str,
        key: str,
        rows: Sequence[EncodedEvent | int],
        players: dict[int, EncodedEvent],
        metas: list[str],
    ) -> None:
        """A file's tournament rows, versions 1 on (an int: that player's registration)."""
        ready = [players[row] if isinstance(row, int) else row for row in rows]
        versions = range(1, len(ready) + 1)
        self._extend(
            [stream] * len(ready), versions, [f"{key}-t{i}" for i in versions], ready, metas
        )

    def _extend(
        self,
        streams: list[str],
        versions: Iterable[int],
        event_ids: list[str],
        events: list[EncodedEvent],
        metas: list[str],
    ) -> None:
        c = self.columns
        c["stream_id"].extend(streams)
        c["stream_version"].extend(versions)
        c["event_id"].extend(event_ids)
        c["event_type"].extend([e[0] for e in events])
        c["schema_version"].extend([e[1] for e in events])
        c["payload"].extend([e[2] for e in events])
        c["metadata"].extend(metas)

    def frame(self) -> pl.DataFrame:
        return pl.DataFrame(self.columns, schema=BULK_COLUMNS)


class _Job:
    def __init__(self, store: Store, options: IngestOptions, writer: ThreadPoolExecutor) -> None:
        self.store = store
        self.options = options
        self.writer = writer
        """One thread: the store's commits, one at a time, in order."""
        self.context = _Context(store)
        self.origin = current_origin().acting_as(options.actor)
        """Who ingests, from where: the same for every file of the job."""
        self.results: dict[Path, FileResult] = {}
        self._writing: tuple[_Pack, Future[int]] | None = None

    def prepare(self, path: Path, read: FileRead, pack: _Pack) -> FileResult | None:
        """Add the file's rows to ``pack``; a result now when it fails or is a duplicate."""
        shown, sha = read.shown, read.sha256
        if sha is None:
            return FileResult(shown, Status.FAILED, error=read.error)
        if sha in self.context.files:
            return FileResult(shown, Status.DUPLICATE, tournament=self.context.files[sha])
        if read.error is not None or read.created is None or read.format is None:
            return FileResult(shown, Status.FAILED, error=read.error, skippable=read.skippable)
        tid = self.context.tournament_id(read.tournament_id)
        resolution = self.context.registry.resolve(read.players, sha[:16])
        links = resolution.links
        by_number = {
            p.player: p.event if p.player not in links else p.linked(links[p.player])
            for p in read.players
        }
        self.context.files[sha] = tid
        base = self.origin.file_metadata(shown, sha)
        meta = json.dumps(base, sort_keys=True)
        key = sha[:32]
        for i, (stream, version, event) in enumerate(resolution.events):
            pack.add(stream, version, f"{key}-r{i}", event, meta)
        stream = TOURNAMENT_PREFIX + tid
        pack.add_encoded(
            stream,
            0,
            f"{key}-t0",
            read.created_as(tid),
            self._meta(base, meta, read.metadata.get(0)),
        )
        pack.add_rows(stream, key, read.rows, by_number, self._metas(base, meta, read))
        players = len(read.players)
        pack.add(
            FILE_PREFIX + sha,
            0,
            f"{key}-f",
            FileIngested(
                sha256=sha,
                path=shown,
                format=read.format.value,
                tournament_id=tid,
                players=players,
                games=read.games,
                warnings=read.warnings,
                accepted=read.accepted,
            ),
            meta,
        )
        result = FileResult(
            shown,
            Status.INGESTED,
            tournament=tid,
            format=read.format.value,
            games=read.games,
            players=players,
            warnings=read.warnings,
            notes=tuple(resolution.notes),
            skipped=read.skipped,
            accepted=read.accepted,
        )
        pack.pending.append((path, result, read))
        return None

    @staticmethod
    def _meta(base: dict[str, Any], meta: str, extra: dict[str, Any] | None) -> str:
        """A row's metadata: the file's, with the conversion's extra for this event."""
        return meta if extra is None else json.dumps({**base, **extra}, sort_keys=True)

    @staticmethod
    def _metas(base: dict[str, Any], meta: str, read: FileRead) -> list[str]:
        """The metadata of the tournament rows, versions 1 on: the file's, with the
        conversion's extra where it has one (each different extra encoded once)."""
        metas = [meta] * len(read.rows)
        encoded_extras: dict[str, str] = {}
        for version, extra in read.metadata.items():
            if 1 <= version <= len(metas):
                shape = repr(sorted(extra.items()))
                if shape not in encoded_extras:
                    encoded_extras[shape] = _Job._meta(base, meta, extra)
                metas[version - 1] = encoded_extras[shape]
        return metas

    def commit(self, pack: _Pack) -> None:
        """Commit ``pack`` after the commit under way, in the background: the next files are
        read while the store writes these. If the one under way was refused, ``pack`` was
        prepared on what it would have committed, so its files are prepared again, one
        transaction each."""
        if self.settle():
            self._start(pack)
        else:
            self._one_by_one(pack)

    def settle(self) -> bool:
        """Wait for the commit under way; False when the store refused it (its files then
        went in one transaction each, on what the store holds)."""
        if self._writing is None:
            return True
        pack, commit = self._writing
        self._writing = None
        try:
            commit.result()
        except (StoreBusy, StoreUnavailable):
            raise  # nothing wrong with the files: the command fails whole, retryable
        except StoreError as exc:
            self.context = _Context(self.store)
            if len(pack.pending) == 1:
                path, _, _ = pack.pending[0]
                shown = shown_path(path, self.options.shown_from)
                self.results[path] = FileResult(shown, Status.FAILED, error=f"{shown}: {exc}")
            else:  # someone else moved a stream on: start again from the store
                self._one_by_one(pack)
            return False
        for path, result, _ in pack.pending:
            self.results[path] = result
        return True

    def _start(self, pack: _Pack) -> None:
        if pack.pending:
            self._writing = (pack, self.writer.submit(self.store.append_frame, pack.frame()))

    def _one_by_one(self, pack: _Pack) -> None:
        for path, _, read in pack.pending:
            single = _Pack()
            early = self.prepare(path, read, single)
            if early is not None:
                self.results[path] = early
            else:
                self._start(single)
                self.settle()


def ingest(
    store: Store,
    files: Sequence[Path],
    options: IngestOptions | None = None,
    progress: Callable[[Path], None] | None = None,
) -> IngestReport:
    """Ingest ``files`` (see :func:`discover`) into ``store``; never raises for a bad file.

    :raises StoreBusy: another process holds the store.
    :raises StoreUnavailable: the store's server went away (files committed before stay).
    """
    options = options or IngestOptions()
    started = time.perf_counter()
    with (
        bulk_collection(),
        ThreadPoolExecutor(max_workers=1, thread_name_prefix="arbiter-commit") as writer,
    ):
        job = _Job(store, options, writer)
        pack = _Pack()
        reads = file_reads(
            files,
            fmt=options.format,
            strict=options.strict,
            skip_bad_lines=options.skip_bad_lines,
            root=options.shown_from,
        )
        with contextlib.closing(reads):  # a refused store stops the worker processes at once
            for path, read in reads:
                try:
                    early = job.prepare(path, read, pack)
                except Exception as exc:  # a bug: this file fails, the others go on
                    early = FileResult(
                        read.shown, Status.FAILED, error=internal_error(read.shown, exc)
                    )
                if early is not None:
                    job.results[path] = early
                if pack.rows >= options.pack_rows:
                    job.commit(pack)
                    pack = _Pack()
                if progress is not None:
                    progress(path)
        job.commit(pack)
        job.settle()
    ordered = tuple(job.results[p] for p in dict.fromkeys(files))
    return IngestReport(ordered, time.perf_counter() - started)
