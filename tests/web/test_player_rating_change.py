"""The player's card on a real `arbiter serve` shows his rating change from a chess event, the
same as `standings --rating-change` (:mod:`pipelines.views.rating_change`): FIDE's published
F-P01 (Washington Dulles Open, Nov 2025; ``chess/fide_ratings``, read in place) written as a
FIDE XML list and a TRF (:mod:`tests.cli.fide_files`), imported and ingested, then read over
HTTP: Ro 2813, K 10, K·(W − We) −2.50, change −3 (FIDE's published values), each game's
K·(W − We)."""

from __future__ import annotations

import html
from pathlib import Path

import httpx
import pytest

from tests.cli.fide_files import published_case, read_reference, write_list, write_trf
from tests.web.serving import cli, serve

pytestmark = pytest.mark.golden


def test_player_card_shows_the_fide_change(tmp_path: Path) -> None:
    case = next(
        c for c in read_reference("published_calculations.json")["cases"] if c["id"] == "F-P01"
    )
    files = published_case(case)
    store = str(tmp_path / "arbiter.duckdb")
    cli(store, "store", "init")
    for day, rows in sorted(files.lists.items()):
        path = write_list(tmp_path / f"list-{day:%Y-%m}.xml", rows)
        cli(store, "ratings", "import", str(path), "--date", day.isoformat())
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    ((name, start, end, players),) = files.events
    write_trf(inbox / f"{name}.trf", name, start, end, players)
    cli(store, "ingest", str(inbox))
    served = serve(store, tmp_path)
    try:
        page = httpx.get(f"{served.url}/t/{name}/players/1", timeout=30)
    finally:
        served.stop()
    assert page.status_code == 200
    text = html.unescape(page.text)
    tournament = case["tournaments"][0]
    assert "Rating change (FIDE)" in text
    assert f"Ro {tournament['Ro']} · Rp " in text
    assert f"K {tournament['K']} · K·(W−We) {tournament['K_chg']} · change -3" in text
    cells = [f"<td>{g['K_chg']}</td></tr>" for g in tournament["games"]]
    table = text[text.index('id="rated-games"') :]
    assert all(c in table for c in cells)
