"""Issue 47: each game's forms ask only for that game's fields. A real server (`arbiter serve`
on a loopback port) with a chess and a go event: the registration page of each (the form a
player fills on his phone) and the director's manage page (register and correct a player).

Expected: the games' own fields as the rules name them: a FIDE title and FIDE id are chess's;
a go rank, EGD PIN, AGA id and AGA rating are go's; a WOF id is othello's. Name, rating,
federation, birth, sex and club are every game's."""

from __future__ import annotations

import re
from collections.abc import Iterator

import httpx
import pytest

from tests.web.serving import Served, add_user, batch, cookie_header, new_event, serve, session

CHESS_ONLY = {"title", "fide_id"}
GO_ONLY = {"rank", "aga_rating", "egd_pin", "aga_id"}
OTHELLO_ONLY = {"wof_id"}
SHARED_ENTRY = {"name", "rating", "federation", "birth", "sex", "club"}


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    folder = tmp_path_factory.mktemp("forms")
    store = str(folder / "store.duckdb")
    new_event(store, ["Berg, Anna", "Dahl, Ivar"])
    batch(store, folder, [  # the set-up, in one process
        "tournament create --name 'Go Cup' --game go --system macmahon --id gocup",
        *(f"tournament edit {tid} --registration open" for tid in ("oslo", "gocup")),
    ])  # fmt: skip
    for tid in ("oslo", "gocup"):
        add_user(store, f"td-{tid}", "director", tid, password="director-secret-1")
    server = serve(store, folder)
    try:
        yield server
    finally:
        server.stop()


def _fields(page: str, prefix: str) -> set[str]:
    return set(re.findall(rf'id="{prefix}-([a-z_]+)"', page))


@pytest.mark.parametrize(
    ("tid", "own", "others"),
    [("oslo", CHESS_ONLY, GO_ONLY | OTHELLO_ONLY), ("gocup", {"rank"}, CHESS_ONLY)],
)
def test_registration_form(served: Served, tid: str, own: set[str], others: set[str]) -> None:
    page = httpx.get(f"{served.url}/t/{tid}/register", timeout=60)
    assert page.status_code == 200
    asked = _fields(page.text, "register")
    assert asked >= SHARED_ENTRY
    assert own <= asked, asked
    assert not asked & others, asked


@pytest.mark.parametrize(
    ("tid", "own", "others"),
    [("oslo", CHESS_ONLY, GO_ONLY | OTHELLO_ONLY), ("gocup", GO_ONLY, CHESS_ONLY | OTHELLO_ONLY)],
)
def test_manage_forms(served: Served, tid: str, own: set[str], others: set[str]) -> None:
    jar = session(served, f"td-{tid}", "director-secret-1")
    page = httpx.get(f"{served.url}/t/{tid}/manage", headers=cookie_header(jar), timeout=60)
    assert page.status_code == 200, page.text
    for prefix in ("player", "edit"):
        asked = _fields(page.text, prefix)
        assert own <= asked, (prefix, asked)
        assert not asked & others, (prefix, asked)
