"""The prize list is set at every door that sets things: `arbiter prizes T set FILE` (tested in
tests/cli/test_prizes_cli.py), `PUT /api/tournaments/{id}/prizes` (the TOML's keys as JSON) and
the manage page's prize form (the TOML text). On a real `arbiter serve`:

* the API and the form set the list, and `arbiter prizes T --format json` then pays what the
  Hort system pays (the worked example of the German Wikipedia article "Hort-System" scaled to
  two tied winners: 100 + 50 pooled, each keeps half of his own and shares the other half:
  50 + 37.5 = 87.5 and 25 + 37.5 = 62.5);
* the same bad list is refused by all three doors with the same words (naming the entry and
  the key), and nothing is appended; the form keeps the text that was typed;
* nobody but the tournament's director may set it (401 without a token, 403 for another
  director).
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.process import arbiter_run
from tests.web.serving import Served, add_user, cli, cookie_header, new_event, serve, session

ERROR = re.compile(r'<p class="error" id="error">(.*?)</p>', re.S)
TEXTAREA = re.compile(r'<textarea name="prizes"[^>]*>(.*?)</textarea>', re.S)

HORT = {"sharing": "hort", "prize": [{"place": 1, "amount": 100, "item": "Cup"},
                                     {"place": 2, "amount": 50}]}  # fmt: skip
HORT_TOML = 'sharing = "hort"\n[[prize]]\nplace = 1\namount = 100\nitem = "Cup"\n' \
    "[[prize]]\nplace = 2\namount = 50\n"  # fmt: skip
BAD_TOML = "[[prize]]\nplace = 1\namount = -5\n"
BAD = {"prize": [{"place": 1, "amount": -5}]}


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Served, dict[str, str]]]:
    folder = tmp_path_factory.mktemp("set-prizes")
    store = str(folder / "store.duckdb")
    tid = new_event(store, ["Berg, Anna", "Dahl, Ivar", "Lie, Per", "Moe, Kai"], rounds=1)
    add_user(store, "kari", "director", tid, password="kari-secret-1")
    cli(store, "pair", tid)
    cli(store, "result", tid, "1", "1", "1-0")
    cli(store, "result", tid, "1", "2", "1-0")
    served = serve(store, folder)
    try:
        yield served, session(served, "kari", "kari-secret-1")
    finally:
        served.stop()


def _sets(served: Served) -> int:
    return cli(served.store, "log", "oslo").count("PrizesSet")


def _paid(served: Served) -> list[tuple[str, float, str | None]]:
    rows = json.loads(cli(served.store, "prizes", "oslo", "--format", "json"))
    return [(r["player"]["name"], r["amount"], r["item"]) for r in rows]


def test_the_api_sets_the_list(site: tuple[Served, dict[str, str]]) -> None:
    served, _ = site
    token = add_user(served.store, "api-td", "director", "oslo")
    r = httpx.put(served.url + "/api/tournaments/oslo/prizes", json=HORT,
                  headers={"authorization": f"Bearer {token}"}, timeout=30)  # fmt: skip
    assert r.status_code == 200, r.text
    assert r.json() == {"prizes": 2, "sharing": "hort"}
    assert _paid(served) == [("Berg, Anna", 87.5, "Cup"), ("Moe, Kai", 62.5, None)]


def test_the_form_sets_the_list_and_shows_it(site: tuple[Served, dict[str, str]]) -> None:
    served, jar = site
    equal = HORT_TOML.replace('"hort"', '"equal"')
    r = httpx.post(served.url + "/t/oslo/manage/prizes", headers=cookie_header(jar),
                   data={"prizes": equal, "csrf_token": jar["arbiter_csrf"]})  # fmt: skip
    assert r.status_code == 200, r.text[:300]
    assert _paid(served) == [("Berg, Anna", 75, "Cup"), ("Moe, Kai", 75, None)]
    page = httpx.get(served.url + "/t/oslo/manage", headers=cookie_header(jar))
    shown = TEXTAREA.search(page.text)
    assert shown is not None
    assert 'amount = 100\nitem = "Cup"' in html.unescape(shown.group(1))


def test_every_door_refuses_the_same_bad_list(
    site: tuple[Served, dict[str, str]], tmp_path: Path
) -> None:
    served, jar = site
    before = _sets(served)
    path = tmp_path / "prizes.toml"
    path.write_text(BAD_TOML, encoding="utf-8")
    done = arbiter_run(served.store, "prizes", "oslo", "set", str(path))
    assert done.returncode != 0
    reason = "prize 1: amount: Input should be greater than 0"
    assert done.stderr.strip().endswith(f"{path}:3:1: {reason}"), done.stderr

    token = add_user(served.store, "api-td2", "director", "oslo")
    r = httpx.put(served.url + "/api/tournaments/oslo/prizes", json=BAD,
                  headers={"authorization": f"Bearer {token}"}, timeout=30)  # fmt: skip
    assert r.status_code == 422, r.text
    assert r.json() == {"error": f"prizes: {reason}"}

    r = httpx.post(served.url + "/t/oslo/manage/prizes", headers=cookie_header(jar),
                   data={"prizes": BAD_TOML, "csrf_token": jar["arbiter_csrf"]})  # fmt: skip
    assert r.status_code == 400
    error = ERROR.search(r.text)
    assert error is not None
    assert html.unescape(error.group(1)) == f"prize list:3:1: {reason}"
    kept = TEXTAREA.search(r.text)
    assert kept is not None
    assert html.unescape(kept.group(1)) == BAD_TOML
    assert _sets(served) == before


def test_only_the_director_sets_it(site: tuple[Served, dict[str, str]]) -> None:
    served, _ = site
    url = served.url + "/api/tournaments/oslo/prizes"
    assert httpx.put(url, json=HORT, timeout=30).status_code == 401
    cli(served.store, "tournament", "create", "--name", "Bergen", "--id", "bergen",
        "--system", "dutch", "--rounds", "5")  # fmt: skip
    other = add_user(served.store, "elsewhere", "director", "bergen")
    r = httpx.put(url, json=HORT, headers={"authorization": f"Bearer {other}"}, timeout=30)
    assert r.status_code == 403


AGED_TOML = '[[category]]\nname = "U12"\nunder = 12\n[[prize]]\nplace = 1\namount = 10\n' \
    'category = "U12"\n'  # fmt: skip
AGED = {"category": [{"name": "U12", "under": 12}],
        "prize": [{"place": 1, "amount": 10, "category": "U12"}]}  # fmt: skip
NO_YEAR = (
    "category 'U12' counts ages ('under'), which needs the event's year: set the start date "
    "(tournament edit T --start DATE) or use born_min"
)
"""docs/prizes.md, `under`: an age category counts from the event's year, so an event with
no date refuses it (`decide.prizes.set_prizes`)."""


def test_every_door_refuses_an_age_category_without_the_events_year(
    site: tuple[Served, dict[str, str]], tmp_path: Path
) -> None:
    served, jar = site
    before = _sets(served)
    path = tmp_path / "aged.toml"
    path.write_text(AGED_TOML, encoding="utf-8")
    done = arbiter_run(served.store, "prizes", "oslo", "set", str(path))
    assert (done.returncode, done.stderr) == (1, f"error: {NO_YEAR}\n")

    token = add_user(served.store, "api-td3", "director", "oslo")
    r = httpx.put(served.url + "/api/tournaments/oslo/prizes", json=AGED,
                  headers={"authorization": f"Bearer {token}"}, timeout=30)  # fmt: skip
    assert (r.status_code, r.json()) == (400, {"error": NO_YEAR})

    r = httpx.post(served.url + "/t/oslo/manage/prizes", headers=cookie_header(jar),
                   data={"prizes": AGED_TOML, "csrf_token": jar["arbiter_csrf"]})  # fmt: skip
    error = ERROR.search(r.text)
    assert r.status_code == 400
    assert error is not None
    assert html.unescape(error.group(1)) == NO_YEAR
    assert _sets(served) == before
