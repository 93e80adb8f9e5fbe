"""Anonymous GETs answered from memory (`pipelines.web.replay`) never outlive the hub's state.

Against a real `arbiter serve`: a page and its JSON twin change as soon as the log does (a CLI
write from another process), a response that sets a cookie is never replayed, and a director
(bearer token) gets his own page, not the anonymous one.
"""

from __future__ import annotations

import functools
import time
from pathlib import Path

import httpx

from tests.web.serving import add_user, cli, new_event, serve

TIMEOUT_S = 120
get = functools.partial(httpx.get, timeout=TIMEOUT_S)


def _until_changed(url: str, before: bytes, seconds: float = 30.0) -> bytes:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        now = get(url).content
        if now != before:
            return now
        time.sleep(0.1)
    raise AssertionError(f"{url} still shows the old state after {seconds} s")


def test_replayed_pages_follow_the_log(tmp_path: Path) -> None:
    store = str(tmp_path / "store.duckdb")
    new_event(store, ["A, One", "B, Two", "C, Three", "D, Four"])
    token = add_user(store, "kari", "director", "oslo")
    served = serve(store, tmp_path)
    try:
        page, standings = served.url + "/t/oslo", served.url + "/api/tournaments/oslo/standings"
        first_page, first_json = get(page).content, get(standings).content
        assert get(page).content == first_page
        assert get(standings).content == first_json
        assert "Not paired yet" in first_page.decode()

        cli(store, "pair", "oslo")
        paired = _until_changed(page, first_page)
        assert "Round 1" in paired.decode()
        cli(store, "result", "oslo", "1", "1", "1-0")
        assert "1-0" in _until_changed(page, paired).decode()
        cli(store, "result", "oslo", "1", "2", "1/2-1/2")  # round 1 over: the standings count it
        assert '"points": 1.0' in _until_changed(standings, first_json).decode()

        cookies = [get(served.url + "/login").headers.get("set-cookie") for _ in range(2)]
        assert all(cookies)
        assert cookies[0] != cookies[1]  # a fresh CSRF token each time, never a replay

        director = {"authorization": f"Bearer {token}"}
        assert "/t/oslo/manage" in get(page, headers=director).text
        assert "/t/oslo/manage" not in get(page).text
    finally:
        served.stop()
