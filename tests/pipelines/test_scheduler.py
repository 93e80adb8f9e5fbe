"""The scheduler: due dates, catch-up of missed runs from the log (coalesced), configuration.

Time is injected: nothing here sleeps or reads the wall clock.
"""

from __future__ import annotations

import contextlib
import datetime as dt
from collections.abc import Iterator
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from pydantic import ValidationError

from events.duckdb_store import DuckDBStore
from events.store import Store
from pipelines.jobs.ratings import publications
from pipelines.jobs.scheduler import (
    JOB_ID,
    ScheduleConfig,
    ScheduledRun,
    ScheduleError,
    build_scheduler,
    catch_up,
    due_dates,
    missing_runs,
)
from ratings.methods import Method
from tests.pipelines._season import monthly, players, season

PARIS = ZoneInfo("Europe/Paris")


def at(year: int, month: int, day: int, hour: int = 0, minute: int = 0) -> dt.datetime:
    return dt.datetime(year, month, day, hour, minute, tzinfo=PARIS)


def test_default_schedule_is_the_first_of_odd_months_at_0330() -> None:
    config = ScheduleConfig(timezone="Europe/Paris")
    fires = list(due_dates(config, at(2024, 12, 15), at(2025, 12, 31)))
    assert fires == [at(2025, m, 1, 3, 30) for m in (1, 3, 5, 7, 9, 11)]
    assert fires[2].utcoffset() == dt.timedelta(hours=2)  # summer time: still 03:30 local


def test_missed_runs_coalesce_to_the_latest_due_date() -> None:
    config = ScheduleConfig(timezone="Europe/Paris", methods=(Method.WOF, Method.FIDE))
    published = {Method.WOF: {dt.date(2025, 1, 1)}, Method.FIDE: {dt.date(2025, 5, 1)}}
    # Down from February to mid-May: March and May were missed; only May runs, and only
    # for the method that lacks it.
    assert missing_runs(config, published, at(2025, 5, 10)) == [
        ScheduledRun(Method.WOF, dt.date(2025, 5, 1))
    ]
    assert missing_runs(config, published, at(2025, 5, 1, 3, 29)) == [
        ScheduledRun(Method.WOF, dt.date(2025, 3, 1)),
        ScheduledRun(Method.FIDE, dt.date(2025, 3, 1)),
    ]


@pytest.fixture
def store(tmp_path: Path) -> Iterator[DuckDBStore]:
    s = DuckDBStore(tmp_path / "log.duckdb")
    season(s, players(24), monthly(dt.date(2024, 6, 8), 10))
    yield s
    s.close()


def test_catch_up_runs_once_then_waits_for_the_next_date(
    store: DuckDBStore, tmp_path: Path
) -> None:
    config = ScheduleConfig(timezone="Europe/Paris", output_root=tmp_path / "lists")
    opened: list[int] = []

    @contextlib.contextmanager
    def opener() -> Iterator[Store]:
        opened.append(1)
        yield store

    (result,) = catch_up(config, at(2025, 4, 20, 12, 0), opener)  # Jan and Mar missed
    assert result.output == tmp_path / "lists" / "wof-2025-03-01"
    assert [p.as_of for p in publications(store, Method.WOF)] == [dt.date(2025, 3, 1)]
    assert catch_up(config, at(2025, 4, 30, 9, 0), opener) == []  # restarted: nothing due
    assert catch_up(config, at(2025, 5, 1, 3, 29), opener) == []
    (may,) = catch_up(config, at(2025, 5, 1, 3, 30), opener)
    assert may.request.as_of == dt.date(2025, 5, 1)
    assert may.previous is not None
    assert may.previous.as_of == dt.date(2025, 3, 1)
    assert len(opened) == 4  # the store is opened for each check, never kept open


def test_scheduler_registers_one_coalescing_job() -> None:
    config = ScheduleConfig(timezone="Europe/Paris", misfire_grace_seconds=3600)
    scheduler = build_scheduler(config)
    (job,) = scheduler.get_jobs()
    assert job.id == JOB_ID
    assert (job.coalesce, job.max_instances, job.misfire_grace_time) == (True, 1, 3600)
    assert job.func_ref == "pipelines.jobs.scheduler:scheduled_run"
    assert job.trigger.get_next_fire_time(None, at(2025, 7, 2)) == at(2025, 9, 1, 3, 30)
    assert ScheduleConfig.model_validate(job.kwargs["config"]) == config


def test_config_from_toml_with_overrides(tmp_path: Path) -> None:
    path = tmp_path / "arbiter.toml"
    path.write_text(
        '[schedule]\ninbox = "inbox"\nmethods = ["wof", "egf"]\ntimezone = "Asia/Tokyo"\n'
        'cron = "0 4 1 2-12/2 *"\n'
    )
    config = ScheduleConfig.from_toml(path, output_root=tmp_path / "out", timezone=None)
    assert config.methods == (Method.WOF, Method.EGF)
    assert config.inbox == Path("inbox")
    assert config.output_root == tmp_path / "out"
    tokyo = ZoneInfo("Asia/Tokyo")
    start, end = dt.datetime(2025, 1, 1, tzinfo=tokyo), dt.datetime(2025, 5, 1, tzinfo=tokyo)
    assert [f.date() for f in due_dates(config, start, end)] == [
        dt.date(2025, 2, 1),
        dt.date(2025, 4, 1),
    ]


def test_config_errors_name_the_place(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text('[schedule]\ncron = "30 3 1 *\n')
    with pytest.raises(ScheduleError, match=r"bad\.toml:2:\d+: "):
        ScheduleConfig.from_toml(path)
    with pytest.raises(ValidationError, match="unknown time zone 'Mars/Olympus'"):
        ScheduleConfig(timezone="Mars/Olympus")
    with pytest.raises(ValidationError, match="bad cron"):
        ScheduleConfig(cron="every other tuesday")


def test_a_run_ingests_the_inbox_first(tmp_path: Path) -> None:
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    # A round robin of ten where each player beats the next four: one strong component.
    lines = [
        f"{9000 + i} (40)>(24) {9000 + j}"
        if (j - i) % 10 <= 4
        else f"{9000 + i} (24)<(40) {9000 + j}"
        for i in range(10)
        for j in range(i + 1, 10)
    ]
    (inbox / "20250210_Club.ELO").write_text(
        "%%Tournament: Club\n%%Country: France\n%%Date: 10/02/2025\n%%Sender: test\n\n"
        + "\n".join(lines)
        + "\n",
        encoding="latin-1",
    )
    config = ScheduleConfig(
        store=str(tmp_path / "log.duckdb"), inbox=inbox, output_root=tmp_path / "lists"
    )
    (result,) = catch_up(config, at(2025, 3, 2))
    assert result.request.as_of == dt.date(2025, 3, 1)
    listed = (result.output / "ratings.csv").read_text().splitlines()
    assert sorted(line.split(",")[1] for line in listed[1:]) == [
        f"wof:{9000 + i}" for i in range(10)
    ]
    with DuckDBStore(config.store) as store:
        assert store.streams("file-")
