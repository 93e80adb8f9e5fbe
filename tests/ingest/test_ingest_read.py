"""Reading files in worker processes: the same reads as here, in order, and nothing lost when
a worker dies."""

from __future__ import annotations

import multiprocessing
import os
import signal
from pathlib import Path
from typing import Any

import pytest

from events.duckdb_store import DuckDBStore
from ingest import limits
from pipelines.jobs import ingest_read
from pipelines.jobs.ingest import Status, discover, ingest
from pipelines.jobs.ingest_read import PROCESS_FILES, file_reads, read_file
from tests.conftest import require_testdata


def _files(tmp_path: Path) -> list[Path]:
    archive = discover([require_testdata("othello", "elo")])[:PROCESS_FILES]
    garbage = tmp_path / "garbage.ELO"
    garbage.write_bytes(b"\x00\x01 not a result file\n")
    # A bad file, a missing one and a duplicate among good ones: each read the same way.
    return [*archive[:100], garbage, tmp_path / "missing.ELO", archive[0], *archive[100:]]


def test_worker_processes_read_what_this_process_reads(tmp_path: Path) -> None:
    files = _files(tmp_path)
    here = [read_file(p) for p in files]
    away = list(file_reads(files, workers=2))
    assert [p for p, _ in away] == files
    assert [r for _, r in away] == here
    garbage, missing = here[100], here[101]
    assert garbage.error is not None
    assert garbage.error.startswith(f"{garbage.shown}:")
    assert missing.sha256 is None
    assert missing.error is not None
    assert "missing.ELO" in missing.error
    assert here[102] == here[0]
    assert here[0].rows


def test_a_killed_worker_leaves_its_files_to_this_process(tmp_path: Path) -> None:
    files = _files(tmp_path)
    reads = file_reads(files, workers=1)
    got = [next(reads)]
    for child in multiprocessing.active_children():
        os.kill(child.pid or 0, signal.SIGKILL)
    got.extend(reads)
    assert [p for p, _ in got] == files
    assert [r for _, r in got] == [read_file(p) for p in files]


def test_a_short_list_is_read_here(tmp_path: Path) -> None:
    files = _files(tmp_path)[: PROCESS_FILES - 1]
    before = set(multiprocessing.active_children())
    reads = file_reads(files)
    next(reads)
    assert set(multiprocessing.active_children()) == before
    assert len(list(reads)) == len(files) - 1


def test_a_bug_fails_its_file_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    files = discover([require_testdata("othello", "elo")])[:3]
    real_convert = ingest_read.convert

    def convert(name: Path, data: bytes, *args: Any, **kwargs: Any) -> Any:
        if name.name == files[1].name:
            raise RuntimeError("a bug")
        return real_convert(name, data, *args, **kwargs)

    def read_input(path: Path, shown: str) -> bytes:
        if path == files[2]:
            raise ValueError("another bug")
        return limits.read_input(path, shown)

    monkeypatch.setattr(ingest_read, "convert", convert)
    monkeypatch.setattr(ingest_read, "read_input", read_input)
    report = ingest(DuckDBStore(":memory:"), files)
    assert [f.status for f in report.files] == [Status.INGESTED, Status.FAILED, Status.FAILED]
    assert report.files[1].error == (
        f"{report.files[1].path}:0:0: internal error (RuntimeError), please report this file"
    )
    assert report.files[2].error == (
        f"{report.files[2].path}:0:0: internal error (ValueError), please report this file"
    )
