"""U+202E (right-to-left override) and the other bidirectional controls are refused in names at
every door (issue 34, item 8), by the one text rule (``events.text``, used by
``events.validate.text``): the command line, the JSON API of a real `arbiter serve`, and an
.ELO file; nothing appended. A name already stored with one is exported without it.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.web.serving import Served, add_user, new_event, serve

ARBITER = str(Path(sys.executable).parent / "arbiter")
NAME = "Evil, \u202eretsaM"
MESSAGE = "holds a bidirectional control (U+202E) at 7: 'Evil, \\u202eretsaM'"


def run(store: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [ARBITER, "--store", store, *args], capture_output=True, text=True, timeout=120, check=False
    )


def players(store: str) -> int:
    done = run(store, "player", "list", "oslo", "--format", "json")
    assert done.returncode == 0, done.stderr
    return done.stdout.count('"name"')


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Served, str]]:
    folder = tmp_path_factory.mktemp("bidi")
    store = str(folder / "store.duckdb")
    new_event(store, ["A, One", "B, Two"])
    token = add_user(store, "kari", "director", "oslo")
    served = serve(store, folder)
    yield served, token
    served.stop()


def test_the_command_line_refuses_it(site: tuple[Served, str]) -> None:
    served, _ = site
    before = players(served.store)
    done = run(served.store, "player", "add", "oslo", "--name", NAME)
    assert done.returncode == 1
    assert done.stderr.strip().splitlines() == [f"error: --name {MESSAGE}"]
    done = run(served.store, "tournament", "create", "--name", "Cup \u2066x", "--rounds", "3")
    assert done.returncode == 1
    assert "bidirectional control (U+2066)" in done.stderr
    assert players(served.store) == before


def test_the_api_refuses_it(site: tuple[Served, str]) -> None:
    served, token = site
    before = players(served.store)
    r = httpx.post(
        served.url + "/api/tournaments/oslo/players",
        json={"name": NAME},
        headers={"authorization": f"Bearer {token}"},
        timeout=60,
    )
    assert r.status_code == 422, r.text
    assert r.json()["error"] == f"name {MESSAGE}"
    assert players(served.store) == before
    # A right-to-left mark, which a Hebrew or Arabic name may need, is not a control.
    r = httpx.post(
        served.url + "/api/tournaments/oslo/players",
        json={"name": "\u05db\u05d4\u05df, \u05d3\u05d5\u05d3\u200f"},
        headers={"authorization": f"Bearer {token}"},
        timeout=60,
    )
    assert r.status_code == 201, r.text


def test_an_elo_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "19781104_A.ELO"
    path.write_text(
        "%%Tournament: T\n%%Country: World\n%%Date: 04/11/1978\n%%Sender: me\n\n"
        "%_%  11139, MARUOKA, hidenori, JPN, 1.0, 40, 1600\n"
        "%_%   8011, JACOBS, \u202elorac, USA, 0.0, 24, 1500\n\n"
        "  11139 (40)>(24)    8011\n",
        encoding="utf-8",
    )
    store = str(tmp_path / "store.duckdb")
    done = run(store, "ingest", str(path))
    assert done.returncode == 1
    assert done.stdout.splitlines()[0] == (
        f"{path}:7:21: first name holds a bidirectional control (U+202E) at 1 (found "
        "'\\u202elorac', expected a name without control characters or line separators)"
    )
    assert run(store, "tournament", "list", "--format", "json").stdout.strip() == "[]"
