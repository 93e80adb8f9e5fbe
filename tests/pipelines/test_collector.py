"""The collector's bulk thresholds: set while an ingest runs, the previous ones put back."""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from events.stores import open_store
from pipelines.jobs import ingest as ingest_job
from pipelines.process.collector import BULK_THRESHOLDS, bulk_collection

ELO = (
    b"%%Tournament: T\n%%Country: NL\n%%Date: 01/02/2024\n%%Sender: x\n%_% 101, A, a\n"
    b"%_% 102, B, b\n101 (40)>(24) 102\n"
)


@pytest.fixture
def default_thresholds() -> Iterator[tuple[int, int, int]]:
    found = gc.get_threshold()
    gc.set_threshold(700, 10, 10)
    yield (700, 10, 10)
    gc.set_threshold(*found)


def test_the_thresholds_found_come_back_after_the_last_of_overlapping_blocks(
    default_thresholds: tuple[int, int, int],
) -> None:
    entered = threading.Event()
    leave = threading.Event()
    seen: list[tuple[int, int, int]] = []

    def other() -> None:
        with bulk_collection():
            entered.set()
            leave.wait(10)

    thread = threading.Thread(target=other)
    thread.start()
    entered.wait(10)
    with bulk_collection():
        seen.append(gc.get_threshold())
    seen.append(gc.get_threshold())  # the other block still runs
    leave.set()
    thread.join(10)
    assert seen == [BULK_THRESHOLDS, BULK_THRESHOLDS]
    assert gc.get_threshold() == default_thresholds


def test_an_ingest_runs_under_the_bulk_thresholds_and_puts_them_back(
    tmp_path: Path, default_thresholds: tuple[int, int, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "20240201_T.ELO"
    path.write_bytes(ELO)
    during: list[tuple[int, int, int]] = []
    prepare = ingest_job._Job.prepare

    def watched(self: ingest_job._Job, *args: object, **kwargs: object) -> object:
        during.append(gc.get_threshold())
        return prepare(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(ingest_job._Job, "prepare", watched)
    with open_store(str(tmp_path / "s.duckdb")) as store:
        report = ingest_job.ingest(store, [path])
    assert [r.status for r in report.files] == [ingest_job.Status.INGESTED]
    assert during == [BULK_THRESHOLDS]
    assert gc.get_threshold() == default_thresholds
