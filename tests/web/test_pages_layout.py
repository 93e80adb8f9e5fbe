"""Every public page type at 390 x 844 (a phone) and 1280 x 800 (a laptop), chess and go, in
headless Chromium on a real `arbiter serve` (issue 33, part 1).

The events are reference corpora ingested with `arbiter ingest` (a real Spanish Swiss as TRF,
a real go event as h9) and the EGF rating list `arbiter ratings run` publishes from them. On
each page, measured from the element boxes: in every row the place, the name and the points
(a round: board, White, result; a player card: round, opponent, result; a list: place, name,
rating) lie inside the first screen; every name sits on one line (never broken inside a word:
no `break-all`, `overflow-wrap: normal`, `white-space: nowrap`); the page itself never scrolls
sideways; a table wider than the screen scrolls inside its wrapper and keeps the name column in
view when scrolled to its far end. With ARBITER_SCREENSHOTS=<dir> each page is saved there as
a full-page PNG (`<game>-<page>-<width>.png`).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser

from tests.browser import page_at
from tests.conftest import require_testdata
from tests.web.serving import Served, cli, serve

TRF = ("chess", "real", "torneo_san_viator_B_2018_madrid.trf")
H9 = ("go", "h9", "honte_kpmc2013.h9")
# page type -> (the table's CSS selector, headers of place, name, points)
PAGES = {
    "home": ("ul.plain", ()),
    "standings": ("#standings", ("#", "Name", "Pts")),
    "round": ("#pairings", ("Bd", "White", "Result")),
    "crosstable": ("#crosstable", ("Rank", "Name", "Pts")),
    "player": ("#games", ("Rd", "Opponent", "Result")),
    "rating-list": ("table", ("#", "Name", "Rating")),
}
SIZES = [(390, 844), (1280, 800)]

_MEASURE = """([selector, heads]) => {
  const table = document.querySelector(selector);
  if (!table) return {missing: selector};
  const lines = el => {  // the distinct line tops of an element's text
    const range = document.createRange(); range.selectNodeContents(el);
    return new Set([...range.getClientRects()].map(r => Math.round(r.top))).size;
  };
  const out = {scroll: document.documentElement.scrollWidth, rows: [], names: []};
  if (table.tagName === 'UL') {  // the home page: every list's links
    for (const a of document.querySelectorAll(selector + ' li > a')) {
      const r = a.getBoundingClientRect();
      out.rows.push([[r.left, r.right, a.textContent.trim()]]);
      out.names.push([a.textContent.trim(), lines(a), getComputedStyle(a).whiteSpace,
                      getComputedStyle(a).wordBreak, getComputedStyle(a).overflowWrap]);
    }
    return out;
  }
  const th = [...table.querySelectorAll('thead th')].map(x => x.textContent.trim());
  const at = heads.map(h => th.indexOf(h));
  if (at.includes(-1)) return {heads: th};
  const nameAt = at[1];
  for (const tr of table.querySelectorAll('tbody tr')) {
    if (tr.cells.length <= Math.max(...at)) continue;
    out.rows.push(at.map(i => {
      const r = tr.cells[i].getBoundingClientRect();
      return [r.left, r.right, tr.cells[i].textContent.trim()];
    }));
    const cell = tr.cells[nameAt], s = getComputedStyle(cell);
    out.names.push([cell.textContent.trim(), lines(cell), s.whiteSpace, s.wordBreak,
                    s.overflowWrap]);
  }
  const wrap = table.closest('.wrap');
  if (wrap && wrap.scrollWidth > wrap.clientWidth) {
    wrap.scrollLeft = wrap.scrollWidth;
    const cell = table.querySelector('tbody tr').cells[nameAt];
    out.scrolled = [wrap.getBoundingClientRect().left, cell.getBoundingClientRect().left,
                    cell.getBoundingClientRect().right];
    wrap.scrollLeft = 0;
  }
  return out;
}"""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Served, dict[str, str]]]:
    files = [require_testdata(*TRF), require_testdata(*H9)]
    folder = tmp_path_factory.mktemp("pages-layout")
    store = str(folder / "store.duckdb")
    cli(store, "ingest", *map(str, files))
    cli(store, "ratings", "run", "--method", "egf", "--as-of", "2014-01-01",
        "-o", str(folder / "egf"))  # fmt: skip
    served = serve(store, folder)
    ids = {
        t["game"]: t["id"] for t in httpx.get(served.url + "/api/tournaments", timeout=60).json()
    }
    urls = {"home": "/", "rating-list": "/ratings/egf"}
    for game, tid in ids.items():
        page = httpx.get(f"{served.url}/t/{tid}", timeout=120).text
        first = re.search(r'<table id="standings">.*?/players/(\d+)"', page, re.S)
        assert first is not None
        urls |= {
            f"{game}-standings": f"/t/{tid}",
            f"{game}-round": f"/t/{tid}?round=1",
            f"{game}-crosstable": f"/t/{tid}/crosstable",
            f"{game}-player": f"/t/{tid}/players/{first[1]}",
        }
    yield served, urls
    served.stop()


CASES = [("site", "home"), ("site", "rating-list")] + [
    (game, kind)
    for game in ("chess", "go")
    for kind in PAGES
    if kind not in {"home", "rating-list"}
]


@pytest.mark.parametrize(("width", "height"), SIZES)
@pytest.mark.parametrize(("game", "kind"), CASES)
def test_page_keeps_place_name_and_points_in_view(
    browser: Browser,
    site: tuple[Served, dict[str, str]],
    game: str,
    kind: str,
    width: int,
    height: int,
) -> None:
    served, urls = site
    url = urls[kind if game == "site" else f"{game}-{kind}"]
    selector, heads = PAGES[kind]
    page = page_at(browser, width, height)
    try:
        page.goto(served.url + url, timeout=120_000)
        found = page.evaluate(_MEASURE, [selector, list(heads)])
        target = os.environ.get("ARBITER_SCREENSHOTS")
        if target:
            Path(target).mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(Path(target) / f"{game}-{kind}-{width}.png"), full_page=True)
    finally:
        page.context.close()
    where = f"{game} {kind} at {width}px ({url})"
    assert "rows" in found, f"{where}: {found}"
    assert len(found["rows"]) >= 3, where
    for cells in found["rows"]:
        for left, right, text in cells:
            box = f"{where}: '{text}' at {left:.0f}..{right:.0f}"
            assert left >= 0, box
            assert right <= width, box
    for name, lines, white_space, word_break, overflow_wrap in found["names"]:
        assert lines == 1, f"{where}: '{name}' on {lines} lines"
        assert (white_space, overflow_wrap) == ("nowrap", "normal"), f"{where}: '{name}'"
        assert word_break != "break-all", f"{where}: '{name}'"
    assert found["scroll"] <= width, f"{where}: the page itself scrolls sideways"
    if "scrolled" in found:  # a wide table: scrolled to its end, the name is still in view
        wrap_left, name_left, name_right = found["scrolled"]
        assert name_left >= wrap_left - 1, f"{where}: {found['scrolled']}"
        assert name_right <= width, f"{where}: {found['scrolled']}"
