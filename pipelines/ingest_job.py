"""The ingest job: files in, one atomic and idempotent load per file.

For each file: read the bytes, skip it when its sha256 is already in the log (stream
``file-<sha256>``), detect the format, parse, convert to a tournament's events, link the
players to the federation registry, and append the tournament stream, the registry events and
the ``FileIngested`` event together.

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

import functools
import hashlib
import json
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from decimal import Decimal
from enum import StrEnum
from pathlib import Path
from typing import Any

import polars as pl
from pydantic import ValidationError

from events.domain import System
from events.errors import UserError
from events.params import PairingParams
from events.provenance import current_origin
from events.schema import (
    EventBase,
    FileIngested,
    PlayerRegistered,
    ResultRecorded,
    RoundPaired,
    encode,
)
from events.store import BULK_COLUMNS, Store, StoreBusy, StoreError, StoreUnavailable
from ingest.bad_lines import elo_without_bad_records, repair_cross_table, repair_trf
from ingest.conversion import Conversion, PointsCheck, check_points
from ingest.detect import FileFormat, detect_format
from ingest.elo import elo_to_events, parse_elo
from ingest.errors import IngestError, IngestWarning
from ingest.h9 import h9_to_events, parse_h9
from ingest.limits import check_content, check_conversion, display_path, read_input
from ingest.opengotha import OGTournament, opengotha_to_events, read_opengotha_bytes
from ingest.registry import Registry
from ingest.tou import parse_tou, tou_to_events
from ingest.trf import TrfFile, parse_trf, trf_to_events
from pipelines import live
from pipelines.commands import STREAM_PREFIX as TOURNAMENT_PREFIX
from pipelines.commands import slugify
from pipelines.macmahon_from_opengotha import params_from_opengotha
from pipelines.swiss_from_trf import infer_initial_colour
from projections.state import project
from projections.tiebreaks import REGISTRY as TIEBREAKS

__all__ = [
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
            "seconds": round(self.seconds, 3),
        }

    def as_json(self) -> dict[str, Any]:
        return {"files": [f.as_json() for f in self.files], "summary": self.summary()}


@dataclass(frozen=True, slots=True)
class IngestOptions:
    format: FileFormat | None = None
    """Read every file as this format instead of detecting it."""
    strict: bool = False
    """A points column that disagrees with the results fails the file (else a warning)."""
    skip_bad_lines: bool = False
    """Leave out unreadable or contradictory result records instead of refusing the file."""
    actor: str | None = None
    """Who ingests (default: the process's origin, see events.provenance)."""
    pack_rows: int = 200_000
    """Rows gathered before one store transaction; 0 appends every file on its own."""


def discover(paths: Iterable[Path]) -> list[Path]:
    """The files to ingest: files as given, folders walked (hidden and doc files left out)."""
    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            found.extend(
                p
                for p in sorted(path.rglob("*"))
                if p.is_file()
                and not any(part.startswith(".") for part in p.relative_to(path).parts)
                and p.suffix.lower() not in IGNORED_SUFFIXES
            )
        else:
            found.append(path)
    return found


def convert(
    path: Path,
    data: bytes,
    fmt: FileFormat,
    *,
    strict: bool = False,
    skip_bad_lines: bool = False,
) -> Conversion:
    """Parse ``data`` (the contents of ``path``) as ``fmt`` and turn it into events.

    ``skip_bad_lines``: leave out the result records that cannot be read or contradict the
    file (:mod:`ingest.bad_lines`), listed in :attr:`Conversion.skipped`.

    :raises IngestError: for anything wrong with the file, always one line naming the place.
        Any other exception is a bug in a reader or converter and is not disguised as one.
    """
    skipped: list[IngestError] = []
    check_content(path, data)
    try:
        if skip_bad_lines and fmt in _REPAIRS:
            data, skipped = _REPAIRS[fmt](path, data, strict)
        match fmt:
            case FileFormat.ELO:
                elo = parse_elo(path, data)
                if skip_bad_lines:
                    elo, skipped = elo_without_bad_records(elo)
                conversion = elo_to_events(elo, strict=strict)
            case FileFormat.TRF:
                trf = parse_trf(path, data)
                conversion = with_swiss_colour(trf_file_to_events(trf, strict=strict))
            case FileFormat.H9:
                conversion = h9_to_events(parse_h9(path, data))
            case FileFormat.TOU:
                conversion = tou_to_events(parse_tou(path, data))
            case FileFormat.OPENGOTHA:
                og = read_opengotha_bytes(data, str(path))
                conversion = with_go_pairing(opengotha_to_events(og), og, str(path))
    except IngestError:
        raise
    except ValidationError as exc:  # a record the file gave that an event refuses
        first = exc.errors()[0]
        where = ".".join(str(x) for x in first["loc"])
        raise IngestError(
            str(path), 0, 0, f"invalid {where}: {first['msg']}", found=str(first.get("input"))
        ) from None
    except UserError as exc:  # a value of the file that a domain type refuses
        raise IngestError(str(path), 0, 0, str(exc)) from None
    # An OpenGotha file says it is a tournament (its root element), even one without players
    # yet; a line format read into no player at all was no result file.
    check_conversion(path, conversion.events, require_players=fmt is not FileFormat.OPENGOTHA)
    return replace(conversion, skipped=skipped)


def _first_error(read: Callable[[], object]) -> list[IngestError]:
    try:
        read()
    except IngestError as error:
        return [error]
    return []


def _repair_h9(path: Path, data: bytes, _: bool) -> tuple[bytes, list[IngestError]]:
    return repair_cross_table(path, data, lambda b: parse_h9(path, b).errors)


def _repair_tou(path: Path, data: bytes, _: bool) -> tuple[bytes, list[IngestError]]:
    return repair_cross_table(path, data, lambda b: parse_tou(path, b).errors)


def _repair_trf(path: Path, data: bytes, strict: bool) -> tuple[bytes, list[IngestError]]:
    return repair_trf(
        path, data, lambda b: _first_error(lambda: convert(path, b, FileFormat.TRF, strict=strict))
    )


_REPAIRS: dict[FileFormat, Callable[[Path, bytes, bool], tuple[bytes, list[IngestError]]]] = {
    FileFormat.H9: _repair_h9,
    FileFormat.TOU: _repair_tou,
    FileFormat.TRF: _repair_trf,
}
"""The line-oriented cross-table formats: bad records blanked before the conversion."""


_TRF_POINTS_COLUMN = 81


def trf_file_to_events(trf: TrfFile, *, strict: bool = False) -> Conversion:
    """The tournament stream of a parsed TRF, with its ``001`` points column checked.

    The column must equal the sum of the player's results under the file's scoring
    (formats.md §1.3), as the tournament's projection counts them; real files break the rule
    (Bunratty byes written without a code), so a difference is a warning, or an error in
    strict mode.

    :raises IngestError: an unknown opponent, or ``strict`` and a points column that differs.
    """
    events = trf_to_events(trf)
    state = project(events)
    checks = []
    for p in trf.players:
        if p.points is None or p.number not in state.players:
            continue
        computed = Decimal(str(state.points(p.number)))
        if computed != p.points:
            checks.append(PointsCheck(p.line, _TRF_POINTS_COLUMN, p.name, p.points, computed))
    warnings = list(trf.warnings) + check_points(trf.path, checks, strict=strict)
    games = sum(1 for e in events if isinstance(e, ResultRecorded))
    return Conversion(list(events), {}, warnings, games=games)


def with_swiss_colour(conversion: Conversion) -> Conversion:
    """Record the top seed's round-1 colour of a TRF that does not state it (no XXC/152).

    Read back from round 1 of the events as bbpPairings reads it, so that undoing back to
    round 1 and pairing again draws the same colours as the event did.
    """
    created = conversion.created
    if created.pairing_params.chess.initial_colour is not None:
        return conversion
    state = project(conversion.events, at_round=1)
    if 1 not in state.rounds or state.total_rounds < 2:
        return conversion
    try:
        players = live.swiss_input(state, 2)[0].players
    except live.MissingResult:  # a round-1 result is missing: nothing to read back
        return conversion
    old = created.pairing_params
    chess = old.chess.model_copy(update={"initial_colour": infer_initial_colour(players)})
    params = old.model_copy(update={"chess": chess})
    created = created.model_copy(update={"pairing_params": params})
    return replace(conversion, events=[created, *conversion.events[1:]])


def with_go_pairing(conversion: Conversion, og: OGTournament, path: str) -> Conversion:
    """Make an OpenGotha event pairable by arbiter: its system, parameters and placement.

    The file's parameter sets become the tournament's Mac-Mahon parameters, so that undoing
    rounds and pairing again follows the same rules as the program that ran the event. A file
    whose parameters the engine does not support (a cup's CPS criterion) is still loaded, as
    an imported event, with a warning.
    """
    try:
        params = params_from_opengotha(og)
    except (UserError, ValidationError) as exc:
        warning = IngestWarning(
            path, 0, 0, f"kept as imported, arbiter cannot pair further rounds: {exc}"
        )
        return replace(conversion, warnings=[*conversion.warnings, warning])
    codes = [c.value.upper() for c in params.placement_criteria]
    flat = params.model_dump(mode="json", exclude={"number_of_rounds"})
    komi = conversion.created.pairing_params.go.komi
    if komi is not None:  # the file's komi: new rounds are played with it
        flat["komi"] = komi
    created = conversion.created.model_copy(
        update={
            "system": System.SWISS if codes[:1] == ["NBW"] else System.MACMAHON,
            "pairing_params": PairingParams.model_validate(flat).model_copy(
                update={"team": conversion.created.pairing_params.team}  # OpenGotha's teams
            ),
            "tiebreaks": tuple(c for c in codes if c in TIEBREAKS),
        }
    )
    return replace(conversion, events=[created, *conversion.events[1:]])


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

    def tournament_id(self, path: Path) -> str:
        base = slugify(path.stem)
        tid, n = base, 1
        while tid in self.tournaments:
            n += 1
            tid = f"{base}-{n}"
        self.tournaments.add(tid)
        return tid


def _game_count(events: Sequence[EventBase]) -> int:
    return sum(
        sum(1 for b in e.boards if b.black is not None)
        for e in events
        if isinstance(e, RoundPaired)
    )


@functools.cache
def _type_name(cls: type[EventBase]) -> str:
    return str(cls.model_fields["type"].default)


@dataclass(slots=True)
class _Pack:
    """Rows of several files waiting for one transaction."""

    columns: dict[str, list[Any]] = field(
        default_factory=lambda: {name: [] for name in BULK_COLUMNS}
    )
    pending: list[tuple[Path, FileResult, str]] = field(default_factory=list)

    @property
    def rows(self) -> int:
        return len(self.columns["stream_id"])

    def add(self, stream: str, version: int, event_id: str, event: EventBase, meta: str) -> None:
        c = self.columns
        c["stream_id"].append(stream)
        c["stream_version"].append(version)
        c["event_id"].append(event_id)
        c["event_type"].append(_type_name(type(event)))
        c["schema_version"].append(event.SCHEMA_VERSION)
        c["payload"].append(encode(event))
        c["metadata"].append(meta)

    def frame(self) -> pl.DataFrame:
        return pl.DataFrame(self.columns, schema=BULK_COLUMNS)


class _Job:
    def __init__(self, store: Store, options: IngestOptions, writer: ThreadPoolExecutor) -> None:
        self.store = store
        self.options = options
        self.writer = writer
        """One thread: the store's commits, one at a time, in order."""
        self.context = _Context(store)
        self.results: dict[Path, FileResult] = {}
        self._writing: tuple[_Pack, Future[int]] | None = None

    def prepare(self, path: Path, pack: _Pack) -> FileResult | None:
        """Add the file's rows to ``pack``; a result now when it fails or is a duplicate."""
        shown = display_path(path)
        try:
            data = read_input(path, shown)
        except IngestError as exc:
            return FileResult(shown, Status.FAILED, error=str(exc))
        sha = hashlib.sha256(data).hexdigest()
        if sha in self.context.files:
            return FileResult(shown, Status.DUPLICATE, tournament=self.context.files[sha])
        name = Path(shown)
        try:
            fmt = self.options.format or detect_format(name, data)
            conversion = convert(
                name,
                data,
                fmt,
                strict=self.options.strict,
                skip_bad_lines=self.options.skip_bad_lines,
            )
        except IngestError as exc:
            return FileResult(shown, Status.FAILED, error=str(exc))
        tid = self.context.tournament_id(name)
        conversion.events[0] = conversion.created.model_copy(update={"tournament_id": tid})
        resolution = self.context.registry.resolve(conversion.players, sha[:16])
        by_number = {p.player: p for p in resolution.players}
        events = [
            by_number[e.player] if isinstance(e, PlayerRegistered) else e for e in conversion.events
        ]
        warnings = tuple(str(w) for w in conversion.warnings)
        self.context.files[sha] = tid
        base = current_origin().acting_as(self.options.actor).file_metadata(shown, sha)
        meta = json.dumps(base, sort_keys=True)
        key = sha[:32]
        for i, (stream, version, event) in enumerate(resolution.events):
            pack.add(stream, version, f"{key}-r{i}", event, meta)
        stream = TOURNAMENT_PREFIX + tid
        for i, event in enumerate(events):
            extra = conversion.metadata.get(i)
            row_meta = meta if extra is None else json.dumps({**base, **extra}, sort_keys=True)
            pack.add(stream, i, f"{key}-t{i}", event, row_meta)
        games = conversion.games or _game_count(events)
        players = len(resolution.players)
        pack.add(
            FILE_PREFIX + sha,
            0,
            f"{key}-f",
            FileIngested(
                sha256=sha,
                path=shown,
                format=fmt.value,
                tournament_id=tid,
                players=players,
                games=games,
                warnings=warnings,
            ),
            meta,
        )
        result = FileResult(
            shown,
            Status.INGESTED,
            tournament=tid,
            format=fmt.value,
            games=games,
            players=players,
            warnings=warnings,
            notes=tuple(resolution.notes),
            skipped=tuple(str(e) for e in conversion.skipped),
        )
        pack.pending.append((path, result, sha))
        return None

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
                shown = display_path(path)
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
        for path, _, _ in pack.pending:
            single = _Pack()
            early = self.prepare(path, single)
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
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="arbiter-commit") as writer:
        job = _Job(store, options, writer)
        pack = _Pack()
        for path in files:
            try:
                early = job.prepare(path, pack)
            except Exception as exc:  # a bug in a reader: this file fails, the others go on
                shown = display_path(path)
                early = FileResult(
                    shown,
                    Status.FAILED,
                    error=f"{shown}:0:0: internal error ({type(exc).__name__}), "
                    "please report this file",
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
