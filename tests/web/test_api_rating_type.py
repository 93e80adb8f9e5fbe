"""The API runs a rapid or blitz FIDE list, as `arbiter ratings run --rating-type` does.

Over HTTP on a real `arbiter serve`: a chess event rated rapid (made through `arbiter`), then
``POST /api/ratings/run`` with ``"rating_type": "rapid"`` answers the fide-rapid list (422 before:
the field was unknown); ``blitz`` gives the (empty) blitz list; an unknown type is refused naming
the field.
"""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from tests.web.serving import Served, add_user, batch, serve


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Served, str]]:
    folder = tmp_path_factory.mktemp("rapid")
    store = str(folder / "store.duckdb")
    batch(store, folder, [  # the set-up, in one process
        "tournament create --name Rapid --id rp --system dutch --rounds 1 --rating-type rapid "
        "--start 2026-03-07",
        *(f"player add rp --name '{name}' --rating {1800 + 50 * i} --federation NOR --birth 1990"
          for i, name in enumerate(("A, A", "B, B", "C, C", "D, D"))),
        "pair rp",
        "result rp 1 1 1-0",
        "result rp 1 2 1/2-1/2",
    ])  # fmt: skip
    token = add_user(store, "ola", "officer")
    server = serve(store, folder)
    try:
        yield server, token
    finally:
        server.stop()


def _run(served: tuple[Served, str], body: dict[str, object]) -> httpx.Response:
    server, token = served
    return httpx.post(
        server.url + "/api/ratings/run", json=body,
        headers={"authorization": f"Bearer {token}"}, timeout=120,
    )  # fmt: skip


def test_a_rapid_list(served: tuple[Served, str]) -> None:
    r = _run(served, {"method": "fide", "as_of": "2026-04-01", "rating_type": "rapid"})
    assert r.status_code == 200, r.text
    answer = r.json()
    assert (answer["list"], answer["rating_type"]) == ("fide-rapid", "rapid")
    assert answer["games"] == 2


def test_a_blitz_list_counts_no_rapid_games(served: tuple[Served, str]) -> None:
    r = _run(served, {"method": "fide", "as_of": "2026-04-01", "rating_type": "blitz",
                      "publish": False})  # fmt: skip
    assert r.status_code == 200, r.text
    assert (r.json()["list"], r.json()["games"]) == ("fide-blitz", 0)


def test_an_unknown_rating_type_is_refused(served: tuple[Served, str]) -> None:
    r = _run(served, {"method": "fide", "as_of": "2026-04-01", "rating_type": "bullet"})
    assert r.status_code in (400, 422), r.text
    assert "rating_type" in r.json()["error"]


def test_refusals_name_the_fields_not_the_options(served: tuple[Served, str]) -> None:
    """The list-request rules say the API's field (``rating_type``, ``game``), as the CLI says
    its option (tests/cli/test_rating_lists_cli.py)."""
    r = _run(served, {"method": "egf", "as_of": "2026-04-01", "rating_type": "rapid"})
    assert r.status_code in (400, 422), r.text
    assert r.json()["error"].endswith(
        "rating_type: FIDE lists only have rating types, found 'rapid' for a egf list"
    )
    r = _run(served, {"method": "egf", "as_of": "2026-04-01", "game": "chess"})
    assert r.status_code in (400, 422), r.text
    assert "game: the egf list rates go only, found 'chess'" in r.json()["error"]
    assert "--" not in r.json()["error"]
