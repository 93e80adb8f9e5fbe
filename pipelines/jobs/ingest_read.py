"""Reading one file for the ingest job: its bytes, its digest, its events, encoded.

`read_file` is the part of ingesting a file that depends on nothing but the file (read, detect
the format, parse, convert, check the limits, encode the events), so that it can run in
another process: `file_reads` gives the files of a long list out of worker processes while
the job numbers, links and packs the ones before (the registry and the store are the job's,
in order). A `FileRead` holds plain values only, every event already encoded, so that it
crosses between processes cheaply (a pydantic event costs about 6 us to pickle and as much to
unpickle, and the WOF archive has 134,000 players). The two kinds of event the job may still
change are re-encoded by it only when they do change: the created event when the tournament
id is taken, a player when the registry links it by name.
"""

from __future__ import annotations

import collections
import functools
import hashlib
import multiprocessing
import os
import signal
from collections.abc import Callable, Generator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field, replace
from decimal import Decimal
from pathlib import Path
from typing import Any, NamedTuple

from pydantic import ValidationError

from decide.state import TournamentState, project
from events.domain import System
from events.errors import UserError
from events.names import slugify
from events.params import PairingParams
from events.schema import (
    Event,
    EventBase,
    PlayerRegistered,
    ResultRecorded,
    RoundPaired,
    TournamentCreated,
    encode,
    type_name,
)
from ingest.bad_lines import elo_without_bad_records, repair_cross_table, repair_trf
from ingest.commands import decided, taken
from ingest.conversion import Conversion, PointsCheck, check_points
from ingest.detect import FileFormat, detect_format
from ingest.elo import elo_to_events, parse_elo
from ingest.errors import IngestError, IngestWarning
from ingest.h9 import h9_to_events, parse_h9
from ingest.limits import check_content, check_conversion, display_path, read_input
from ingest.opengotha import OGTournament, opengotha_to_events, read_opengotha_bytes
from ingest.registry import REGISTRY_KEY
from ingest.tou import parse_tou, tou_to_events
from ingest.trf import TrfFile, parse_trf, trf_to_events
from pairing.swiss.colour import infer_initial_colour
from pipelines.engines import live
from pipelines.engines.macmahon_from_opengotha import params_from_opengotha
from pipelines.process.collector import tune_process
from pipelines.process.orphans import die_with_parent
from projections.tiebreaks import REGISTRY as TIEBREAKS

__all__ = [
    "EncodedEvent",
    "FileRead",
    "PlayerRow",
    "convert",
    "encoded",
    "file_reads",
    "internal_error",
    "read_file",
    "shown_path",
]


def convert(
    path: Path,
    data: bytes,
    fmt: FileFormat,
    *,
    strict: bool = False,
    skip_bad_lines: bool = False,
    lenient: bool | None = None,
) -> Conversion:
    """Parse ``data`` (the contents of ``path``) as ``fmt`` and turn it into events, each
    registration and result decided by the write side (`ingest.commands.decided`): a record
    a decider refuses refuses the file, or, ``lenient``, is taken as written and listed in
    `Conversion.accepted`. ``lenient`` None: as ``strict`` says (lenient unless strict).

    ``strict``: a TRF's or .ELO file's points column that disagrees with its results
    refuses the file (else a warning). ``skip_bad_lines``: leave out the result records that
    cannot be read or contradict the file (:mod:`ingest.bad_lines`), listed in
    :attr:`Conversion.skipped`.

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
                conversion = trf_file_to_events(trf)
            case FileFormat.H9:
                conversion = h9_to_events(parse_h9(path, data))
            case FileFormat.TOU:
                conversion = tou_to_events(parse_tou(path, data))
            case FileFormat.OPENGOTHA:
                og = read_opengotha_bytes(data, str(path))
                conversion = with_go_pairing(opengotha_to_events(og), og, str(path))
        # An OpenGotha file says it is a tournament (its root element), even one without
        # players yet; a line format read into no player at all was no result file.
        check_conversion(path, conversion.events, require_players=fmt is not FileFormat.OPENGOTHA)
        conversion, state = decided(conversion, path=str(path))
        if fmt is FileFormat.TRF:  # the file's own faults before the rules it breaks
            conversion = with_swiss_colour(with_points_checked(trf, conversion, state, strict))
        conversion = taken(conversion, lenient=not strict if lenient is None else lenient)
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
        path,
        data,
        # the records a decider refuses are not bad lines: the conversion that follows says
        lambda b: _first_error(
            lambda: convert(path, b, FileFormat.TRF, strict=strict, lenient=True)
        ),
    )


_REPAIRS: dict[FileFormat, Callable[[Path, bytes, bool], tuple[bytes, list[IngestError]]]] = {
    FileFormat.H9: _repair_h9,
    FileFormat.TOU: _repair_tou,
    FileFormat.TRF: _repair_trf,
}
"""The line-oriented cross-table formats: bad records blanked before the conversion."""


_TRF_POINTS_COLUMN = 81


def trf_file_to_events(trf: TrfFile) -> Conversion:
    """The tournament stream of a parsed TRF, each player's record line kept."""
    events = trf_to_events(trf)
    games = sum(1 for e in events if isinstance(e, ResultRecorded))
    lines = {p.number: p.line for p in trf.players}
    return Conversion(list(events), {}, list(trf.warnings), games=games, lines=lines)


