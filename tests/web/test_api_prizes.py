"""``GET /api/tournaments/{id}/prizes`` on a real `arbiter serve`: the bytes of `arbiter prizes T
--format json`, following the log when the CLI sets a new prize list beside the server; 404
naming the command while the tournament has none."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.web.serving import Served, batch, cli, serve

TOML = """\
sharing = "hort"
[[prize]]
place = 1
amount = 100
item = "Cup"
[[prize]]
place = 2
amount = 50
"""


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Served, Path]]:
    folder = tmp_path_factory.mktemp("prizes")
    store = str(folder / "store.duckdb")
    batch(store, folder, [  # the set-up, in one process
        "tournament create --name 'Prize Open' --id po --system dutch --rounds 1 "
        "--start 2026-03-07",
        *(f"player add po --name '{name}' --rating {1800 + 50 * i}"
          for i, name in enumerate(("A, A", "B, B", "C, C", "D, D"))),
        "pair po",
        "result po 1 1 1-0",
        "result po 1 2 1-0",
    ])  # fmt: skip
    server = serve(store, folder)
    try:
        yield server, folder
    finally:
        server.stop()


def _get(server: Served) -> httpx.Response:
    return httpx.get(server.url + "/api/tournaments/po/prizes", timeout=30)


def _until(server: Served, status: int, body: bytes | None = None) -> httpx.Response:
    """The server follows the log: wait (bounded) until it answers as the CLI does."""
    deadline = time.monotonic() + 30
    while True:
        r = _get(server)
        if r.status_code == status and (body is None or r.content == body):
            return r
        assert time.monotonic() < deadline, (r.status_code, r.text)
        time.sleep(0.2)


def test_prizes_over_http_follow_the_log(served: tuple[Served, Path]) -> None:
    server, folder = served
    r = _get(server)
    assert r.status_code == 404
    assert r.json()["error"] == "po: no prize list yet (arbiter prizes po set prizes.toml)"

    path = folder / "prizes.toml"
    path.write_text(TOML, encoding="utf-8")
    cli(server.store, "prizes", "po", "set", str(path))
    expected = cli(server.store, "prizes", "po", "--format", "json").encode()
    r = _until(server, 200, expected)
    rows = r.json()
    # two winners on 1 point: Hort, 100 + 50 pooled: 50 + 37.5 and 25 + 37.5
    assert [(row["amount"], row["item"], row["shared_by"]) for row in rows] == [
        (87.5, "Cup", 2),
        (62.5, None, 2),
    ]
    assert all(set(row["player"]) == {"id", "name"} for row in rows)

    path.write_text(TOML.replace('"hort"', '"equal"'), encoding="utf-8")
    cli(server.store, "prizes", "po", "set", str(path))
    rows = _until(server, 200, cli(server.store, "prizes", "po", "-f", "json").encode()).json()
    assert [row["amount"] for row in rows] == [75, 75]
