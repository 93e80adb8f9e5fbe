"""Real processes against one DuckDB file: concurrent writers, a killed writer, a busy store."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

from events.duckdb_store import DuckDBStore

WRITER = textwrap.dedent(
    """
    import sys
    from events.duckdb_store import DuckDBStore
    from events.schema import PlayerRegistered, TournamentCreated
    from events.store import NewEvent, WrongExpectedVersion

    path, stream, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
    for i in range(count):
        while True:
            with DuckDBStore(path, busy_timeout=60) as store:
                version = store.stream_version(stream)
                event = (
                    TournamentCreated(tournament_id=stream, name=stream, game="chess",
                                      system="roundrobin", rounds=3)
                    if version < 0 else PlayerRegistered(player=version + 1, name=f"{stream} {i}")
                )
                try:
                    store.append(stream, [NewEvent(event, event_id=f"{stream}-{i}")], version)
                    break
                except WrongExpectedVersion:
                    continue
    """
)


def run_writer(tmp: Path, stream: str, count: int) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-c", WRITER, str(tmp / "log.duckdb"), stream, str(count)],
        stderr=subprocess.PIPE,
    )


def test_two_writers_lose_and_duplicate_nothing(tmp_path: Path) -> None:
    a = run_writer(tmp_path, "tournament-a", 40)
    b = run_writer(tmp_path, "tournament-b", 40)
    assert a.wait(timeout=300) == 0, a.stderr.read() if a.stderr else ""
    assert b.wait(timeout=300) == 0, b.stderr.read() if b.stderr else ""
    with DuckDBStore(tmp_path / "log.duckdb") as store:
        for stream in ("tournament-a", "tournament-b"):
            events = store.read_stream(stream)
            assert [e.version for e in events] == list(range(40))
            assert [e.event_id for e in events] == [f"{stream}-{i}" for i in range(40)]
        positions = [e.position for e in store.read_all()]
        assert len(positions) == 80
        assert len(set(positions)) == 80


HOLDER = textwrap.dedent(
    """
    import sys, time
    from events.duckdb_store import DuckDBStore
    store = DuckDBStore(sys.argv[1])
    print("ready", flush=True)
    time.sleep(30)
    """
)


def test_second_writer_gets_store_busy_with_pid(tmp_path: Path) -> None:
    path = tmp_path / "log.duckdb"
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(path)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None
        assert holder.stdout.readline().strip() == "ready"
        env = {**os.environ, "ARBITER_STORE": str(path), "ARBITER_STORE_TIMEOUT": "0.5"}
        started = time.monotonic()
        done = subprocess.run(
            [sys.executable, "-m", "pipelines", "tournament", "list"],
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        waited = time.monotonic() - started
        assert done.returncode == 3
        assert done.stderr.strip() == (
            f"error: store is busy (held by pid {holder.pid}); retry: {path}"
        )
        assert "Traceback" not in done.stderr
        assert waited >= 0.5  # it retried before giving up
    finally:
        holder.kill()
        holder.wait()


BRIEF_HOLDER = textwrap.dedent(
    """
    import sys, time
    from events.duckdb_store import DuckDBStore
    with DuckDBStore(sys.argv[1]) as store:
        print("ready", flush=True)
        time.sleep(float(sys.argv[2]))
    print("released", flush=True)
    """
)


def test_a_command_waits_for_a_scheduled_run_to_let_go(tmp_path: Path) -> None:
    """A director's command while a rating run holds the file: it waits, then succeeds."""
    path = tmp_path / "log.duckdb"
    holder = subprocess.Popen(
        [sys.executable, "-c", BRIEF_HOLDER, str(path), "2"], stdout=subprocess.PIPE, text=True
    )
    assert holder.stdout is not None
    assert holder.stdout.readline().strip() == "ready"
    env = {**os.environ, "ARBITER_STORE": str(path), "ARBITER_STORE_TIMEOUT": "60"}
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "pipelines", "tournament", "create", "--name", "Late Open"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    waited = time.monotonic() - started
    assert holder.wait(timeout=60) == 0
    assert holder.stdout.read().strip() == "released"
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "late-open"
    assert waited >= 1.0  # it waited for the holder rather than failing


BULK_KILLED = textwrap.dedent(
    """
    import sys
    import polars as pl
    from events.schema import PlayerRegistered, encode
    from events.store import BULK_COLUMNS
    from events.stores import open_store

    store = open_store(sys.argv[1])
    # N rows built as columns (one payload repeated): typed events one by one would take the
    # process seconds before its append begins, and the kill is about the append.
    n = int(sys.argv[2])
    payload = encode(PlayerRegistered(player=1, name="p"))
    frame = pl.DataFrame(
        {
            "stream_id": ["tournament-big"] * n,
            "stream_version": range(1, n + 1),
            "event_id": [f"big-{i}" for i in range(n)],
            "event_type": ["PlayerRegistered"] * n,
            "schema_version": [1] * n,
            "payload": [payload] * n,
            "metadata": ["{}"] * n,
        },
        schema=BULK_COLUMNS,
    )
    print("appending", flush=True)
    store.append_frame(frame)
    print("done", flush=True)
    """
)
"""A child that appends N events to the store at STORE (a DuckDB file or a PostgreSQL URL) in
one batch, saying "appending" first, for a test to kill it mid-append (argv: STORE N)."""


def test_kill_9_mid_batch_leaves_log_consistent(tmp_path: Path) -> None:
    path = tmp_path / "log.duckdb"
    with DuckDBStore(path) as store:
        from tests.events.test_store_contract import created

        store.append("tournament-big", [created("big")], -1)
        store.append("tournament-small", [created("small")], -1)
    proc = subprocess.Popen(
        [sys.executable, "-c", BULK_KILLED, str(path), "400000"], stdout=subprocess.PIPE, text=True
    )
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "appending"
    time.sleep(0.3)  # inside the bulk transaction
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    rest = proc.stdout.read()
    assert "done" not in rest, "the writer finished before the kill; the test proves nothing"
    with DuckDBStore(path) as store:
        versions = [e.version for e in store.read_stream("tournament-big")]
        # The killed transaction left nothing behind: no half batch.
        assert versions == [0]
        assert store.stream_version("tournament-small") == 0
        # The store is writable again and continues numbering.
        from tests.events.test_store_contract import player

        v = store.stream_version("tournament-big")
        store.append("tournament-big", [player(999_999)], v)
        positions = [e.position for e in store.read_all()]
        assert len(positions) == len(set(positions))
