"""Two `arbiter serve` processes on one PostgreSQL log, as behind a load balancer (issue 45).

A throwaway PostgreSQL database holds the tournament of the writers benchmark (400 players,
round 1 paired: 200 boards) and two real servers, A and B, serve it. What the issue's "done
when" asks, from the outside:

* a browser login made through A opens the director's manage page through B, and a logout
  through A ends the session on B at once;
* a revoke (`arbiter user revoke` on the shared log) ends a session made through A on B at
  once: B's next write with it is 401 and appends nothing, its manage page sends to the login;
* five wrong passwords through A make the sixth try through B answer 429 (the README: five
  tries of one name per address a minute);
* 40 results entered at once, half through each server, all answer 201, and the log, read
  back with `arbiter log`, holds each exactly once;
* a result whose answer the client never read (its connection closed), sent again through the
  other server with the same ``Idempotency-Key``, gets the first answer; with another body 422.
"""

from __future__ import annotations

import json
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest

from benchmarks.bench_writers import TID, Key, appended, prepare
from tests.postgres import PostgresServer
from tests.web.serving import ARBITER, Served, add_user, cookie_header, serve, session

ATTEMPTS = 5  # "five times a minute" (README, serving section)
RESULTS = 40
PASSWORD = "td-secret-pass-1"
TIMEOUT_S = 120


@pytest.fixture(scope="module")
def servers(
    postgres_server: PostgresServer, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[Served, Served, str]]:
    folder = tmp_path_factory.mktemp("scale-out")
    postgres_url = postgres_server.create_database()
    prepare(postgres_url)
    token = add_user(postgres_url, "td", "director", TID, password=PASSWORD)
    a = serve(postgres_url, folder)
    try:
        b = serve(postgres_url, folder)
    except BaseException:
        a.stop()
        raise
    yield a, b, token
    a.stop()
    b.stop()


def test_a_login_on_a_opens_the_manage_page_on_b(servers: tuple[Served, Served, str]) -> None:
    a, b, _ = servers
    for site in (a, b):  # what the load balancer asks
        health = httpx.get(site.url + "/health", timeout=TIMEOUT_S)
        assert health.status_code == 200
        assert health.json()["ready"] is True
    jar = session(a, "td", PASSWORD)
    page = httpx.get(
        f"{b.url}/t/{TID}/manage", headers=cookie_header(jar), timeout=TIMEOUT_S,
        follow_redirects=False,
    )  # fmt: skip
    assert page.status_code == 200, (page.status_code, page.headers.get("location"))
    assert "/logout" in page.text  # the page of someone logged in
    out = httpx.post(
        a.url + "/logout", data={"csrf_token": jar["arbiter_csrf"]}, headers=cookie_header(jar),
        timeout=TIMEOUT_S,
    )  # fmt: skip
    assert out.status_code == 303
    again = httpx.get(
        f"{b.url}/t/{TID}/manage", headers=cookie_header(jar), timeout=TIMEOUT_S,
        follow_redirects=False,
    )  # fmt: skip
    assert again.status_code == 303
    assert again.headers["location"].startswith("/login")


