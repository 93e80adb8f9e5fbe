"""The site on the venue's network (issue 47 item 1): plain http on the machine's own address.

Real parts: `arbiter serve` on this machine's non-loopback address (the route out, as a club's
laptop has one), Debian's Chromium for the player's phone and the director's laptop, httpx as
a client that never sends a ``Secure`` cookie over http (its cookie jar follows the cookie
rules, as every browser does), the `arbiter` CLI in subprocesses beside the server, the printed
PDF read back with pypdfium2.

* A player registers himself through `/t/T/register` over plain http, is given his check-in
  code, and checks in with it; the director logs in over plain http.
* A check-in needs the director or the player's code: anonymous ``POST .../check-ins`` without
  it, with a wrong one or with another player's, is refused and appends nothing.
* ``--public-url`` is the address in the check-in QR code and link; the Host header never is.
* Started on a non-loopback address, `serve` says once that passwords cross the network in
  clear; over https (a trusted proxy's X-Forwarded-Proto) the cookies are ``Secure``.
"""

from __future__ import annotations

import datetime as dt
import functools
import ipaddress
import re
import socket
from collections.abc import Iterator
from pathlib import Path

import httpx
import pypdfium2 as pdfium
import pytest
from playwright.sync_api import Browser, expect

from tests.process import arbiter_run
from tests.web.serving import Served, add_user, cli, new_event, serve, session

TIMEOUT_S = 120
post = functools.partial(httpx.post, timeout=TIMEOUT_S)
get = functools.partial(httpx.get, timeout=TIMEOUT_S)
expect.set_options(timeout=30_000)
CODE = re.compile(r"your check-in code is ([0-9A-Z]{6}):")


