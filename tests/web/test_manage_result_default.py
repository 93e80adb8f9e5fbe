"""The manage panel's result field has no default: a stray Enter records nothing.

Over HTTP on a real `arbiter serve`: the round's result list opens on an empty, selected first
option (and is `required`, so a browser does not send it); sent anyway, the empty result is
refused with the panel's error naming the field `result`, and the log gains no result. A chosen
result is still entered.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator

import httpx
import pytest

from tests.web.serving import Served, add_user, cli, cookie_header, new_event, serve, session

ERROR = re.compile(r'<p class="error" id="error">(.*?)</p>', re.S)
SELECT = re.compile(r'<select name="result"([^>]*)>(.*?)</select>', re.S)
OPTION = re.compile(r'<option value="([^"]*)"( selected)?>')


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Served, dict[str, str]]]:
    folder = tmp_path_factory.mktemp("manage")
    store = str(folder / "store.duckdb")
    tid = new_event(store, ["Berg, Anna", "Dahl, Ivar", "Lie, Per", "Moe, Kai"])
    add_user(store, "kari", "director", tid, password="kari-secret-1")
    cli(store, "pair", tid)
    served = serve(store, folder)
    try:
        yield served, session(served, "kari", "kari-secret-1")
    finally:
        served.stop()


def _results(served: Served) -> int:
    return cli(served.store, "log", "oslo").count("ResultRecorded")


def test_the_result_list_opens_empty(site: tuple[Served, dict[str, str]]) -> None:
    served, jar = site
    page = httpx.get(served.url + "/t/oslo/manage", headers=cookie_header(jar))
    assert page.status_code == 200
    selects = SELECT.findall(page.text)
    assert len(selects) == 2  # two boards, no result yet
    for attributes, options in selects:
        assert "required" in attributes.split()
        found = OPTION.findall(options)
        assert found[0] == ("", " selected")
        assert [value for value, selected in found if selected] == [""]
        assert "1-0" in [value for value, _ in found]


def test_an_empty_result_is_refused_naming_the_field(site: tuple[Served, dict[str, str]]) -> None:
    served, jar = site
    before = _results(served)
    r = httpx.post(
        served.url + "/t/oslo/manage/result",
        data={"round": "1", "board": "1", "result": "", "csrf_token": jar["arbiter_csrf"]},
        headers=cookie_header(jar),
    )
    assert r.status_code == 400, r.text[:300]
    found = ERROR.search(r.text)
    assert found is not None, r.text[:300]
    assert html.unescape(found.group(1)).startswith("result: ")
    assert _results(served) == before
    chosen = httpx.post(
        served.url + "/t/oslo/manage/result",
        data={"round": "1", "board": "1", "result": "1-0", "csrf_token": jar["arbiter_csrf"]},
        headers=cookie_header(jar),
    )
    assert chosen.status_code == 200, chosen.text[:300]
    assert _results(served) == before + 1
