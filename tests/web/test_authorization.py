"""Who may write what: every write endpoint x {anonymous, director of another event, director,
officer}, over HTTP against a real `arbiter serve`; a refused write appends nothing.

Also: cookie sessions need the CSRF token, a revoked token is refused, uploads are size-limited,
and schemathesis finds no 5xx over /openapi.json.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from events.stores import open_store
from tests.conftest import require_testdata
from tests.web.serving import Served, add_user, cli, new_event, serve

TIMEOUT_S = 120  # a loaded 2-core box can take seconds per request
get = functools.partial(httpx.get, timeout=TIMEOUT_S)
post = functools.partial(httpx.post, timeout=TIMEOUT_S)

WOC_1978 = ("othello", "elo", "1978", "19781104_WOC_1978.ELO")


def head(store: str) -> tuple[int, int]:
    """The log's last position and epoch: any append, undo or restore changes one of them."""
    with open_store(store) as s:
        return s.head_position(), s.log_epoch()


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Served, dict[str, str]]]:
    folder = tmp_path_factory.mktemp("serve-authz")
    store = str(folder / "store.duckdb")
    new_event(store, ["A, One", "B, Two", "C, Three", "D, Four"])
    new_event(store, ["E, Five", "F, Six"], tid="bergen")
    tokens = {
        "director": add_user(store, "kari", "director", "oslo", password="kari-secret-1"),
        "other director": add_user(store, "per", "director", "bergen"),
        "officer": add_user(store, "ola", "officer"),
    }
    served = serve(store, folder)
    yield served, tokens
    served.stop()


def _woc() -> dict[str, Any]:
    path = require_testdata(*WOC_1978)
    return {"files": (path.name, path.read_bytes(), "text/plain")}


# (method path, JSON body or files, who may, status when allowed)
WRITES: list[tuple[str, str, Any, str, int]] = [
    ("POST", "/api/tournaments/oslo/players", {"name": "E, Five", "rating": 1500}, "director", 201),
    ("POST", "/api/tournaments/oslo/pair", None, "director", 201),
    ("POST", "/api/tournaments/oslo/results", {"round": 1, "board": 1, "result": "1-0"},
     "director", 201),
    ("POST", "/api/tournaments/oslo/undo", {"round": 1, "confirm": True}, "director", 200),
    ("POST", "/api/tournaments/oslo/restore", {"confirm": True}, "director", 200),
    ("POST", "/api/ingest", "woc", "officer", 200),
    ("POST", "/api/ratings/run", {"method": "wof", "as_of": "1979-01-01"}, "officer", 200),
]  # fmt: skip

WHO = ("anonymous", "other director", "director", "officer")


def _send(
    client: httpx.Client, method: str, path: str, body: Any, token: str | None
) -> httpx.Response:
    headers = {"authorization": f"Bearer {token}"} if token else {}
    if body == "woc":
        return client.request(method, path, files=_woc(), headers=headers)
    return client.request(method, path, json=body, headers=headers)


def test_every_write_endpoint_for_every_kind_of_caller(
    site: tuple[Served, dict[str, str]],
) -> None:
    served, tokens = site
    with httpx.Client(base_url=served.url, timeout=60) as client:
        for method, path, body, allowed, ok in WRITES:
            for who in WHO:
                if who == allowed:
                    continue
                before = head(served.store)
                r = _send(client, method, path, body, tokens.get(who))
                expected = 401 if who == "anonymous" else 403
                assert r.status_code == expected, (path, who, r.text)
                assert r.json()["error"]
                assert head(served.store) == before, (path, who)
            before = head(served.store)
            r = _send(client, method, path, body, tokens[allowed])
            assert r.status_code == ok, (path, r.text)
            assert head(served.store) != before, path
    # What the corpus says of the file: 6 games, 4 players (the WOF list of 1979 has all four).
    lists = get(served.url + "/api/ratings").json()
    assert [(e["name"], e["players"]) for e in lists] == [("wof", 4)]
    page = get(served.url + "/ratings/wof")
    assert page.status_code == 200
    assert page.text.count('<tr class="prov">') + page.text.count("<tr>") - 1 == 4
    assert "/ratings/wof/1979-01-01/" in get(served.url + "/").text
    log = cli(served.store, "log", "oslo", "--format", "json")
    assert '"actor": "kari"' in log


