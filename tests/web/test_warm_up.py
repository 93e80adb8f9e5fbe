"""`arbiter serve` answers while it reads the log (issue 34, item 8: on a 402k-event log the
port stayed silent for 23-28 s).

A real `arbiter serve` on a store of 120 round robins (about 11,000 events, made in-process as
set-up): polled from the moment it starts, every answer before the first 200 is 503 with
``Retry-After``: one JSON line for the API, a page that reloads itself for a browser; then the
API and the pages answer as usual. Before this change the first answer was the 200 itself.
"""

from __future__ import annotations

import datetime as dt
import subprocess
import time
from pathlib import Path

import httpx

from events.duckdb_store import DuckDBStore
from tests.pipelines._season import players, season
from tests.web.serving import ARBITER, free_port


def test_warming_up_then_serving(tmp_path: Path) -> None:
    store = tmp_path / "s.duckdb"
    with DuckDBStore(store) as s:
        first = dt.date(2000, 1, 1)
        season(s, players(120), [first + dt.timedelta(days=7 * i) for i in range(120)])
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    process = subprocess.Popen(
        [ARBITER, "--store", str(store), "serve", "--port", str(port)],
        stdout=subprocess.DEVNULL, stderr=(tmp_path / "serve.log").open("wb"),
    )  # fmt: skip
    try:
        api: list[httpx.Response] = []
        page: list[httpx.Response] = []
        deadline = time.monotonic() + 120
        while not api or api[-1].status_code != 200:
            assert process.poll() is None, (tmp_path / "serve.log").read_text()
            assert time.monotonic() < deadline
            try:
                # the page first: while the API still says 503, the page was asked earlier
                page.append(httpx.get(url + "/", headers={"accept": "text/html"}, timeout=30))
                api.append(httpx.get(url + "/api/tournaments", timeout=30))
            except httpx.TransportError:
                time.sleep(0.02)
        warming = api[:-1]
        assert warming, "the log was read before the port answered: nothing to see"
        for r in warming:
            assert r.status_code == 503
            assert r.headers["retry-after"] == "2"
            assert r.json() == {
                "error": "warming up: the server is reading the log; retry in a few seconds"
            }
        early = page[0]
        assert early.status_code == 503
        assert early.headers["content-type"].startswith("text/html")
        assert '<meta http-equiv="refresh" content="2">' in early.text
        assert len(api[-1].json()) == 120
        assert httpx.get(url + "/", headers={"accept": "text/html"}, timeout=30).status_code == 200
    finally:
        process.terminate()
        process.wait(timeout=30)
