"""The login throttle (issue 34, item 4), on a real `arbiter serve`.

The README: a client address may try one account name at most five times a minute; the
attempts are counted before the password is checked; X-Forwarded-For names the client only when
it comes from a proxy given with ``--forwarded-allow-ips`` (none by default).
"""

from __future__ import annotations

import functools
import subprocess
import threading
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest

from tests.web.serving import ARBITER, Served, add_user, new_event, serve

ATTEMPTS = 5  # "five times a minute" (README, serving section)
TIMEOUT_S = 120
PASSWORDS = {"kari": "kari-secret-1", "ola": "ola-secret-12"}


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path]:
    folder = tmp_path_factory.mktemp("serve-throttle")
    store = str(folder / "store.duckdb")
    new_event(store, ["A, One", "B, Two"])
    add_user(store, "kari", "director", "oslo", password=PASSWORDS["kari"])
    add_user(store, "ola", "officer", password=PASSWORDS["ola"])
    return store, folder


@pytest.fixture
def served(store: tuple[str, Path]) -> Iterator[Served]:
    """A fresh server per test (the throttle's memory starts empty), trusting no proxy."""
    site = serve(*store)
    yield site
    site.stop()


@functools.cache
def _login_csrf(url: str) -> str:
    """The login form's CSRF token (a browser's, before it logs in: bound to no session)."""
    return httpx.get(url + "/login", timeout=TIMEOUT_S).cookies["arbiter_csrf"]


def login(site: Served, name: str, password: str, forwarded: str | None = None) -> httpx.Response:
    csrf = _login_csrf(site.url)
    headers = {"cookie": f"arbiter_csrf={csrf}"}
    if forwarded is not None:
        headers["x-forwarded-for"] = forwarded
    return httpx.post(
        site.url + "/login",
        data={"name": name, "password": password, "csrf_token": csrf, "next": "/"},
        headers=headers, timeout=TIMEOUT_S, follow_redirects=False,
    )  # fmt: skip


def test_120_simultaneous_wrong_passwords_check_at_most_five(served: Served) -> None:
    start = threading.Barrier(120)

    def attempt(i: int) -> int:
        start.wait()
        return login(served, "kari", f"wrong-{i}").status_code

    with ThreadPoolExecutor(120) as pool:
        statuses = Counter(pool.map(attempt, range(120)))
    assert set(statuses) <= {401, 429}, statuses
    assert 1 <= statuses[401] <= ATTEMPTS, statuses  # 401: the password was checked
    assert statuses[429] == 120 - statuses[401]
    # Still throttled, even with the right password, from here for this name ...
    r = login(served, "kari", PASSWORDS["kari"])
    assert r.status_code == 429
    assert 0 < int(r.headers["retry-after"]) <= 61
    # ... but the next user behind the same address has his own limit.
    assert login(served, "ola", "wrong").status_code == 401
    assert login(served, "ola", PASSWORDS["ola"]).status_code == 303


def test_forwarded_for_is_not_trusted_by_default(served: Served) -> None:
    statuses = [
        login(served, "kari", "wrong", forwarded=f"203.0.113.{i}").status_code
        for i in range(ATTEMPTS + 2)
    ]
    assert statuses == [401] * ATTEMPTS + [429, 429]


def test_forwarded_for_from_a_trusted_proxy_names_the_client(store: tuple[str, Path]) -> None:
    site = serve(*store, "--forwarded-allow-ips", "127.0.0.1")
    try:
        # Each client behind the proxy has his own limit ...
        rotating = [
            login(site, "kari", "wrong", forwarded=f"203.0.113.{i}").status_code
            for i in range(ATTEMPTS + 2)
        ]
        assert rotating == [401] * (ATTEMPTS + 2)
        # ... and one client is throttled as if he came without the proxy.
        same = [
            login(site, "kari", "wrong", forwarded="198.51.100.7").status_code
            for _ in range(ATTEMPTS + 1)
        ]
        assert same == [401] * ATTEMPTS + [429]
        assert login(site, "kari", PASSWORDS["kari"], "198.51.100.8").status_code == 303
    finally:
        site.stop()


def test_a_bad_proxy_address_is_one_line(store: tuple[str, Path]) -> None:
    done = subprocess.run(
        [ARBITER, "--store", store[0], "serve", "--port", "0",
         "--forwarded-allow-ips", "127.0.0.1,proxy.example"],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode != 0
    assert done.stderr.strip().splitlines() == [
        "error: --forwarded-allow-ips: 'proxy.example' is not an IP address or network"
    ]
