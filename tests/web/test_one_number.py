"""One number per player (issue 47, item 4): every page, form, URL and command calls a player
by his pairing number (start rank), the number the lists show; the id only where marked.

Real parts: `arbiter serve` on a loopback port, Debian's Chromium for the player's phone, the
`arbiter` CLI in subprocesses. Three players registered out of rating order, so that ids and
numbers differ: Berg (2400, id 1), Dahl (2350, id 2), then Ek (2500, id 3). The expected numbers
are the rating order the rules give before round 1 (Ek 1, Berg 2, Dahl 3).
"""

from __future__ import annotations

import datetime as dt
import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, expect

from tests.browser import page_at
from tests.process import arbiter_run
from tests.web.serving import Served, cli, new_event, serve
from tests.web.test_registration_check_in import check_in_codes

TIMEOUT_S = 120
expect.set_options(timeout=30_000)
NUMBER = {"Ek, Siv": 1, "Berg, Anna": 2, "Dahl, Ivar": 3}
ID = {"Berg, Anna": 1, "Dahl, Ivar": 2, "Ek, Siv": 3}


def _window() -> str:
    now = dt.datetime.now(dt.UTC).astimezone().replace(tzinfo=None, second=0, microsecond=0)
    opens, closes = now - dt.timedelta(minutes=30), now + dt.timedelta(minutes=30)
    return f"{opens:%Y-%m-%dT%H:%M}/{closes:%Y-%m-%dT%H:%M}"


@pytest.fixture
def event(tmp_path: Path) -> Iterator[Served]:
    store = str(tmp_path / "store.duckdb")
    new_event(store, ["Berg, Anna", "Dahl, Ivar"])
    cli(store, "player", "add", "oslo", "--name", "Ek, Siv", "--rating", "2500")
    cli(store, "tournament", "edit", "oslo", "--check-in", _window())
    served = serve(store, tmp_path)
    try:
        yield served
    finally:
        served.stop()


def _checked_in(served: Served) -> set[str]:
    players = httpx.get(served.url + "/api/tournaments/oslo/check-ins", timeout=TIMEOUT_S).json()[
        "players"
    ]
    return {p["name"] for p in players if p["checked_in"]}


def test_pages_forms_and_commands_take_the_number_shown(
    event: Served, browser: Browser, tmp_path: Path
) -> None:
    served = event
    listed = httpx.get(served.url + "/api/tournaments/oslo/check-ins", timeout=TIMEOUT_S)
    assert {p["name"]: (p["id"], p["number"]) for p in listed.json()["players"]} == {
        name: (ID[name], NUMBER[name]) for name in NUMBER
    }
    # The API keeps the stable id in its paths, and gives both numbers.
    card = httpx.get(f"{served.url}/api/tournaments/oslo/players/3", timeout=TIMEOUT_S).json()
    assert (card["name"], card["id"], card["start_rank"]) == ("Ek, Siv", 3, 1)

    # /t/T/players/N opens No. N, and the tournament page links each name to its number.
    for name, number in NUMBER.items():
        card = httpx.get(f"{served.url}/t/oslo/players/{number}", timeout=TIMEOUT_S)
        assert card.status_code == 200
        assert f"<h1>{name}</h1>" in card.text
        assert f"No. {number}" in card.text
    assert httpx.get(f"{served.url}/t/oslo/players/4", timeout=TIMEOUT_S).status_code == 404
    page = httpx.get(served.url + "/t/oslo", timeout=TIMEOUT_S).text
    links = dict(re.findall(r'/t/oslo/players/(\d+)">([^<]+)</a>', page))
    assert {name: int(n) for n, name in links.items()} == NUMBER

    # The check-in page shows No. 1 for Ek and posts that number.
    codes = check_in_codes(served.store, "oslo", tmp_path)
    phone = page_at(browser, 390)
    phone.goto(served.url + "/t/oslo/check-in")
    row = phone.locator("#check-in tbody tr", has_text="Ek, Siv")
    expect(row.locator("td").first).to_have_text("1")
    assert row.locator("input[name=player]").get_attribute("value") == "1"
    row.locator("input[name=code]").fill(codes["Ek, Siv"])
    row.locator("button").click()
    expect(phone.locator("#notice")).to_have_text("Ek, Siv checked in")
    assert _checked_in(served) == {"Ek, Siv"}

    # The command line: a plain number is the pairing number, id:N the id.
    done = arbiter_run(served.store, "check-in", "oslo", "3")
    assert done.returncode == 0, done.stderr
    assert done.stderr == "player No. 3 checked in\n"
    assert _until(lambda: _checked_in(served) == {"Ek, Siv", "Dahl, Ivar"})
    done = arbiter_run(served.store, "player", "edit", "oslo", "id:1", "--club", "Oslo SK")
    assert done.returncode == 0, done.stderr
    assert done.stderr == "player No. 2: set club Oslo SK\n"

    def berg() -> tuple[str, str, int]:
        url = f"{served.url}/api/tournaments/oslo/players/1"
        card = httpx.get(url, timeout=TIMEOUT_S).json()
        return card["name"], card["club"], card["start_rank"]

    assert _until(lambda: berg() == ("Berg, Anna", "Oslo SK", 2)), berg()


def _until(done: Callable[[], bool], seconds: float = 10) -> bool:
    """``done()`` once the server has read the command line's write (it follows the file)."""
    deadline = time.monotonic() + seconds
    while not done():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True
