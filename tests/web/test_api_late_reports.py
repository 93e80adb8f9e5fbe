"""The API's rating run finds late reports from the log, as `arbiter ratings run` does.

Over HTTP on a real `arbiter serve`: F-P05's lists imported and its TRF files ingested through
`arbiter` (the officer's order), then ``POST /api/ratings/run`` for the October 2026 FIDE list:
the August tournament, recorded after the September list, is answered as rated late; the run
counts each of the period's games once (39, FIDE's published count). ``not_late`` overrides.
"""

from __future__ import annotations

import shlex
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.cli.fide_files import Json, published_case, read_reference, write_list, write_trf
from tests.web.serving import Served, add_user, batch, serve


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Served, str, Json]]:
    folder: Path = tmp_path_factory.mktemp("late")
    case = next(
        c for c in read_reference("published_calculations.json")["cases"] if c["id"] == "F-P05"
    )
    files = published_case(case)
    store = str(folder / "store.duckdb")
    lines = []  # the set-up, in one `arbiter batch`
    for day, rows in sorted(files.lists.items()):
        path = write_list(folder / f"list-{day:%Y-%m}.xml", rows)
        lines.append(f"ratings import {shlex.quote(str(path))} --date {day.isoformat()}")
    inbox = folder / "inbox"
    inbox.mkdir()
    for name, start, end, players in files.events:
        write_trf(inbox / f"{name}.trf", name, start, end, players)
    batch(store, folder, [*lines, f"ingest {shlex.quote(str(inbox))}"])
    token = add_user(store, "ola", "officer")
    server = serve(store, folder)
    try:
        yield server, token, case
    finally:
        server.stop()


def _run(served: tuple[Served, str, Json], body: dict[str, object]) -> httpx.Response:
    server, token, _ = served
    return httpx.post(
        server.url + "/api/ratings/run", json=body,
        headers={"authorization": f"Bearer {token}"}, timeout=180,
    )  # fmt: skip


def test_the_api_run_rates_the_late_report(served: tuple[Served, str, Json]) -> None:
    case = served[2]
    first = case["tournaments"][0]
    r = _run(served, {"method": "fide", "as_of": "2026-10-01", "publish": False})
    assert r.status_code == 200, r.text
    answer = r.json()
    assert answer["rated_late"] == [
        {"event": f"e{first['event_id']}", "ended": first["end"], "reason": "log"}
    ]
    assert answer["games"] == sum(int(t["n"]) for t in case["tournaments"]) == 39
    assert answer["compared_with"] == "the imported list of 2026-09-01"


def test_not_late_over_the_api(served: tuple[Served, str, Json]) -> None:
    case = served[2]
    first = case["tournaments"][0]
    body = {"method": "fide", "as_of": "2026-10-01", "publish": False,
            "not_late": [f"e{first['event_id']}"]}  # fmt: skip
    r = _run(served, body)
    assert r.status_code == 200, r.text
    assert r.json()["rated_late"] == []
    assert r.json()["games"] == 39 - int(first["n"])
    r = _run(served, {**body, "not_late": ["nowhere"]})
    assert r.status_code in (400, 422), r.text
    assert r.json()["error"].endswith(
        "not_late: found tournament 'nowhere', expected a tournament of the run"
    )
