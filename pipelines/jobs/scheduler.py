"""`arbiter schedule`: the bimonthly rating-list run in one long-lived APScheduler 3.11 process.

Each run ingests the configured inbox, then computes and publishes every configured method as
of the run's due date (output ``<output_root>/<method>-<date>``). The log is the memory of the
schedule: on start, the latest due date is compared with the ``RatingListPublished`` events,
and a method whose list for that date is missing runs once, however many dates were missed
(coalesced: a list is a full recomputation, so only the latest one matters). That is why an
in-memory job store is enough; the store file is opened only while a run works, so directors
can use it between runs.

A FIDE run from imported lists rates the late reports the log shows, as `arbiter ratings run`
does (:func:`ratings.late_reports.late_reports`, through :func:`pipelines.jobs.ratings.run_list`);
the log records each in the run's ``RatingListPublished`` (``rated_late``) and the job's log
line names them.
"""

from __future__ import annotations

import datetime as dt
import logging
import re
import tomllib
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from events import stores
from events.errors import ArbiterError, UserError
from events.provenance import Origin, current_origin, set_origin
from events.store import Store
from pipelines.jobs.ratings import RunRequest, RunResult, publications, run_list
from pipelines.process.exits import one_line
from projections.games import GamesCache
from ratings.methods import Method

__all__ = [
    "JOB_ID",
    "ScheduleConfig",
    "ScheduledRun",
    "build_scheduler",
    "catch_up",
    "due_dates",
    "missing_runs",
    "run_until_interrupted",
    "scheduled_run",
]

JOB_ID = "rating-lists"
log = logging.getLogger(__name__)


class ScheduleError(UserError):
    """A schedule configuration that cannot work (bad cron, unknown time zone, bad file)."""


class ScheduleConfig(BaseModel):
    """What the scheduler runs, when and where; from a TOML file or command options."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    store: str | None = None
    """Event store file; default: the command line's ``--store`` / ``$ARBITER_STORE``."""
    inbox: Path | None = None
    """Folder of submitted result files, ingested before every run (none: no ingest)."""
    output_root: Path = Path("lists")
    methods: tuple[Method, ...] = (Method.WOF,)
    timezone: str = "UTC"
    cron: str = "30 3 1 1-11/2 *"
    """Crontab fields (minute hour day month weekday): default the 1st of odd months, 03:30."""
    misfire_grace_seconds: int = Field(3 * 24 * 3600, ge=1)
    """How late a run may still start after its time (the library default is 1 s)."""

    @field_validator("timezone")
    @classmethod
    def _zone(cls, value: str) -> str:
        try:
            ZoneInfo(value)
        except (ZoneInfoNotFoundError, ValueError):
            raise ValueError(f"unknown time zone '{value}'") from None
        return value

    @field_validator("cron")
    @classmethod
    def _cron(cls, value: str) -> str:
        from apscheduler.triggers.cron import CronTrigger

        try:
            CronTrigger.from_crontab(value, timezone=ZoneInfo("UTC"))
        except ValueError as exc:
            raise ValueError(f"bad cron '{value}': {exc}") from None
        return value

    @property
    def zone(self) -> ZoneInfo:
        return ZoneInfo(self.timezone)

    @classmethod
    def from_toml(cls, path: Path, **overrides: Any) -> ScheduleConfig:
        """The ``[schedule]`` table of a TOML file (or the whole file), then ``overrides``."""
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except OSError as exc:
            raise ScheduleError(f"{path}:0:0: cannot read: {exc.strerror}") from None
        except tomllib.TOMLDecodeError as exc:
            where = re.search(r"\(at line (\d+), column (\d+)\)", str(exc))
            line, col = where.groups() if where else ("0", "0")
            message = re.sub(r"\s*\(at .*\)$", "", str(exc))
            raise ScheduleError(f"{path}:{line}:{col}: {message}") from None
        table = data.get("schedule", data)
        merged = {**table, **{k: v for k, v in overrides.items() if v is not None}}
        return cls.from_options(str(path), **merged)

    @classmethod
    def from_options(cls, source: str = "", **values: Any) -> ScheduleConfig:
        """The configuration of ``values``; a value it refuses is a `ScheduleError`.

        ``source`` (the TOML file, or nothing for command options) starts the message.
        """
        try:
            return cls.model_validate(values)
        except ValidationError as exc:
            raise ScheduleError.from_validation(exc, source) from None

    def trigger(self) -> Any:
        from apscheduler.triggers.cron import CronTrigger

        return CronTrigger.from_crontab(self.cron, timezone=self.zone)


def due_dates(
    config: ScheduleConfig, start: dt.datetime, end: dt.datetime
) -> Iterator[dt.datetime]:
    """Fire times of the schedule in ``(start, end]`` (aware datetimes)."""
    trigger = config.trigger()
    fire: dt.datetime | None = trigger.get_next_fire_time(
        None, start + dt.timedelta(microseconds=1)
    )
    while fire is not None and fire <= end:
        yield fire
        fire = trigger.get_next_fire_time(fire, fire)


def latest_due(config: ScheduleConfig, now: dt.datetime) -> dt.datetime | None:
    """The last fire time at or before ``now`` within the past 13 months."""
    last = None
    for fire in due_dates(config, now - dt.timedelta(days=400), now):
        last = fire
    return last


