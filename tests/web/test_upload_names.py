"""Uploads are named as the officer named them (issue 34, items 7 and 8).

On a real `arbiter serve`: two files called ``club.ELO`` in one ``POST /api/ingest`` are both
ingested and told apart (before: the second overwrote the first, ``files: 1``); the answer and
a bad file's error line name the uploads, never the server's temporary folder (before:
``/tmp/arbiter-upload-…/club.ELO``).
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import httpx
import pytest

from tests.elo_text import small_elo
from tests.web.serving import Served, add_user, cli, serve


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Served, str, str]]:
    folder = tmp_path_factory.mktemp("uploads")
    store = str(folder / "store.duckdb")
    cli(store, "store", "init")
    token = add_user(store, "ola", "officer")
    server = serve(store, folder)
    try:
        yield server, token, store
    finally:
        server.stop()


def test_same_named_uploads_are_kept_apart(served: tuple[Served, str, str]) -> None:
    server, token, store = served
    files = [
        ("files", ("club.ELO", small_elo("Club Spring").encode(), "text/plain")),
        ("files", ("club.ELO", small_elo("Club Autumn").encode(), "text/plain")),
        ("files", ("bad.ELO", b"%%Tournament: x\nnot a header\n", "text/plain")),
    ]
    r = httpx.post(
        server.url + "/api/ingest", files=files,
        headers={"authorization": f"Bearer {token}"}, timeout=120,
    )  # fmt: skip
    assert r.status_code == 422, r.text  # one file failed, the others landed
    answer = r.json()
    assert [(f["path"], f["status"]) for f in answer["files"]] == [
        ("club.ELO", "ingested"),
        ("2/club.ELO", "ingested"),
        ("bad.ELO", "failed"),
    ]
    assert answer["files"][2]["error"].startswith("bad.ELO:2:1: bad header line")
    assert "arbiter-upload" not in r.text
    assert "/tmp" not in r.text
    names = {t["name"] for t in json.loads(cli(store, "tournament", "list", "-f", "json"))}
    assert names == {"Club Spring", "Club Autumn"}
