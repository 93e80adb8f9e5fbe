"""Players register themselves and check in; round 1 leaves out who did not (issue 36 part 3).

Real parts: `arbiter serve` on a loopback port, Debian's Chromium for the player's phone and
the director's laptop, the `arbiter` CLI in subprocesses beside the server.

The browser test walks the whole path: the director opens registration by approval and a
check-in window (`tournament edit`); a player enters himself on `/t/{id}/register`; the
director approves him on the manage page (which shows the check-in QR code of
`/t/{id}/check-in`); players check in on the check-in page; the director pairs round 1, and
the player who did not check in sits it out, listed as "not checked in" (a zero-point absence
in the log, `ByeGranted` with its reason).

The API test drives the same through `/api/tournaments/{id}/registrations` and `/check-ins`,
and the refusals at every door: registration closed, check-in outside the window (the director
may still tick a player in), an entry field a player cannot give, a bad value named by its
field, as `player add` names it.
"""

from __future__ import annotations

import datetime as dt
import functools
import html
import json
import re
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, expect

from tests.browser import page_at
from tests.process import arbiter_run
from tests.web.serving import Served, add_user, cli, new_event, serve

TIMEOUT_S = 120
post = functools.partial(httpx.post, timeout=TIMEOUT_S)
get = functools.partial(httpx.get, timeout=TIMEOUT_S)
expect.set_options(timeout=30_000)


def _window(before: int, after: int) -> str:
    """A check-in window around now (the server's local time), in minutes."""
    now = dt.datetime.now(dt.UTC).astimezone().replace(tzinfo=None, second=0, microsecond=0)
    opens, closes = now + dt.timedelta(minutes=before), now + dt.timedelta(minutes=after)
    return f"{opens:%Y-%m-%dT%H:%M}/{closes:%Y-%m-%dT%H:%M}"


@pytest.fixture
def event(tmp_path: Path) -> Iterator[tuple[Served, Path]]:
    store = str(tmp_path / "store.duckdb")
    new_event(store, ["Berg, Anna", "Dahl, Ivar", "Lie, Per"])
    add_user(store, "kari", "director", "oslo", password="kari-secret-1")
    served = serve(store, tmp_path)
    try:
        yield served, tmp_path
    finally:
        served.stop()


def check_in_codes(store: str, tid: str, folder: Path) -> dict[str, str]:
    """Each player's check-in code as `arbiter print T check-in-codes` prints it."""
    out = folder / "codes.html"
    cli(store, "print", tid, "check-in-codes", "--format", "html", "-o", str(out), "--force")
    cells = re.findall(r"<tr><td[^>]*>\d+</td><td[^>]*>([^<]+)</td><td[^>]*>(\w+)</td></tr>",
                       out.read_text(encoding="utf-8"))  # fmt: skip
    return {html.unescape(name): code for name, code in cells}


def test_register_approve_check_in_pair_in_a_browser(
    event: tuple[Served, Path], browser: Browser
) -> None:
    served, tmp_path = event
    cli(served.store, "tournament", "edit", "oslo", "--registration", "approval",
        "--check-in", _window(-30, 30))  # fmt: skip

    phone = page_at(browser, 390)
    phone.goto(served.url + "/t/oslo/register")
    # The site follows the log: the form shows once the server's follower has read the edit
    # made at the command line a moment ago (under load that can take a while); reload as a
    # player would.
    deadline = time.monotonic() + TIMEOUT_S
    while phone.locator("#register-name").count() == 0 and time.monotonic() < deadline:
        phone.wait_for_timeout(200)
        phone.reload()
    phone.fill("#register-name", "Nyberg, Eva")
    phone.fill("#register-rating", "2100")
    phone.fill("#register-federation", "NOR")
    phone.click("#register")
    expect(phone.locator("#notice")).to_contain_text("entry received (request 1)")

    laptop = page_at(browser, 1280, 800)
    laptop.goto(served.url + "/login?next=/t/oslo/manage")
    laptop.fill("input[name=name]", "kari")
    laptop.fill("input[name=password]", "kari-secret-1")
    laptop.click("button[type=submit]")
    row = laptop.locator("#requests tbody tr", has_text="Nyberg, Eva")
    expect(row).to_contain_text("2100")
    qr = laptop.locator("#check-in-qr svg title")
    assert qr.text_content() == served.url + "/t/oslo/check-in"
    row.locator("button[data-approve='1']").click()
    codes = check_in_codes(served.store, "oslo", tmp_path)
    expect(laptop.locator("#notice")).to_have_text(
        f"request 1 registered as No. 4 (check-in code {codes['Nyberg, Eva']})"
    )
    expect(laptop.locator("#requests")).to_have_count(0)

    phone.goto(served.url + "/t/oslo/check-in")
    for name in ("Nyberg, Eva", "Berg, Anna", "Lie, Per"):
        row = phone.locator("#check-in tbody tr", has_text=name)
        row.locator("input[name=code]").fill(codes[name].lower())  # typed as it comes
        row.locator("button").click()
        expect(phone.locator("#notice")).to_have_text(f"{name} checked in")
    expect(phone.locator("#check-in tbody tr", has_text="Dahl, Ivar")).to_contain_text("Check in")

    laptop.goto(served.url + "/t/oslo/manage")
    laptop.click("#pair")
    expect(laptop.locator("#notice")).to_have_text("next round paired")
    assert _seated(served) == {"Nyberg, Eva", "Berg, Anna", "Lie, Per"}
    text = cli(served.store, "pairings", "oslo")
    assert "Dahl, Ivar (2): not checked in" in text
    log = cli(served.store, "log", "oslo")
    assert "'reason': 'not checked in'" in log
    assert "RegistrationRequested" in log
    assert "RegistrationApproved" in log
    assert log.count("CheckedIn") == 3
    phone.goto(served.url + "/t/oslo")
    expect(phone.locator("body")).to_contain_text("not checked in")


