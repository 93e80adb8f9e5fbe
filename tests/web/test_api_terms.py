"""API answers name fields, never command-line options, on a real `arbiter serve`.

A refusal that names an input says it the door's way (events.errors.Naming): the API by the
field's own name (``rounds``, ``correct``, ``bye``), the command line by its option
(``--rounds``). Driven over HTTP; the same refusal through `arbiter` keeps its option.
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterator

import httpx
import pytest

from tests.web.serving import ARBITER, Served, add_user, batch, serve


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Served, dict[str, str]]]:
    folder = tmp_path_factory.mktemp("terms")
    store = str(folder / "store.duckdb")
    batch(store, folder, [  # the set-up, in one process
        "tournament create --name RR --id rr --system roundrobin",
        "tournament create --name Sw --id sw --system dutch",
        *(f"player add rr --name '{name}'" for name in ("A, A", "B, B", "C, C")),
        *(f"player add sw --name '{name}'" for name in ("A, A", "B, B", "C, C", "D, D")),
        "pair sw",
        "result sw 1 1 1-0",
    ])  # fmt: skip
    tokens = {tid: add_user(store, f"td-{tid}", "director", tid) for tid in ("rr", "sw")}
    server = serve(store, folder)
    try:
        yield server, tokens
    finally:
        server.stop()


def _post(
    served: tuple[Served, dict[str, str]], path: str, body: dict[str, object]
) -> httpx.Response:
    server, tokens = served
    token = tokens[path.split("/")[2]]
    return httpx.post(
        server.url + "/api" + path, json=body, headers={"authorization": f"Bearer {token}"}
    )


def test_a_pairing_refusal_names_the_field(served: tuple[Served, dict[str, str]]) -> None:
    r = _post(served, "/tournaments/rr/pair", {})
    assert r.status_code == 400, r.text
    assert r.json()["error"] == (
        "rr: a round robin of 3 players has 3 rounds per cycle, "
        "but the tournament was created with rounds 5"
    )
    done = subprocess.run(
        [ARBITER, "--store", served[0].store, "pair", "rr"],
        capture_output=True, text=True, check=False, timeout=120,
    )  # fmt: skip
    assert done.returncode == 1
    assert done.stderr.strip().endswith("but the tournament was created with --rounds 5")


def test_a_result_already_entered_names_the_field(served: tuple[Served, dict[str, str]]) -> None:
    r = _post(served, "/tournaments/sw/results", {"round": 1, "board": 1, "result": "0-1"})
    assert r.status_code == 400, r.text
    message = r.json()["error"]
    assert message == "sw: round 1 board 1 already has result 1-0; use correct to change it"
    assert "--" not in message