def with_points_checked(
    trf: TrfFile, conversion: Conversion, state: TournamentState, strict: bool
) -> Conversion:
    """``conversion`` with the TRF's ``001`` points column checked against ``state`` (the
    file's events folded).

    The column must equal the sum of the player's results under the file's scoring
    (formats.md §1.3), as the tournament's projection counts them; real files break the rule
    (Bunratty byes written without a code), so a difference is a warning, or an error in
    strict mode.

    :raises IngestError: ``strict`` and a points column that differs.
    """
    checks = []
    for p in trf.players:
        if p.points is None or p.number not in state.players:
            continue
        computed = Decimal(str(state.points(p.number)))
        if computed != p.points:
            checks.append(PointsCheck(p.line, _TRF_POINTS_COLUMN, p.name, p.points, computed))
    found = check_points(trf.path, checks, strict=strict)
    return replace(conversion, warnings=[*conversion.warnings, *found]) if found else conversion


def with_swiss_colour(conversion: Conversion) -> Conversion:
    """Record the top seed's round-1 colour of a TRF that does not state it (no XXC/152).

    Read back from round 1 of the events as bbpPairings reads it, so that undoing back to
    round 1 and pairing again draws the same colours as the event did.
    """
    created = with_round_one_colour(conversion.events)
    if created is conversion.created:
        return conversion
    return replace(conversion, events=[created, *conversion.events[1:]])


def with_round_one_colour(events: Sequence[Event]) -> TournamentCreated:
    """The first event (`TournamentCreated`) stating the top seed's round-1 colour, read back
    from round 1 when it was not stated (the same event when it was, or cannot be read)."""
    created = events[0]
    assert isinstance(created, TournamentCreated)
    if created.pairing_params.chess.initial_colour is not None:
        return created
    state = project(events, at_round=1)
    if 1 not in state.rounds or state.total_rounds < 2:
        return created
    try:
        players = live.swiss_input(state, 2)[0].players
    except live.MissingResult:  # a round-1 result is missing: nothing to read back
        return created
    old = created.pairing_params
    chess = old.chess.model_copy(update={"initial_colour": infer_initial_colour(players)})
    params = old.model_copy(update={"chess": chess})
    return created.model_copy(update={"pairing_params": params})


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


EncodedEvent = tuple[str, int, str]
"""An event ready for the store: its type, schema version and payload (JSON)."""


class PlayerRow(NamedTuple):
    """A file's player: what the registry links by (`ingest.registry.Registrant`), and the
    registration encoded."""

    player: int
    name: str
    federation: str | None
    birth: str | None
    sex: str | None
    fide_id: str | None
    ids: dict[str, str]
    event: EncodedEvent

    @classmethod
    def of(cls, p: PlayerRegistered) -> PlayerRow:
        return cls(p.player, p.name, p.federation, p.birth, p.sex, p.fide_id, p.ids, encoded(p))

    def linked(self, stream: str) -> EncodedEvent:
        """The registration with the registry stream the player was linked to by name."""
        event = PlayerRegistered.model_validate_json(self.event[2])
        return encoded(event.model_copy(update={"ids": {**self.ids, REGISTRY_KEY: stream}}))


