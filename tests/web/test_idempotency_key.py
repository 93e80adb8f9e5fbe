"""``Idempotency-Key`` on a single server with a DuckDB file (issue 45, item 4; the two-server
PostgreSQL case, through a dropped connection, is in `test_scale_out`).

The README: sent again with the same key and body, the request gets the first answer (with
``Idempotency-Replayed: true``) and nothing is run twice; another body with that key is 422;
the key belongs to its client (another token's same key is another request). The answers
outlive a restart of the server (kept in a file beside the store's). A form carries its key as
a hidden field: the same form sent again from the browser (Chromium) gets the first page, and
the log holds one registration.
"""

from __future__ import annotations

from pathlib import Path

import httpx
from playwright.sync_api import Browser

from tests.web.serving import add_user, cli, new_event, serve

TIMEOUT_S = 120


def test_a_resent_registration_is_answered_once_and_recorded_once(tmp_path: Path) -> None:
    store = str(tmp_path / "store.duckdb")
    tid = new_event(store, ["A, One", "B, Two"])
    kari = add_user(store, "kari", "director", tid)
    nils = add_user(store, "nils", "director", tid)
    served = serve(store, tmp_path)
    try:
        url = f"{served.url}/api/tournaments/{tid}/players"
        body = {"name": "Late, Comer", "rating": 1800}

        def post(token: str, key: str, json: dict[str, object]) -> httpx.Response:
            return httpx.post(
                url, json=json, timeout=TIMEOUT_S,
                headers={"authorization": f"Bearer {token}", "idempotency-key": key},
            )  # fmt: skip

        first = post(kari, "late-comer", body)
        assert first.status_code == 201, first.text
        assert "idempotency-replayed" not in first.headers
        again = post(kari, "late-comer", body)
        assert again.status_code == 201
        assert again.headers["idempotency-replayed"] == "true"
        assert again.content == first.content
        other = post(kari, "late-comer", {"name": "Other, One", "rating": 1700})
        assert other.status_code == 422, other.text
        assert "Idempotency-Key" in other.json()["error"]
        theirs = post(nils, "late-comer", {"name": "Their, Own", "rating": 1600})
        assert theirs.status_code == 201, theirs.text
        assert "idempotency-replayed" not in theirs.headers
    finally:
        served.stop()
    served = serve(store, tmp_path)  # a restart: the answers are still there
    url = f"{served.url}/api/tournaments/{tid}/players"
    try:
        after = post(kari, "late-comer", body)
        assert after.status_code == 201, after.text
        assert after.headers["idempotency-replayed"] == "true"
        assert after.content == first.content
    finally:
        served.stop()
    listed = cli(store, "player", "list", tid)
    assert listed.count("Late, Comer") == 1
    assert "Other, One" not in listed
    assert listed.count("Their, Own") == 1


def test_a_resent_form_gets_the_first_page(tmp_path: Path, browser: Browser) -> None:
    """A player's own entry through `/t/T/register` in Chromium; the browser sends the very
    form again (its cookies, the same body, as a reload that re-posts does): the first page
    comes back, replayed, and the log holds one entry. A new page's form has a new key."""
    store = str(tmp_path / "store.duckdb")
    tid = new_event(store, ["A, One", "B, Two"])
    cli(store, "tournament", "edit", tid, "--registration", "open")
    served = serve(store, tmp_path)
    try:
        page = browser.new_context().new_page()
        page.goto(f"{served.url}/t/{tid}/register")
        key = page.locator("#register-form input[name=idempotency_key]")
        first_key = key.get_attribute("value")
        assert first_key
        page.fill("#register-name", "Nyberg, Eva")
        with page.expect_response(f"{served.url}/t/{tid}/register") as answer:
            page.click("#register")
        first = answer.value
        sent = first.request
        assert first.status == 200
        assert (
            "Nyberg, Eva: registered as No. 3 (until round 1 is paired, numbers follow the "
            "ratings); your check-in code is"
        ) in first.text()
        assert f"idempotency_key={first_key}" in (sent.post_data or "")
        assert key.get_attribute("value") != first_key  # the answer's form: a new key

        again = page.context.request.post(
            sent.url, data=sent.post_data,
            headers={"content-type": sent.headers["content-type"]},
        )  # fmt: skip
        assert again.status == 200
        assert again.headers["idempotency-replayed"] == "true"
        assert again.body() == first.body()
    finally:
        served.stop()
    assert cli(store, "player", "list", tid).count("Nyberg, Eva") == 1
