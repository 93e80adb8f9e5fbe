"""The DuckDB store's queue: processes get the file in the order they asked for it."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from events.ticket_lock import TicketLock

WAITER = """
import sys, time
from events.stores import open_store
with open_store(sys.argv[1]) as store:
    print(sys.argv[2], flush=True)
"""


def test_waiting_processes_open_the_store_in_arrival_order(tmp_path: Path) -> None:
    store = str(tmp_path / "log.duckdb")
    holder = TicketLock(os.path.realpath(store) + ".queue")
    assert holder.acquire(timeout=5)  # this test holds the turn while the others queue
    order = tmp_path / "order.txt"
    env = {**os.environ, "ARBITER_STORE_TIMEOUT": "60"}
    waiters = []
    with order.open("w") as out:
        for name in "abcde":
            waiters.append(
                subprocess.Popen([sys.executable, "-c", WAITER, store, name], stdout=out, env=env)
            )
            # wait until it holds its ticket before starting the next one
            deadline = time.monotonic() + 30
            while _tickets(store) < len(waiters) + 1 and time.monotonic() < deadline:
                time.sleep(0.01)
        holder.release()
        for w in waiters:
            assert w.wait(timeout=120) == 0
    assert order.read_text().split() == list("abcde")


def _tickets(store: str) -> int:
    raw = Path(os.path.realpath(store) + ".queue").read_bytes()[:8]
    return int.from_bytes(raw, sys.byteorder) if len(raw) == 8 else 0


def test_a_killed_holder_does_not_block_the_queue(tmp_path: Path) -> None:
    path = str(tmp_path / "q")
    child = subprocess.Popen(
        [sys.executable, "-c",
         "import sys, time; from events.ticket_lock import TicketLock; "
         "t = TicketLock(sys.argv[1]); t.acquire(5); print('in', flush=True); time.sleep(60)",
         path],
        stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert child.stdout is not None
    assert child.stdout.readline().strip() == "in"
    late = TicketLock(path)
    assert not late.acquire(timeout=0.2)
    assert late.holder == child.pid
    child.kill()
    child.wait()
    assert TicketLock(path).acquire(timeout=5)


HOLDER = """
import os, sys, time
from events.schema import FileIngested
from events.store import NewEvent
from events.stores import open_store
with open_store(sys.argv[1]) as store:  # held for the whole run, as a long ingest holds it
    print("ready", flush=True)
    until = time.monotonic() + 300
    version = -1
    while time.monotonic() < until and not os.path.exists(sys.argv[2]):
        event = FileIngested(sha256="0" * 64, path="x", format="elo")
        store.append("bench-holder", [NewEvent(event)], version)
        version += 1
        time.sleep(0.05)
print(version + 1, flush=True)
"""


def test_a_reader_gets_in_while_a_writer_holds_the_store(tmp_path: Path) -> None:
    """A writer that keeps the DuckDB file open until told to stop gives way at its next store
    operation to the director's `standings` queued behind it, then carries on."""
    from tests.events.test_store_cli import director_session

    store = str(tmp_path / "log.duckdb")
    tid = director_session(store)
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, store, str(tmp_path / "stop")],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None
        assert holder.stdout.readline().strip() == "ready"
        env = {**os.environ, "ARBITER_STORE": store, "ARBITER_STORE_TIMEOUT": "5"}
        for command in (["standings", tid], ["log", tid], ["verify"]):
            done = subprocess.run(
                [sys.executable, "-m", "pipelines", *command],
                env=env, capture_output=True, text=True, timeout=120, check=False,
            )  # fmt: skip
            assert done.returncode == 0, (command, done.stderr)
        assert holder.poll() is None  # the writer still runs: the readers got in meanwhile
        (tmp_path / "stop").touch()
        appended = int(holder.stdout.readline())
        assert holder.wait(timeout=60) == 0
        assert appended > 10
    finally:
        holder.kill()
        holder.wait()
