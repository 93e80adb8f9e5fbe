"""Published pages on a 390 px phone and a 1280 px laptop, in headless Chromium.

A go crosstable, a chess crosstable (both from corpus files ingested with `arbiter ingest`,
written by `arbiter crosstable --format html`) and an EGF rating list (`arbiter ratings run`):
in every row the player's place and points (the rating, in a list) lie inside the first
screen's width, so nobody scrolls sideways to find them. Screenshots of the first screen go to
the test's folder, and to ``$ARBITER_SCREENSHOT_DIR`` when it is set.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from playwright.sync_api import Browser

from tests.browser import page_at
from tests.cli.games_cli import Cli
from tests.conftest import require_testdata

TRF = ("chess", "real", "torneo_san_viator_B_2018_madrid.trf")
H9 = ("go", "h9", "honte_kpmc2013.h9")
# page -> (the place column's header, the points column's header)
COLUMNS = {"go-crosstable": ("Rank", "Pts"), "chess-crosstable": ("Rank", "Pts"),
           "rating-list": ("#", "Rating")}  # fmt: skip

_CELLS = """([place, points]) => {
  const heads = [...document.querySelectorAll('thead th')].map(th => th.textContent.trim());
  const at = [heads.indexOf(place), heads.indexOf(points)];
  if (at.includes(-1)) return {heads};
  const rows = [...document.querySelectorAll('tbody tr')].map(tr => at.map(i => {
    const r = tr.cells[i].getBoundingClientRect();
    return [r.left, r.right, tr.cells[i].textContent.trim()];
  }));
  return {heads, rows, scroll: document.documentElement.scrollWidth};
}"""


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    files = [require_testdata(*TRF), require_testdata(*H9)]
    folder = tmp_path_factory.mktemp("pages")
    cli = Cli(folder / "store.duckdb")
    cli("ingest", *map(str, files))
    ids = {t["game"]: t["id"] for t in cli.json("tournament", "list")}
    out = {}
    for game in ("go", "chess"):
        out[f"{game}-crosstable"] = folder / f"{game}-crosstable.html"
        html = cli("crosstable", ids[game], "--sorted", "--format", "html")
        out[f"{game}-crosstable"].write_text(html, encoding="utf-8")
    cli("ratings", "run", "--method", "egf", "--as-of", "2014-01-01", "-o", str(folder / "egf"))
    out["rating-list"] = folder / "egf" / "index.html"
    return out


@pytest.mark.parametrize("width", [390, 1280])
@pytest.mark.parametrize("name", sorted(COLUMNS))
def test_place_and_points_in_the_first_screen(
    browser: Browser,
    pages: dict[str, Path],
    name: str,
    width: int,
    tmp_path: Path,
) -> None:
    page = page_at(browser, width)
    page.goto(pages[name].as_uri())
    found = page.evaluate(_CELLS, list(COLUMNS[name]))
    assert "rows" in found, f"{name}: columns {COLUMNS[name]} not in {found['heads']}"
    assert len(found["rows"]) > 50
    for place, points in found["rows"]:
        for left, right, text in (place, points):
            assert text, f"{name}: empty cell"
            where = f"{name} at {width}px: '{text}' at {left}..{right}"
            assert left >= 0, where
            assert right <= width, where
    assert found["scroll"] <= width, f"{name} at {width}px: the page itself scrolls sideways"
    shot = tmp_path / f"{name}-{width}.png"
    page.screenshot(path=str(shot))
    page.context.close()
    target = os.environ.get("ARBITER_SCREENSHOT_DIR")
    if target:
        Path(target).mkdir(parents=True, exist_ok=True)
        shutil.copy(shot, Path(target) / shot.name)
    assert shot.stat().st_size > 1000
