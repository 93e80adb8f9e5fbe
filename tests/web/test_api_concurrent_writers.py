"""Eight directors' clients writing to one tournament through the API at once (issue 34, item 5).

A real `arbiter serve` on a DuckDB file and on a throwaway PostgreSQL database; the tournament
of the writers benchmark (400 players, round 1 paired). Eight clients, each with the
director's token, post at once: a late entry, a result on a board of their own, another entry,
another result. Every answer is 201, or 503 with ``Retry-After`` (the store busy), after
which the client waits as told and sends again until it lands. Then the log, read back with
`arbiter log`, holds every request's event exactly once and nothing else.
"""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest

from benchmarks.bench_writers import TID, Key, appended, prepare
from tests.web.serving import add_user, serve

CLIENTS = 8
EACH = 4


@pytest.fixture(params=["duckdb", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "duckdb":
        return str(tmp_path / "s.duckdb")
    url: str = request.getfixturevalue("postgres_url")
    return url


def _client(url: str, token: str, writer: int) -> list[tuple[Key, list[int]]]:
    """The writer's requests: what each appends, and the statuses it got until it landed."""
    done: list[tuple[Key, list[int]]] = []
    with httpx.Client(base_url=url, timeout=120) as client:
        for step in range(EACH):
            board = writer + 1 + CLIENTS * (step // 2)
            if step % 2:
                key: Key = ("result", f"1/{board}")
                path, body = "results", {"round": 1, "board": board, "result": "1-0"}
            else:
                name = f"Writer{writer}, Api{step}"
                key, path, body = ("add", name), "players", {"name": name, "rating": 1500}
            statuses: list[int] = []
            while not statuses or statuses[-1] == 503:
                r = client.post(
                    f"/api/tournaments/{TID}/{path}",
                    json=body,
                    headers={"authorization": f"Bearer {token}"},
                )
                statuses.append(r.status_code)
                if r.status_code == 503:
                    assert r.headers.get("retry-after", "").isdigit(), r.text
                    time.sleep(int(r.headers["retry-after"]))
            done.append((key, statuses))
    return done


def test_eight_api_writers_all_land_once(store: str, tmp_path: Path) -> None:
    prepare(store)
    token = add_user(store, "td", "director", TID)
    served = serve(store, tmp_path)
    try:
        with ThreadPoolExecutor(CLIENTS) as pool:
            sent = [
                r
                for rs in pool.map(lambda w: _client(served.url, token, w), range(CLIENTS))
                for r in rs
            ]
    finally:
        served.stop()
    assert len(sent) == CLIENTS * EACH
    for key, statuses in sent:
        assert statuses[-1] in (200, 201), (key, statuses)
        assert set(statuses[:-1]) <= {503}, (key, statuses)
    found = appended(store)
    assert {key: found[key] for key, _ in sent} == {key: 1 for key, _ in sent}
    assert sum(found.values()) == CLIENTS * EACH