@dataclass(frozen=True)  # no slots: a slotted dataclass pickles field by field, 6x slower
class FileRead:
    """One file read and converted; ``error`` (one line) when it could not be.

    ``rows`` are the tournament's events after the created one (stream versions 1, 2, ...):
    an encoded event, or the number of a player of ``players`` (registered by the job, once
    linked to the registry).
    """

    shown: str
    sha256: str | None = None
    """None when the file could not be read at all."""
    error: str | None = None
    format: FileFormat | None = None
    created: EncodedEvent | None = None
    """The tournament's created event, under `tournament_id` (see `created_as`)."""
    tournament_id: str = ""
    """The tournament's id made from the file's name; the job adds ``-2`` ... when taken."""
    players: tuple[PlayerRow, ...] = ()
    rows: tuple[EncodedEvent | int, ...] = ()
    metadata: dict[int, dict[str, Any]] = field(default_factory=dict)
    """Extra metadata by stream version (the conversion's)."""
    warnings: tuple[str, ...] = ()
    skipped: tuple[str, ...] = ()
    accepted: tuple[str, ...] = ()
    """Records taken as written although a decider refuses them (`Conversion.accepted`)."""
    games: int = 0
    skippable: bool = False
    """Refused for bad result records alone: ``skip_bad_lines`` would take the rest."""

    def created_as(self, tournament_id: str) -> EncodedEvent:
        """The created event with the id the job gave the tournament."""
        assert self.created is not None
        if tournament_id == self.tournament_id:
            return self.created
        event = TournamentCreated.model_validate_json(self.created[2])
        return encoded(event.model_copy(update={"tournament_id": tournament_id}))


def _game_count(events: Sequence[EventBase]) -> int:
    return sum(
        sum(1 for b in e.boards if b.black is not None)
        for e in events
        if isinstance(e, RoundPaired)
    )


def encoded(event: EventBase) -> EncodedEvent:
    """``event`` as the store takes it."""
    return (type_name(event), event.SCHEMA_VERSION, encode(event))


def _row(event: EventBase) -> EncodedEvent | int:
    return event.player if isinstance(event, PlayerRegistered) else encoded(event)


def read_file(
    path: Path,
    *,
    fmt: FileFormat | None = None,
    strict: bool = False,
    skip_bad_lines: bool = False,
    root: Path | None = None,
) -> FileRead:
    """``path`` read, converted (see `convert`) and encoded; never raises for a bad file.

    ``fmt``: read the file as this format instead of detecting it. ``root``: see `shown_path`.
    """
    shown = shown_path(path, root)
    sha = None
    data = b""
    found: FileFormat | None = None
    try:
        data = read_input(path, shown)
        sha = hashlib.sha256(data).hexdigest()
        name = Path(shown)
        found = fmt or detect_format(name, data)
        conversion = convert(name, data, found, strict=strict, skip_bad_lines=skip_bad_lines)
        events = conversion.events
        tid = slugify(name.stem)  # the job takes it unless another tournament has it
        return FileRead(
            shown,
            sha,
            format=found,
            created=encoded(conversion.created.model_copy(update={"tournament_id": tid})),
            tournament_id=tid,
            players=tuple(PlayerRow.of(p) for p in conversion.players),
            rows=tuple(_row(e) for e in events[1:]),
            metadata=conversion.metadata,
            warnings=tuple(str(w) for w in conversion.warnings),
            skipped=tuple(str(e) for e in conversion.skipped),
            accepted=tuple(str(a) for a in conversion.accepted),
            games=conversion.games or _game_count(events),
        )
    except IngestError as exc:  # unreadable (no digest then), or a fault of the file
        skippable = (
            not skip_bad_lines
            and found is not None
            and _skipping_takes(Path(shown), data, found, strict=strict)
        )
        return FileRead(shown, sha, error=str(exc), skippable=skippable)
    except Exception as exc:  # a bug in a reader: this file fails, the others go on
        return FileRead(shown, sha, error=internal_error(shown, exc))


