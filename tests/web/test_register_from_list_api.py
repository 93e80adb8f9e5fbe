"""Registration from an imported list at the API and form doors of a real `arbiter serve`:
``{"fide_id": ...}`` alone fills the player from the FIDE list; an id not on the list is a 422
naming ``fide_id`` and appends nothing; ``force`` (a namesake) does not let it through,
``not_on_list`` does; the manage form does the same."""

from __future__ import annotations

import json
from collections.abc import Iterator

import httpx
import pytest

from events.duckdb_store import DuckDBStore
from tests.cli.list_files import fide_xml
from tests.cli.test_rating_list_import_cli import CARLSEN, HOU
from tests.web.serving import Served, add_user, cli, serve
from tests.web.test_validation_doors import ERROR, _login


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Served, str, str]]:
    folder = tmp_path_factory.mktemp("fromlist")
    store = str(folder / "store.duckdb")
    cli(store, "tournament", "create", "--name", "T", "--id", "t", "--rounds", "5")
    path = fide_xml(folder / "players_list_xml_foa.xml", [CARLSEN, HOU])
    cli(store, "ratings", "import", str(path), "--date", "2025-11-01")
    # The rating update's own tournament, entered here so that its test does not depend on the
    # players the other tests register (xdist may run it on another worker).
    cli(store, "tournament", "create", "--name", "U", "--id", "u", "--rounds", "5")
    cli(store, "player", "add", "u", "--fide-id", "1503014")
    cli(store, "player", "add", "u", "--fide-id", "99999999", "--name", "New, Ann", "--not-on-list")
    token = add_user(store, "kari", "director", "t", password="kari-secret-1")
    u_token = add_user(store, "lena", "director", "u")
    served = serve(store, folder)
    try:
        yield served, token, u_token
    finally:
        served.stop()


def version(store: str) -> int:
    s = DuckDBStore(store)
    try:
        return s.stream_version("tournament-t")
    finally:
        s.close()


def test_the_api_fills_from_the_list_and_refuses_an_unlisted_id(
    site: tuple[Served, str, str],
) -> None:
    served, token, _ = site
    auth = {"authorization": f"Bearer {token}"}
    url = served.url + "/api/tournaments/t/players"
    r = httpx.post(url, json={"fide_id": "1503014"}, headers=auth)
    assert r.status_code == 201, r.text
    card = httpx.get(f"{url}/{r.json()['player']}", headers=auth).json()
    assert json.dumps(card).count("Carlsen, Magnus") >= 1
    before = version(served.store)
    r = httpx.post(url, json={"fide_id": "99999999"}, headers=auth)
    assert (r.status_code, r.json()) == (
        422,
        {
            "error": "fide_id 99999999 is not on the fide-standard list of 2025-11-01 "
            "(not_on_list registers a player new to FIDE)"
        },
    )
    r = httpx.post(
        url, json={"fide_id": "99999999", "name": "New, Ann", "force": True}, headers=auth
    )
    assert r.status_code == 422, r.text
    assert (httpx.post(url, json={}, headers=auth).json()) == {"error": "name: missing"}
    assert version(served.store) == before
    body = {"fide_id": "99999999", "name": "New, Ann", "not_on_list": True}
    assert httpx.post(url, json=body, headers=auth).status_code == 201


def test_the_form_fills_from_the_list(site: tuple[Served, str, str]) -> None:
    served, _, _ = site
    jar = _login(served.url, "kari", "kari-secret-1")
    headers = {"cookie": "; ".join(f"{k}={v}" for k, v in jar.items())}
    path = served.url + "/t/t/manage/player"
    data = {"fide_id": "555", "csrf_token": jar["arbiter_csrf"]}
    r = httpx.post(path, data=data, headers=headers)
    found = ERROR.search(r.text)
    assert r.status_code == 400
    assert found is not None
    assert found.group(1).startswith("fide_id 555 is not on the fide-standard list")
    data = {"fide_id": "8602980", "csrf_token": jar["arbiter_csrf"]}
    r = httpx.post(path, data=data, headers=headers, follow_redirects=True)
    assert r.status_code == 200, r.text[:300]
    listed = json.loads(cli(served.store, "player", "list", "t", "-f", "json"))
    assert ("Hou, Yifan", 2633) in [(p["name"], p["rating"]) for p in listed]


def test_update_ratings_at_the_api(site: tuple[Served, str, str]) -> None:
    served, _, token = site
    auth = {"authorization": f"Bearer {token}"}
    url = served.url + "/api/tournaments/u"
    r = httpx.patch(url + "/players/1", json={"rating": 2700}, headers=auth)
    assert r.status_code == 200, r.text
    r = httpx.post(url + "/update-ratings", json={"date": "2025-13-01"}, headers=auth)
    assert (r.status_code, r.json()) == (
        422,
        {"error": "date: '2025-13-01' is not a calendar date (YYYY-MM-DD)"},
    )
    r = httpx.post(url + "/update-ratings", json={}, headers=auth)
    assert r.status_code == 200, r.text
    answer = r.json()
    assert answer["lists"] == ["fide-standard of 2025-11-01"]
    assert answer["changed"] == [
        {"player": 1, "name": "Carlsen, Magnus", "changes": {"rating": [2700, 2839]}}
    ]
    reason = "FIDE id 99999999 not on the fide-standard list of 2025-11-01"
    assert {"player": 2, "name": "New, Ann", "reason": reason} in answer["unchanged"]