def test_the_api_and_the_refusals(event: tuple[Served, Path]) -> None:
    served, _ = event
    url = served.url + "/api/tournaments/oslo"
    token = add_user(served.store, "api-td", "director", "oslo")
    director = {"authorization": f"Bearer {token}"}

    r = post(url + "/registrations", json={"name": "Nyberg, Eva"})
    assert r.status_code == 400
    assert r.json()["error"] == "oslo: registration is closed (the director registers players)"

    cli(served.store, "tournament", "edit", "oslo", "--registration", "open",
        "--check-in", _window(30, 60))  # fmt: skip
    r = post(url + "/registrations", json={"name": "Nyberg, Eva", "federation": "XYZ"})
    assert r.status_code == 422
    assert r.json()["error"].startswith("federation: 'XYZ' is not a FIDE federation code")
    r = post(url + "/registrations", json={"name": "Nyberg, Eva", "seed": 1})
    assert r.status_code == 422
    assert r.json()["error"] == "seed: is not a field of a player's own entry"
    r = post(url + "/registrations", json={"name": "Nyberg, Eva", "rating": 2100})
    assert r.status_code == 201, r.text
    code = r.json().pop("check_in_code")
    assert r.json() == {
        "request": 1,
        "player": 4,
        "start_rank": 4,
        "status": "registered",
        "check_in_code": code,
    }
    public = get(url + "/registrations").json()
    assert public == [
        {"request": 1, "name": "Nyberg, Eva", "status": "approved", "player": 4, "reason": None}
    ]
    assert get(url + "/registrations", headers=director).json()[0]["rating"] == 2100

    r = post(url + "/check-ins", json={"player": 4})
    assert r.status_code == 400
    assert r.json()["error"] == (
        "oslo: player No. 4: missing or wrong check-in code (given at registration; ask the "
        "director)"
    )
    r = post(url + "/check-ins", json={"player": 4, "code": code})
    assert r.status_code == 400
    assert r.json()["error"].startswith("oslo: check-in opens at ")
    r = post(url + "/check-ins", json={"player": 4}, headers=director)
    assert r.status_code == 201
    assert r.json() == {"player": 4, "checked_in": True, "already": False}
    view = get(url + "/check-ins").json()
    assert [(p["name"], p["checked_in"]) for p in view["players"]] == [
        ("Berg, Anna", False), ("Dahl, Ivar", False), ("Lie, Per", False),
        ("Nyberg, Eva", True),
    ]  # fmt: skip

    done = arbiter_run(served.store, "pair", "oslo")
    assert done.returncode == 1
    assert done.stderr == (
        "error: oslo: fewer than two players checked in (arbiter check-in oslo PLAYER ticks "
        "one in)\n"
    )
    done = arbiter_run(served.store, "check-in", "oslo", "#1", "3")
    assert done.returncode == 0, done.stderr
    assert "player No. 1 checked in" in done.stderr
    assert "player No. 3 checked in" in done.stderr
    r = post(url + "/pair", headers=director)
    assert r.status_code == 201, r.text
    assert _seated(served) == {"Berg, Anna", "Lie, Per", "Nyberg, Eva"}
    assert "Dahl, Ivar (2): not checked in" in cli(served.store, "pairings", "oslo")
    r = post(url + "/check-ins", json={"player": 2}, headers=director)
    assert r.status_code == 400
    assert r.json()["error"] == "oslo: check-in is over (round 1 is paired)"


def _seated(served: Served) -> set[str]:
    """Who round 1 seats (a board or the pairing bye)."""
    boards = json.loads(cli(served.store, "pairings", "oslo", "--format", "json"))
    return {seat["name"] for b in boards for seat in (b["white"], b["black"]) if seat}
