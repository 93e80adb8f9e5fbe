"""``Idempotency-Key`` on a single server with a DuckDB file (issue 45, item 4; the two-server
PostgreSQL case, through a dropped connection, is in `test_scale_out`).

The README: sent again with the same key and body, the request gets the first answer (with
``Idempotency-Replayed: true``) and nothing is run twice; another body with that key is 422;
the key belongs to its client (another token's same key is another request).
"""

from __future__ import annotations

from pathlib import Path

import httpx

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
    listed = cli(store, "player", "list", tid)
    assert listed.count("Late, Comer") == 1
    assert "Other, One" not in listed
    assert listed.count("Their, Own") == 1
