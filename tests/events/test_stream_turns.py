"""The writers of one stream take turns across processes on PostgreSQL (issue 45, item 3).

This process holds the stream of the writers benchmark's tournament (`Store.deciding`, as a
server does while a command decides and appends). An `arbiter result` on that tournament, in
another process with a one-second bound on waiting (``ARBITER_STORE_TIMEOUT=1``), cannot decide
meanwhile: it ends busy, exit 3 (the README's exit codes: run it again), and appends nothing;
an `arbiter result` on another tournament's stream is not held up. Released, the same command
lands, once.
"""

from __future__ import annotations

import os
import subprocess

from benchmarks.bench_writers import ARBITER, TID, appended, prepare
from events.postgres_store import PostgresStore
from pipelines.commands.base import stream_of
from tests.web.serving import new_event

BUSY_EXIT = 3  # RetryableError (README, exit codes)


def _result(url: str, tid: str, board: int) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [ARBITER, "--store", url, "--as", "td", "result", tid, "1", str(board), "1-0"],
        capture_output=True, text=True, timeout=120, check=False,
        env={**os.environ, "ARBITER_STORE_TIMEOUT": "1"},
    )  # fmt: skip


def test_a_held_stream_makes_another_process_wait_and_only_that_stream(postgres_url: str) -> None:
    prepare(postgres_url)
    other = new_event(postgres_url, ["A, One", "B, Two"], tid="other")
    with PostgresStore(postgres_url) as store:
        with store.deciding(stream_of(TID)):
            held = _result(postgres_url, TID, 7)
            assert held.returncode == BUSY_EXIT, held.stderr
            assert held.stderr.strip().count("\n") == 0, held.stderr  # one line
            free = subprocess.run(
                [ARBITER, "--store", postgres_url, "--as", "td", "pair", other],
                capture_output=True, text=True, timeout=120, check=False,
                env={**os.environ, "ARBITER_STORE_TIMEOUT": "1"},
            )  # fmt: skip
            assert free.returncode == 0, free.stderr
        assert appended(postgres_url)[("result", "1/7")] == 0
        landed = _result(postgres_url, TID, 7)
        assert landed.returncode == 0, landed.stderr
    assert appended(postgres_url)[("result", "1/7")] == 1