def test_a_revoke_ends_the_session_on_b_at_once(servers: tuple[Served, Served, str]) -> None:
    a, b, _ = servers
    password = "td2-secret-pass-1"
    add_user(a.store, "td2", "director", TID, password=password)
    deadline = time.monotonic() + TIMEOUT_S
    while True:  # until A's follower has read the new account
        try:
            jar = session(a, "td2", password)
            break
        except AssertionError:
            assert time.monotonic() < deadline, "A never knew td2"
            time.sleep(0.1)
    manage = f"{b.url}/t/{TID}/manage"
    page = httpx.get(manage, headers=cookie_header(jar), timeout=TIMEOUT_S)
    assert page.status_code == 200, page.status_code
    assert "/logout" in page.text

    done = subprocess.run(
        [ARBITER, "--store", a.store, "user", "revoke", "td2"],
        capture_output=True, text=True, timeout=TIMEOUT_S, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    result = {"round": "1", "board": "150", "result": "1-0", "csrf_token": jar["arbiter_csrf"]}
    write = httpx.post(
        manage + "/result", data=result, headers=cookie_header(jar), timeout=TIMEOUT_S,
        follow_redirects=False,
    )  # fmt: skip
    assert write.status_code == 401, write.text
    assert appended(a.store)[("result", "1/150")] == 0
    page = httpx.get(manage, headers=cookie_header(jar), timeout=TIMEOUT_S, follow_redirects=False)
    assert page.status_code == 303, page.status_code
    assert page.headers["location"].startswith("/login")
    deadline = time.monotonic() + 10  # A reads the revoke as it follows the log (milliseconds)
    while True:
        page = httpx.get(
            f"{a.url}/t/{TID}/manage", headers=cookie_header(jar), timeout=TIMEOUT_S,
            follow_redirects=False,
        )  # fmt: skip
        if page.status_code == 303 or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    assert page.status_code == 303, page.status_code


def test_five_wrong_passwords_through_a_throttle_b(servers: tuple[Served, Served, str]) -> None:
    a, b, _ = servers

    def login(site: Served, password: str) -> int:
        csrf = httpx.get(site.url + "/login", timeout=TIMEOUT_S).cookies["arbiter_csrf"]
        return httpx.post(
            site.url + "/login",
            data={"name": "td", "password": password, "csrf_token": csrf, "next": "/"},
            headers={"cookie": f"arbiter_csrf={csrf}"}, timeout=TIMEOUT_S, follow_redirects=False,
        ).status_code  # fmt: skip

    assert [login(a, f"wrong-{i}") for i in range(ATTEMPTS)] == [401] * ATTEMPTS
    assert login(b, "wrong-6") == 429
    assert login(b, PASSWORD) == 429  # the right one too, until the minute has passed


def test_forty_results_at_once_through_two_servers_land_once(
    servers: tuple[Served, Served, str],
) -> None:
    a, b, token = servers
    start = threading.Barrier(RESULTS)

    def enter(i: int) -> tuple[Key, int, str]:
        site = (a, b)[i % 2]
        board = i + 1
        with httpx.Client(base_url=site.url, timeout=TIMEOUT_S) as client:
            start.wait()
            r = client.post(
                f"/api/tournaments/{TID}/results",
                json={"round": 1, "board": board, "result": "1-0"},
                headers={"authorization": f"Bearer {token}"},
            )
        return ("result", f"1/{board}"), r.status_code, r.text

    with ThreadPoolExecutor(RESULTS) as pool:
        answers = list(pool.map(enter, range(RESULTS)))
    assert [(key, status) for key, status, _ in answers if status != 201] == [], answers
    found = appended(a.store)
    assert {key: found[key] for key, _, _ in answers} == {key: 1 for key, _, _ in answers}
    assert sum(n for key, n in found.items() if key[0] == "result") == RESULTS


def test_a_resend_after_a_dropped_connection_gets_the_first_answer(
    servers: tuple[Served, Served, str],
) -> None:
    """The result is sent through A on a raw connection that is closed, unread, once the log
    holds it (the client never saw its answer); sent again through B with the same
    Idempotency-Key, it gets A's answer, and the log holds it once."""
    a, b, token = servers
    board, key = 100, "result-1-100-first-try"
    body = json.dumps({"round": 1, "board": board, "result": "0-1"}).encode()
    host, port = a.url.removeprefix("http://").split(":")
    request = (
        f"POST /api/tournaments/{TID}/results HTTP/1.1\r\nHost: {host}\r\n"
        f"Authorization: Bearer {token}\r\nIdempotency-Key: {key}\r\n"
        f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
    ).encode() + body
    with socket.create_connection((host, int(port)), timeout=TIMEOUT_S) as sock:
        sock.sendall(request)
        deadline = time.monotonic() + TIMEOUT_S
        while appended(a.store)[("result", f"1/{board}")] == 0:
            assert time.monotonic() < deadline, "the first try never landed"
            time.sleep(0.2)
    headers = {"authorization": f"Bearer {token}", "content-type": "application/json"}
    resend = httpx.post(
        f"{b.url}/api/tournaments/{TID}/results", content=body,
        headers={**headers, "idempotency-key": key}, timeout=TIMEOUT_S,
    )  # fmt: skip
    while resend.status_code == 409:  # A has not kept its answer yet
        time.sleep(0.2)
        resend = httpx.post(
            f"{b.url}/api/tournaments/{TID}/results", content=body,
            headers={**headers, "idempotency-key": key}, timeout=TIMEOUT_S,
        )  # fmt: skip
    assert resend.status_code == 201, resend.text
    assert resend.headers["idempotency-replayed"] == "true"
    assert resend.json()["board"] == board
    assert resend.json()["result"] == "0-1"
    other = httpx.post(
        f"{b.url}/api/tournaments/{TID}/results",
        json={"round": 1, "board": board, "result": "1-0"},
        headers={**headers, "idempotency-key": key}, timeout=TIMEOUT_S,
    )  # fmt: skip
    assert other.status_code == 422, other.text
    without = httpx.post(
        f"{b.url}/api/tournaments/{TID}/results", content=body, headers=headers,
        timeout=TIMEOUT_S,
    )  # fmt: skip
    assert without.status_code == 400, without.text  # a real conflict: the board has a result
    assert appended(a.store)[("result", f"1/{board}")] == 1