@dataclass(frozen=True, slots=True)
class ScheduledRun:
    method: Method
    as_of: dt.date


def missing_runs(
    config: ScheduleConfig, published: dict[Method, set[dt.date]], now: dt.datetime
) -> list[ScheduledRun]:
    """The runs due at ``now``: the latest due date, for each method without a list of it."""
    due = latest_due(config, now.astimezone(config.zone))
    if due is None:
        return []
    as_of = due.date()
    return [ScheduledRun(m, as_of) for m in config.methods if as_of not in published.get(m, set())]


def _published(store: Store, methods: Sequence[Method]) -> dict[Method, set[dt.date]]:
    return {m: {p.as_of for p in publications(store, m)} for m in methods}


def _ingest_inbox(store: Store, inbox: Path) -> None:
    from pipelines.jobs import ingest as ingest_job

    links: list[Path] = []
    report = ingest_job.ingest(store, ingest_job.discover([inbox], links))
    for link in links:
        log.warning("%s: %s", link, ingest_job.LINK_NOT_FOLLOWED)
    log.info("inbox %s: %s", inbox, report.summary())


StoreOpener = Callable[[], AbstractContextManager[Store]]


def _opener(config: ScheduleConfig) -> StoreOpener:
    return lambda: stores.open_store(config.store)


def catch_up(
    config: ScheduleConfig,
    now: dt.datetime,
    open_store: StoreOpener | None = None,
) -> list[RunResult]:
    """Run whatever is due at ``now`` and not yet in the log; the store is open only meanwhile.

    Called on start (missed runs) and by the scheduled job itself (the run of that date).
    """
    opener = open_store or _opener(config)
    with opener() as store:
        runs = missing_runs(config, _published(store, config.methods), now)
        if not runs:
            return []
        if config.inbox is not None:
            _ingest_inbox(store, config.inbox)
        results = []
        with GamesCache.for_store(store) as cache:
            for run in runs:
                output = config.output_root / f"{run.method.value}-{run.as_of.isoformat()}"
                request = RunRequest(method=run.method, as_of=run.as_of, output=output)
                result = run_list(store, cache, request)
                log.info(
                    "%s list as of %s: %d players, sha256 %s",
                    run.method.value,
                    run.as_of,
                    result.players,
                    result.content_sha256[:12],
                )
                for report in result.late:
                    log.info("rated late: %s, ended %s", report.event, report.end)
                results.append(result)
        return results


def scheduled_run(config: dict[str, Any]) -> None:
    """The job APScheduler calls, by its textual reference (jobs must not be closures)."""
    parsed = ScheduleConfig.model_validate(config)
    set_origin(Origin(current_origin().actor, "scheduler"))
    catch_up(parsed, dt.datetime.now(parsed.zone))


def build_scheduler(config: ScheduleConfig) -> Any:
    """A ``BackgroundScheduler`` with the rating job registered under a fixed id.

    The command's main thread waits in short sleeps beside it (`run_until_interrupted`): a
    ``BlockingScheduler`` waits in one long lock acquire, and a Ctrl-C taken by another thread
    (DuckDB's, polars') then never wakes it (seen as a hung `arbiter schedule`)."""
    from apscheduler.events import EVENT_JOB_ERROR, EVENT_JOB_MISSED, JobExecutionEvent
    from apscheduler.schedulers.background import BackgroundScheduler

    scheduler = BackgroundScheduler(timezone=config.zone)
    scheduler.add_job(
        "pipelines.jobs.scheduler:scheduled_run",
        config.trigger(),
        id=JOB_ID,
        replace_existing=True,
        coalesce=True,
        max_instances=1,
        misfire_grace_time=config.misfire_grace_seconds,
        kwargs={"config": config.model_dump(mode="json")},
    )

    def report(event: JobExecutionEvent) -> None:
        exc = event.exception
        if isinstance(exc, ArbiterError):  # busy store, bad inbox file ...: the next run retries
            log.error("rating run failed: %s", exc)
        elif exc is not None:
            log.error(
                "rating run failed with an internal error: %s: %s - please report this",
                type(exc).__name__,
                one_line(exc),
            )
        else:
            log.warning("rating run of %s was missed", event.scheduled_run_time)

    scheduler.add_listener(report, EVENT_JOB_ERROR | EVENT_JOB_MISSED)
    return scheduler


def run_until_interrupted(scheduler: Any, tick: float = 0.2) -> None:
    """Start ``scheduler`` and block until Ctrl-C, then shut it down and raise
    KeyboardInterrupt (exit 130 in the CLI).

    Ctrl-C only sets a flag while the scheduler starts, runs and stops, so it never lands
    half-way through ``start()``; the main thread wakes every ``tick`` seconds, so a signal
    taken by another thread (DuckDB's, polars') still ends the wait promptly."""
    import signal
    import threading

    from pipelines.process.sigint import interrupted_already

    stop = threading.Event()
    previous = signal.signal(signal.SIGINT, lambda *_: stop.set())
    if interrupted_already():  # a Ctrl-C swallowed while the libraries were imported
        stop.set()
    try:
        scheduler.start()
        while scheduler.running and not stop.wait(tick):
            pass
    finally:
        if scheduler.running:
            scheduler.shutdown(wait=True)
        signal.signal(signal.SIGINT, previous)
    if stop.is_set():
        raise KeyboardInterrupt
