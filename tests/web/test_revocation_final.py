"""Revocation is final (issue 34, item 3): a browser session is bound to the account's identity
(the position of its creation in the ``accounts`` stream), not to its name, so a revoked
account re-created under the same name (another role) does not bring the old cookie back.
Over HTTP against a real `arbiter serve`; the accounts changed through the CLI beside it.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Iterator

import httpx
import pytest

from tests.web.serving import Served, add_user, cli, new_event, serve

TIMEOUT_S = 120
get = functools.partial(httpx.get, timeout=TIMEOUT_S, follow_redirects=False)
post = functools.partial(httpx.post, timeout=TIMEOUT_S, follow_redirects=False)


@pytest.fixture
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    folder = tmp_path_factory.mktemp("serve-revoke")
    store = str(folder / "store.duckdb")
    new_event(store, ["A, One", "B, Two"])
    add_user(store, "kari", "director", "oslo", password="kari-secret-1")
    served = serve(store, folder)
    yield served
    served.stop()


def login(url: str, name: str, password: str) -> str:
    """The cookie header of a logged-in browser."""
    csrf = get(url + "/login").cookies["arbiter_csrf"]
    r = post(
        url + "/login",
        data={"name": name, "password": password, "csrf_token": csrf},
        headers={"cookie": f"arbiter_csrf={csrf}"},
    )
    assert r.status_code == 303, r.text
    return (
        f"arbiter_session={r.cookies['arbiter_session']}; arbiter_csrf={r.cookies['arbiter_csrf']}"
    )


def until(check: Callable[[], bool], seconds: float = 30, every: float = 0.2) -> None:
    """The server follows the log in the background: wait for it to see a CLI change."""
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "the server did not see the change"
        time.sleep(every)


def test_a_revoked_session_stays_dead_when_the_name_is_reused(site: Served) -> None:
    url = site.url
    cookie = login(url, "kari", "kari-secret-1")
    csrf = cookie.rsplit("arbiter_csrf=", 1)[1]
    assert get(url + "/t/oslo/manage", headers={"cookie": cookie}).status_code == 200

    cli(site.store, "user", "revoke", "kari")
    until(lambda: get(url + "/t/oslo/manage", headers={"cookie": cookie}).status_code == 303)

    # The name again, as an officer this time (the role the old session would now inherit).
    token = cli(site.store, "user", "add", "kari", "--role", "officer").strip().splitlines()[-1]
    cli(site.store, "user", "passwd", "kari", stdin="kari-secret-2\n")
    until(
        lambda: get(url + "/api/tournaments", headers={"authorization": f"Bearer {token}"})
        .status_code == 200
        and post(url + "/api/tournaments", json={}, headers={"authorization": f"Bearer {token}"})
        .status_code == 422
    )  # fmt: skip
    officer = get(url + "/officer", headers={"cookie": cookie})
    assert officer.status_code == 303
    assert officer.headers["location"] == "/login?next=/officer"
    manage = get(url + "/t/oslo/manage", headers={"cookie": cookie})
    assert manage.status_code == 303
    body = {"name": "Cookie Cup", "system": "dutch", "rounds": 3}
    r = post(url + "/api/tournaments", json=body, headers={"cookie": cookie, "x-csrf-token": csrf})
    assert r.status_code == 401, r.text

    # The new account logs in by itself and is an officer.
    fresh = ""

    def logged_in() -> bool:
        nonlocal fresh
        try:
            fresh = login(url, "kari", "kari-secret-2")
        except AssertionError:
            return False
        return True

    until(logged_in, every=3)  # a few failed logins at most (5 a minute are allowed)
    assert get(url + "/officer", headers={"cookie": fresh}).status_code == 200
    # ... and the old cookie is still refused.
    assert get(url + "/officer", headers={"cookie": cookie}).status_code == 303
