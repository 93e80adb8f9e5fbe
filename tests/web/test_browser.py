"""A director works in a real browser while an anonymous phone watches the same event live.

Real parts: `arbiter serve` in a subprocess on a loopback port, Debian's Chromium, the CLI in
subprocesses beside the server (on DuckDB the server must leave the file's lock free), and a
throwaway PostgreSQL server with two `arbiter serve` processes on one log.
"""

from __future__ import annotations

import functools
import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser import page_at
from tests.web.serving import Served, add_user, cli, new_event, serve

TIMEOUT_S = 120  # a loaded 2-core box can take seconds per request
get = functools.partial(httpx.get, timeout=TIMEOUT_S)
post = functools.partial(httpx.post, timeout=TIMEOUT_S)

HOSTILE = "Evil, <script>window.pwned=1</script>"
QUOTED = 'O\'Brien, "Bob" <img src=x onerror=window.pwned=2>'
PLAYERS = [HOSTILE, "Carlsen, Magnus", QUOTED, "Hou, Yifan", "Giri, Anish", "Ju, Wenjun"]
TIMEOUT = 30_000  # ms, for a loaded box; the 1 s figure is measured by benchmarks/bench_serve.py
expect.set_options(timeout=TIMEOUT)


def shot(page: Page, folder: Path, name: str) -> None:
    path = folder / name
    page.screenshot(path=str(path), full_page=True)
    assert path.stat().st_size > 0
    target = os.environ.get("ARBITER_SCREENSHOT_DIR")
    if target:
        Path(target).mkdir(parents=True, exist_ok=True)
        shutil.copy(path, Path(target) / name)


def log_in(page: Page, url: str, name: str, password: str) -> None:
    page.goto(url + "/login")
    page.fill("input[name=name]", name)
    page.fill("input[name=password]", password)
    page.click("button[type=submit]")


def points_of(page: Page, name: str) -> str:
    row = page.locator("#standings tbody tr", has_text=name)
    return row.locator("td.pts").inner_text()


