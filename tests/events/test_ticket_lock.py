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
