"""A write that finds the store held by another process waits a bounded time, then answers 503
with ``Retry-After`` (issue 34, item 5: web writes during a CLI ingest waited up to 56 s and
the README promises 503 "busy" after a bounded wait).

A real `arbiter serve` with ``ARBITER_STORE_TIMEOUT=2``; another process holds the DuckDB file:
an authorised result is answered 503, ``Retry-After: 5``, one line saying the store is busy,
while the file is still held; once it is let go the same request lands.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.web.serving import Served, add_user, cli, new_event, serve

HOLD = """
import sys
from events.stores import open_store
store = open_store(sys.argv[1])
print("held", flush=True)
sys.stdin.read()
store.close()
"""


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Served, str]]:
    folder = tmp_path_factory.mktemp("busy")
    store = str(folder / "store.duckdb")
    new_event(store, ["Berg, Anna", "Dahl, Ola"])
    cli(store, "pair", "oslo")
    token = add_user(store, "td", "director", "oslo")
    server = serve(store, folder, env={"ARBITER_STORE_TIMEOUT": "2"})
    try:
        yield server, token
    finally:
        server.stop()


def test_busy_is_503_with_retry_after(served: tuple[Served, str]) -> None:
    server, token = served
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD, server.store],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=Path(__file__).parents[2],
    )  # fmt: skip
    url = server.url + "/api/tournaments/oslo/results"
    body = {"round": 1, "board": 1, "result": "1-0"}
    auth = {"authorization": f"Bearer {token}"}
    try:
        assert holder.stdout is not None
        assert holder.stdout.readline().strip() == "held"
        r = httpx.post(url, json=body, headers=auth, timeout=120)
        assert holder.poll() is None  # answered while the file was still held
        assert r.status_code == 503, r.text
        assert r.headers["retry-after"] == "5"
        assert "busy" in r.json()["error"]
    finally:
        holder.communicate("", timeout=30)
    again = httpx.post(url, json=body, headers=auth, timeout=120)
    assert again.status_code in (200, 201), again.text
