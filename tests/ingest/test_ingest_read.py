"""Reading files in worker processes: the same reads as here, in order, and nothing lost when
a worker dies."""

from __future__ import annotations

import multiprocessing
import os
import signal
from pathlib import Path

from pipelines.ingest_job import discover
from pipelines.ingest_read import PROCESS_FILES, file_reads, read_file
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