@pytest.fixture(scope="module")
def duck(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    folder = tmp_path_factory.mktemp("serve-duck")
    store = str(folder / "store.duckdb")
    new_event(store, PLAYERS)
    add_user(store, "kari", "director", "oslo", password="kari-secret-1")
    served = serve(store, folder)
    yield served
    served.stop()


def test_director_pairs_and_enters_results_while_a_phone_watches(
    duck: Served, browser: Browser, tmp_path: Path
) -> None:
    phone = page_at(browser, 390)
    phone.goto(duck.url + "/t/oslo")
    phone.evaluate("window.loadedOnce = 'yes'")
    expect(phone.locator("#standings tbody tr")).to_have_count(6)
    expect(phone.locator("#pairings")).to_have_count(0)

    desk = page_at(browser, 1280, 800)
    log_in(desk, duck.url, "kari", "kari-secret-1")
    expect(desk).to_have_url(duck.url + "/t/oslo/manage")
    desk.click("#pair")
    expect(desk.locator("#notice")).to_have_text("next round paired")
    # The phone shows round 1 without a reload.
    expect(phone.locator("#pairings tbody tr")).to_have_count(3, timeout=TIMEOUT)

    first = desk.locator("#results tbody tr").first
    white = first.locator("td.n").first.inner_text()
    first.locator("select").select_option("1-0")
    first.locator("button").click()
    expect(desk.locator("#notice")).to_have_text("round 1 board 1: 1-0")
    # The board shows the result at once; the standings count it once round 1 is over.
    board1 = phone.locator("#pairings tbody tr").first.locator("td.res")
    expect(board1).to_have_text("1-0", timeout=TIMEOUT)
    expect(phone.locator("#standings-as-of")).to_have_text("before round 1 of 3, round 1 in play")
    assert points_of(phone, white) == "0"

    # A refused result: the command's message, the field named as the form names it (the CLI
    # says --correct), nothing appended.
    desk.locator("#results tbody tr").first.locator("select").select_option("0-1")
    desk.evaluate("document.querySelector('#results input[name=correct]').remove()")
    desk.locator("#results tbody tr").first.locator("button").click()
    expect(desk.locator("#error")).to_have_text(
        "oslo: round 1 board 1 already has result 1-0; use correct to change it"
    )

    # A result entered by the CLI beside the server reaches the phone too.
    second = phone.locator("#pairings tbody tr").nth(1)
    cli(duck.store, "result", "oslo", "1", "2", "0-1")
    expect(second.locator("td.res")).to_have_text("0-1", timeout=TIMEOUT)
    cli(duck.store, "result", "oslo", "1", "3", "1/2-1/2")
    expect(phone.locator("#standings-as-of")).to_have_text("after round 1 of 3", timeout=TIMEOUT)
    expect(phone.locator("#standings tbody tr", has_text=white).locator("td.pts")).to_have_text("1")

    # Hostile names are text, never markup.
    assert phone.evaluate("window.pwned") is None
    assert phone.evaluate("window.loadedOnce") == "yes"  # never reloaded
    expect(phone.locator("#standings")).to_contain_text("<script>window.pwned=1</script>")
    expect(phone.locator("#standings")).to_contain_text('"Bob" <img src=x')
    assert desk.evaluate("window.pwned") is None

    shot(phone, tmp_path, "tournament-390.png")
    shot(desk, tmp_path, "manage-1280.png")
    wide = page_at(browser, 1280, 800)
    wide.goto(duck.url + "/t/oslo")
    shot(wide, tmp_path, "tournament-1280.png")
    phone.goto(duck.url + "/t/oslo/crosstable")
    shot(phone, tmp_path, "crosstable-390.png")
    phone.goto(duck.url + "/")
    shot(phone, tmp_path, "home-390.png")

    # Every event of the session names its author: the account or the CLI's user.
    log = cli(duck.store, "log", "oslo", "--format", "json")
    assert '"actor": "kari"' in log
    assert '"source": "api"' in log


def test_wrong_passwords_are_rate_limited(duck: Served) -> None:
    with httpx.Client(base_url=duck.url, timeout=TIMEOUT_S) as client:
        csrf = client.get("/login").headers["set-cookie"].split("arbiter_csrf=")[1].split(";")[0]
        codes = []
        for _ in range(7):
            r = client.post(
                "/login",
                data={"name": "kari", "password": "wrong-password", "csrf_token": csrf},
                headers={"cookie": f"arbiter_csrf={csrf}"},
            )
            codes.append(r.status_code)
        assert codes[:5] == [401] * 5
        assert codes[5:] == [429, 429]
        # Even the right password waits until the window has passed.
        r = client.post(
            "/login",
            data={"name": "kari", "password": "kari-secret-1", "csrf_token": csrf},
            headers={"cookie": f"arbiter_csrf={csrf}"},
        )
        assert r.status_code == 429
        assert int(r.headers["retry-after"]) > 0


def test_two_servers_on_one_postgresql_log(
    postgres_url: str, browser: Browser, tmp_path: Path
) -> None:
    new_event(postgres_url, PLAYERS[1:5])
    token = add_user(postgres_url, "kari", "director", "oslo")
    one, two = serve(postgres_url, tmp_path), serve(postgres_url, tmp_path)
    try:
        phone = page_at(browser, 390)
        phone.goto(two.url + "/t/oslo")
        auth = {"authorization": f"Bearer {token}"}
        r = post(one.url + "/api/tournaments/oslo/pair", headers=auth)
        assert r.status_code == 201, r.text
        expect(phone.locator("#pairings tbody tr")).to_have_count(2, timeout=TIMEOUT)
        r = post(
            one.url + "/api/tournaments/oslo/results",
            json={"round": 1, "board": 1, "result": "1-0"},
            headers=auth,
        )
        assert r.status_code == 201, r.text
        first = phone.locator("#pairings tbody tr").first.locator("td.res")
        expect(first).to_have_text("1-0", timeout=TIMEOUT)
        cli(postgres_url, "result", "oslo", "1", "2", "1/2-1/2")
        second = phone.locator("#pairings tbody tr").nth(1).locator("td.res")
        expect(second).to_have_text("1/2-1/2", timeout=TIMEOUT)
        # The second server's JSON is the CLI's.
        assert get(two.url + "/api/tournaments/oslo/standings").text == cli(
            postgres_url, "standings", "oslo", "--format", "json"
        )
    finally:
        one.stop()
        two.stop()