def _skipping_takes(name: Path, data: bytes, fmt: FileFormat, *, strict: bool) -> bool:
    """Whether the file refused without ``skip_bad_lines`` converts with it, some result
    records left out: only bad records stopped it. Read from the bytes already in hand."""
    try:
        return bool(convert(name, data, fmt, strict=strict, skip_bad_lines=True).skipped)
    except IngestError:
        return False
    except Exception:  # a bug in a reader: the file's own line says so already
        return False


def shown_path(path: Path, root: Path | None = None) -> str:
    """How a file is named in messages and in the log's file record: as given, or relative to
    ``root`` (a server's upload folder: its temporary path is nobody's business).

    >>> shown_path(Path("/tmp/up-1/2/a.ELO"), Path("/tmp/up-1"))
    '2/a.ELO'
    """
    return display_path(path.relative_to(root) if root is not None else path)


def internal_error(shown: str, exc: BaseException) -> str:
    """The one line of a file that met a bug rather than a fault of its own."""
    return f"{shown}:0:0: internal error ({type(exc).__name__}), please report this file"


PROCESS_FILES = 256
"""Lists of at least this many files are read in worker processes (starting one costs about
a second of imports; a list this long takes far longer)."""
_CHUNK = 16
"""Files per task sent to a worker."""
_AHEAD = 8
"""Tasks under way at once per worker: what is read ahead of the job, and all it holds."""


def _read_chunk(read: Callable[[Path], FileRead], paths: Sequence[Path]) -> list[FileRead]:
    return [read(p) for p in paths]


def _worker_started(parent: int) -> None:
    # A killed job (kill -9) takes its workers with it; they hold nothing to save.
    die_with_parent(parent)
    # Ctrl-C is the job's to handle (it stops the pool); a worker has nothing to save.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    tune_process()


def _workers() -> int:
    # As many as the cores, at most 4: the job itself mostly waits for them (measured on 2
    # cores: 2 workers beat 1), and the store's server takes what they leave.
    return max(1, min(4, os.cpu_count() or 1))


def file_reads(
    files: Sequence[Path],
    *,
    fmt: FileFormat | None = None,
    strict: bool = False,
    skip_bad_lines: bool = False,
    workers: int | None = None,
    root: Path | None = None,
) -> Generator[tuple[Path, FileRead], None, None]:
    """Each of ``files`` with its `FileRead`, in order.

    A list of `PROCESS_FILES` or more is read by ``workers`` processes (default: one per
    core, at most 4) a few tasks ahead of the caller; a shorter one here, as it is asked
    for. Should a worker process die, the files not yet given out are read here.
    """
    read = functools.partial(
        read_file, fmt=fmt, strict=strict, skip_bad_lines=skip_bad_lines, root=root
    )
    if len(files) < PROCESS_FILES:
        for path in files:
            yield path, read(path)
        return
    chunks = [files[i : i + _CHUNK] for i in range(0, len(files), _CHUNK)]
    count = workers or _workers()
    pool = ProcessPoolExecutor(
        count,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=_worker_started,
        initargs=(os.getpid(),),
    )
    under_way: collections.deque[tuple[Sequence[Path], Future[list[FileRead]]]] = (
        collections.deque()
    )
    try:
        waiting = iter(chunks)
        for chunk in waiting:
            under_way.append((chunk, pool.submit(_read_chunk, read, chunk)))
            if len(under_way) >= count * _AHEAD:
                break
        while under_way:
            chunk, task = under_way.popleft()
            try:
                done = task.result()
            except BrokenProcessPool:  # a worker died (killed, out of memory): read here
                for rest in [chunk, *(c for c, _ in under_way), *waiting]:
                    for path in rest:
                        yield path, read(path)
                return
            for following in waiting:
                under_way.append((following, pool.submit(_read_chunk, read, following)))
                break
            yield from zip(chunk, done, strict=True)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