def test_refused_command_gives_the_cli_message_and_appends_nothing(
    site: tuple[Served, dict[str, str]],
) -> None:
    served, tokens = site
    auth = {"authorization": f"Bearer {tokens['other director']}"}
    before = head(served.store)
    r = post(
        served.url + "/api/tournaments/bergen/results",
        json={"round": 1, "board": 1, "result": "1-0"},
        headers=auth,
    )
    assert r.status_code == 400
    assert r.json() == {"error": "bergen: round 1 is not paired yet (last paired round: none)"}
    r = post(served.url + "/api/tournaments/bergen/undo", json={"round": 1, "confirm": False},
                   headers=auth)  # fmt: skip
    assert r.status_code == 400
    r = post(served.url + "/api/tournaments/nowhere/pair", headers=auth)
    assert r.status_code == 403  # a director of bergen may not touch another id
    assert head(served.store) == before


def _login(url: str, name: str, password: str) -> dict[str, str]:
    """Cookies of a logged-in browser (httpx keeps no Secure cookies over plain HTTP)."""
    first = get(url + "/login")
    csrf = first.cookies["arbiter_csrf"]
    r = post(
        url + "/login",
        data={"name": name, "password": password, "csrf_token": csrf},
        headers={"cookie": f"arbiter_csrf={csrf}"},
    )
    assert r.status_code == 303, r.text
    return {
        "arbiter_session": r.cookies["arbiter_session"],
        "arbiter_csrf": r.cookies["arbiter_csrf"],
    }


def test_cookie_writes_need_the_csrf_token(site: tuple[Served, dict[str, str]]) -> None:
    served, _ = site
    jar = _login(served.url, "kari", "kari-secret-1")
    cookie = "; ".join(f"{k}={v}" for k, v in jar.items())
    before = head(served.store)
    body = {"name": "Z, Late", "rating": 1000}
    r = post(served.url + "/api/tournaments/oslo/players", json=body,
                   headers={"cookie": cookie})  # fmt: skip
    assert r.status_code == 403
    r = post(served.url + "/api/tournaments/oslo/players", json=body,
                   headers={"cookie": cookie, "x-csrf-token": "forged"})  # fmt: skip
    assert r.status_code == 403
    r = post(served.url + "/t/oslo/manage/player", data={"name": "Z, Late",
                   "csrf_token": "forged"}, headers={"cookie": cookie})  # fmt: skip
    assert r.status_code == 403
    assert head(served.store) == before
    r = post(served.url + "/t/oslo/manage/player",
                   data={"name": "Z, Late", "csrf_token": jar["arbiter_csrf"]},
                   headers={"cookie": cookie})  # fmt: skip
    assert r.status_code == 200, r.text
    assert head(served.store)[0] == before[0] + 1


def test_revoked_token_is_refused(site: tuple[Served, dict[str, str]]) -> None:
    served, _ = site
    added = cli(served.store, "user", "add", "temp", "--role", "director", "--tournament", "oslo")
    token = added.strip().splitlines()[-1]
    auth = {"authorization": f"Bearer {token}"}
    body = {"name": "Y, Temp"}
    r = post(served.url + "/api/tournaments/oslo/players", json=body, headers=auth)
    assert r.status_code == 201, r.text
    cli(served.store, "user", "revoke", "temp")
    before = head(served.store)
    r = post(served.url + "/api/tournaments/oslo/players", json=body, headers=auth)
    assert r.status_code == 401
    assert head(served.store) == before


def test_uploads_are_size_limited(site: tuple[Served, dict[str, str]]) -> None:
    served, tokens = site
    before = head(served.store)
    big = {"files": ("big.ELO", b"%%Tournament: x\n" + b"0" * 300_000, "text/plain")}
    r = post(served.url + "/api/ingest", files=big,
                   headers={"authorization": f"Bearer {tokens['officer']}"})  # fmt: skip
    assert r.status_code == 413
    assert head(served.store) == before


def test_openapi_has_no_5xx(site: tuple[Served, dict[str, str]], tmp_path: Path) -> None:
    import schemathesis
    from hypothesis import HealthCheck, given, settings
    from schemathesis.core.result import Ok

    served, tokens = site
    schema = schemathesis.openapi.from_url(served.url + "/openapi.json")
    failures: list[str] = []
    calls: list[int] = []
    operations = 0
    for result in schema.get_all_operations():
        assert isinstance(result, Ok), result
        operation = result.ok()
        operations += 1

        @settings(max_examples=8, deadline=None, derandomize=True,
                  suppress_health_check=list(HealthCheck))  # fmt: skip
        @given(case=operation.as_strategy())
        def check(case: Any) -> None:
            for token in (None, tokens["director"]):
                headers = {"authorization": f"Bearer {token}"} if token else {}
                response = case.call(base_url=served.url, headers=headers)
                calls.append(response.status_code)
                if response.status_code >= 500:
                    failures.append(f"{case.method} {case.formatted_path}: {response.status_code}")

        check()
    assert failures == []
    assert operations >= 14
    assert len(calls) >= 2 * operations