def own_address() -> str:
    """This machine's IPv4 address on its network (the route out; no packet is sent)."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("192.0.2.1", 9))
            address = str(s.getsockname()[0])
    except OSError:
        address = "127.0.0.1"
    if ipaddress.ip_address(address).is_loopback:
        pytest.skip("this machine has no network address but loopback")
    return address


def _window(before: int, after: int) -> str:
    now = dt.datetime.now(dt.UTC).astimezone().replace(tzinfo=None, second=0, microsecond=0)
    opens, closes = now + dt.timedelta(minutes=before), now + dt.timedelta(minutes=after)
    return f"{opens:%Y-%m-%dT%H:%M}/{closes:%Y-%m-%dT%H:%M}"


def _open_event(tmp_path: Path) -> str:
    store = str(tmp_path / "store.duckdb")
    new_event(store, ["Berg, Anna", "Dahl, Ivar", "Lie, Per"])
    add_user(store, "kari", "director", "oslo", password="kari-secret-1")
    cli(store, "tournament", "edit", "oslo", "--registration", "open",
        "--check-in", _window(-30, 30))  # fmt: skip
    return store


@pytest.fixture
def venue(tmp_path: Path) -> Iterator[tuple[Served, Path]]:
    """The event served on this machine's own network address, registration and check-in
    open."""
    served = serve(_open_event(tmp_path), tmp_path, host=own_address())
    try:
        yield served, tmp_path
    finally:
        served.stop()


def _log(served: Served, folder: Path) -> str:
    port = served.url.rsplit(":", 1)[1]
    return (folder / f"serve-{port}.log").read_text()


def test_a_player_registers_and_checks_in_over_plain_http_in_a_browser(
    venue: tuple[Served, Path], browser: Browser
) -> None:
    served, folder = venue
    assert not served.url.startswith("http://127.")
    log = _log(served, folder)
    assert log.count("passwords and session cookies cross it in clear") == 1
    assert f"(links and QR codes: {served.url}/)" in log

    phone = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    phone.goto(served.url + "/t/oslo/register")
    phone.fill("#register-name", "Nyberg, Eva")
    phone.fill("#register-rating", "2100")
    phone.click("#register")
    notice = phone.locator("#notice")
    expect(notice).to_contain_text(
        "Nyberg, Eva: registered as No. 4 (until round 1 is paired, numbers follow the "
        "ratings); your check-in code is"
    )
    found = CODE.search(notice.text_content() or "")
    assert found is not None
    code = found[1]
    cookie = {c["name"]: c for c in phone.context.cookies()}["arbiter_csrf"]
    assert (cookie["secure"], cookie["httpOnly"], cookie["sameSite"]) == (False, True, "Strict")

    phone.goto(served.url + "/t/oslo/check-in")
    row = phone.locator("#check-in tbody tr", has_text="Nyberg, Eva")
    row.locator("input[name=code]").fill("WRONG1")
    row.locator("button").click()
    expect(phone.locator("#error")).to_have_text(
        "oslo: player No. 4: missing or wrong check-in code (given at registration; ask the "
        "director)"
    )
    row = phone.locator("#check-in tbody tr", has_text="Nyberg, Eva")
    row.locator("input[name=code]").fill(code)
    row.locator("button").click()
    expect(phone.locator("#notice")).to_have_text("Nyberg, Eva checked in")

    laptop = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    laptop.goto(served.url + "/login?next=/t/oslo/manage")
    laptop.fill("input[name=name]", "kari")
    laptop.fill("input[name=password]", "kari-secret-1")
    laptop.click("button[type=submit]")
    expect(laptop.locator("#check-in-link")).to_have_text(served.url + "/t/oslo/check-in")
    qr = laptop.locator("#check-in-qr svg title")
    assert qr.text_content() == served.url + "/t/oslo/check-in"
    laptop.locator("#check-in tbody tr", has_text="Dahl, Ivar").locator("button").click()
    expect(laptop.locator("#notice")).to_have_text("player No. 2 checked in")
    checked = get(served.url + "/api/tournaments/oslo/check-ins").json()["players"]
    assert {p["name"] for p in checked if p["checked_in"]} == {"Nyberg, Eva", "Dahl, Ivar"}


def test_registration_by_a_client_that_never_sends_a_secure_cookie_over_http(
    venue: tuple[Served, Path],
) -> None:
    served, _ = venue
    with httpx.Client(base_url=served.url, timeout=TIMEOUT_S) as client:
        page = client.get("/t/oslo/register")
        assert "secure" not in page.headers["set-cookie"].lower()
        assert "samesite=strict" in page.headers["set-cookie"].lower()
        csrf = re.search(r'name="csrf_token" value="([^"]+)"', page.text)
        assert csrf is not None
        done = client.post(
            "/t/oslo/register",
            data={"csrf_token": csrf[1], "name": "Nyberg, Eva", "rating": "2100"},
        )
        assert done.status_code == 200, done.text
        assert "Nyberg, Eva: registered as No. 4" in done.text
        # A form whose token is not the cookie's is refused, nothing appended.
        forged = client.post("/t/oslo/register", data={"csrf_token": "forged", "name": "Mo, Ola"})
        assert forged.status_code == 403
    players = get(served.url + "/api/tournaments/oslo/check-ins").json()["players"]
    names = [p["name"] for p in players]
    assert "Nyberg, Eva" in names
    assert "Mo, Ola" not in names


def test_a_csrf_token_from_one_session_is_refused_in_another(
    venue: tuple[Served, Path],
) -> None:
    """Two logins of the director over plain http on the network address: the pairing form
    posted with session B's cookie is refused with A's token, even with A's CSRF cookie
    planted beside it (what whoever can set cookies on a plain-http network could do), and
    with the token the login form gave before any session; with B's own it pairs."""
    served, _ = venue
    cli(served.store, "check-in", "oslo", "#1", "#2", "#3")
    before = get(served.url + "/login").cookies["arbiter_csrf"]
    one = session(served, "kari", "kari-secret-1")
    two = session(served, "kari", "kari-secret-1")
    assert one["arbiter_session"] != two["arbiter_session"]
    pair = served.url + "/t/oslo/manage/pair"
    for cookie, token in (
        (one["arbiter_csrf"], one["arbiter_csrf"]),
        (two["arbiter_csrf"], one["arbiter_csrf"]),
        (before, before),
    ):
        jar = {"arbiter_session": two["arbiter_session"], "arbiter_csrf": cookie}
        r = post(pair, data={"csrf_token": token}, headers=_cookies(jar))
        assert (r.status_code, r.json()) == (
            403,
            {"error": "missing or wrong CSRF token; reload the page"},
        ), r.text
    assert "RoundPaired" not in cli(served.store, "log", "oslo")
    r = post(pair, data={"csrf_token": two["arbiter_csrf"]}, headers=_cookies(two))
    assert r.status_code == 200, r.text
    assert 'id="notice">next round paired<' in r.text
    assert cli(served.store, "log", "oslo").count("RoundPaired") == 1


