"""The two defects of issue 31, each at the door where it was: the API and a CSV import
accepted a federation, a title and a FIDE id the command line refuses (and the bad values went
into the FIDE TRF export); `player import` gave a new player the id of a removed one."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.web.serving import ARBITER, Served, add_user, batch, cli, serve

BAD = [("federation", "XXX"), ("title", "ZZ"), ("fide_id", "abc")]


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Served, str, Path]]:
    folder = tmp_path_factory.mktemp("one-rule")
    store = str(folder / "store.duckdb")
    batch(store, folder, [  # the set-up, in one process
        "tournament create --name T --id t --system dutch",
        "player add t --name 'Berg, Anna' --rating 2311",
    ])  # fmt: skip
    token = add_user(store, "kari", "director", "t")
    served = serve(store, folder)
    try:
        yield served, token, folder
    finally:
        served.stop()


def trf(store: str) -> str:
    return cli(store, "export", "t", "--format", "trf")


@pytest.mark.parametrize(("field", "value"), BAD)
def test_the_api_refuses_what_the_cli_refuses(
    site: tuple[Served, str, Path], field: str, value: str
) -> None:
    served, token, _ = site
    before = trf(served.store)
    r = httpx.post(
        served.url + "/api/tournaments/t/players",
        json={"name": "Eik, Ola", field: value},
        headers={"authorization": f"Bearer {token}"},
    )
    assert r.status_code == 422, r.text
    assert r.json()["error"].startswith(f"{field}: ")
    assert trf(served.store) == before


@pytest.mark.parametrize(("field", "value"), BAD)
def test_a_csv_import_refuses_what_the_cli_refuses(
    site: tuple[Served, str, Path], field: str, value: str
) -> None:
    served, _, folder = site
    before = trf(served.store)
    path = folder / f"bad-{field}.csv"
    path.write_text(f'name,{field}\n"Eik, Ola",{value}\n', encoding="utf-8")
    done = subprocess.run(
        [ARBITER, "--store", served.store, "player", "import", "t", str(path)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 1
    assert done.stderr.startswith(f"error: {path}:2:2: {field}: ")
    assert trf(served.store) == before


def test_an_import_never_gives_a_removed_players_id(tmp_path: Path) -> None:
    store = str(tmp_path / "store.duckdb")
    batch(store, tmp_path, [  # the set-up, in one process
        "tournament create --name R --id r --system dutch",
        *(f"player add r --name '{name}'" for name in ("A, One", "B, Two", "C, Three")),
        "player remove r 3",
    ])  # fmt: skip
    path = tmp_path / "late.csv"
    path.write_text('name\n"D, Four"\n', encoding="utf-8")
    assert cli(store, "player", "import", "r", str(path)).split() == ["4"]
    assert cli(store, "player", "add", "r", "--name", "E, Five").split() == ["5"]