def _cookies(jar: dict[str, str]) -> dict[str, str]:
    return {"cookie": "; ".join(f"{k}={v}" for k, v in jar.items())}


def test_a_check_in_needs_the_director_or_the_players_code(venue: tuple[Served, Path]) -> None:
    served, folder = venue
    url = served.url + "/api/tournaments/oslo"
    token = add_user(served.store, "api-td", "director", "oslo")  # read with the next write
    r = post(url + "/registrations", json={"name": "Nyberg, Eva", "rating": 2100})
    assert r.status_code == 201, r.text
    eva = r.json()["check_in_code"]
    r = post(url + "/registrations", json={"name": "Moe, Ola", "rating": 1900})
    ola = r.json()["check_in_code"]
    assert eva != ola

    refused = "oslo: player No. 3: missing or wrong check-in code (given at registration; ask the "
    for body in ({"player": 3}, {"player": 3, "code": "ABCDEF"}, {"player": 3, "code": eva}):
        r = post(url + "/check-ins", json=body)
        assert (r.status_code, r.json()["error"]) == (400, refused + "director)")
    r = post(url + "/check-ins", json={"player": 4, "code": f" {eva.lower()} "})
    assert r.status_code == 201, r.text
    assert r.json() == {"player": 4, "checked_in": True, "already": False}
    r = post(url + "/check-ins", json={"player": 3}, headers={"authorization": f"Bearer {token}"})
    assert r.status_code == 201, r.text
    checked = get(url + "/check-ins").json()["players"]
    assert {p["name"] for p in checked if p["checked_in"]} == {"Nyberg, Eva", "Lie, Per"}
    assert cli(served.store, "log", "oslo").count("CheckedIn") == 2

    # The director's printed list gives each player the code his registration gave.
    pdf = folder / "codes.pdf"
    cli(served.store, "print", "oslo", "check-in-codes", "-o", str(pdf))
    document = pdfium.PdfDocument(str(pdf))
    text = "".join(page.get_textpage().get_text_range() for page in document)
    document.close()
    assert re.search(rf"Nyberg, Eva\s+{eva}", text), text
    assert re.search(rf"Moe, Ola\s+{ola}", text), text


def test_public_url_sets_the_qr_code_and_the_host_header_never_does(tmp_path: Path) -> None:
    store = _open_event(tmp_path)
    served = serve(store, tmp_path, "--public-url", "https://chess.example.org/venue")
    try:
        cookies = session(served, "kari", "kari-secret-1")
        for host in (None, "evil.example"):
            headers = {"cookie": "; ".join(f"{k}={v}" for k, v in cookies.items())}
            if host:
                headers["host"] = host
            page = get(served.url + "/t/oslo/manage", headers=headers)
            assert page.status_code == 200, page.text
            link = "https://chess.example.org/venue/t/oslo/check-in"
            assert f"<title>{link}</title>" in page.text
            assert f'id="check-in-link" href="{link}"' in page.text
            assert "evil.example" not in page.text
        assert "passwords and session cookies" not in _log(served, tmp_path)  # loopback
    finally:
        served.stop()
    done = arbiter_run(store, "serve", "--public-url", "ftp://chess.example.org")
    assert (done.returncode, done.stderr) == (
        1,
        "error: --public-url: 'ftp://chess.example.org' is not an http(s) address such as "
        "https://chess.example.org/\n",
    )


def test_cookies_are_secure_over_https_through_a_trusted_proxy(tmp_path: Path) -> None:
    store = _open_event(tmp_path)
    served = serve(store, tmp_path, "--forwarded-allow-ips", "127.0.0.1")
    try:
        https = get(served.url + "/login", headers={"x-forwarded-proto": "https"})
        plain = get(served.url + "/login")
    finally:
        served.stop()
    assert "; secure" in https.headers["set-cookie"].lower()
    assert "secure" not in plain.headers["set-cookie"].lower()
