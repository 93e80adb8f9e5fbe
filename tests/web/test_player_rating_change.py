"""The player's card on a real `arbiter serve` shows his rating change from a chess event, the
same as `standings --rating-change` (:mod:`pipelines.views.rating_change`): FIDE's published
F-P01 (Washington Dulles Open, Nov 2025; ``chess/fide_ratings``, read in place) written as a
FIDE XML list and a TRF (:mod:`tests.cli.fide_files`), imported and ingested, then read over
HTTP: Ro 2813, K 10, K·(W − We) −2.50, change −3 (FIDE's published values), each game's
K·(W − We)."""

from __future__ import annotations

import html
import shlex
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.cli.fide_files import Json, published_case, read_reference, write_list, write_trf
from tests.cli.games_cli import json_outputs
from tests.web.serving import Served, cli, serve

pytestmark = pytest.mark.golden


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Served, Json, str, Any]]:
    """One store served for both cards (they only read it): F-P01's lists imported and its
    TRF ingested, and a go event of two 1d players (GoR 2100 from the rank, no EGD list), one
    even game won by white; made in one `arbiter batch`. Gives the server, F-P01's published
    case, its event's name and the go event's board."""
    tmp_path = tmp_path_factory.mktemp("rating-change")
    case = next(
        c for c in read_reference("published_calculations.json")["cases"] if c["id"] == "F-P01"
    )
    files = published_case(case)
    store = str(tmp_path / "arbiter.duckdb")
    lines = ["store init"]
    for day, rows in sorted(files.lists.items()):
        path = write_list(tmp_path / f"list-{day:%Y-%m}.xml", rows)
        lines.append(f"ratings import {shlex.quote(str(path))} --date {day.isoformat()}")
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    ((name, start, end, players),) = files.events
    write_trf(inbox / f"{name}.trf", name, start, end, players)
    lines += [
        f"ingest {shlex.quote(str(inbox))}",
        "tournament create --name Go --id go --game go --system macmahon --rounds 1",
        "player add go --name 'Abe, Ko' --rank 1d",
        "player add go --name 'Kim, Bo' --rank 1d",
        "pair go",
        "result go 1 1 W+R",
        "pairings go --format json",
    ]
    script = tmp_path / "batch.txt"
    script.write_text("\n".join(lines) + "\n")
    (pairings,) = json_outputs(cli(store, "batch", str(script)))
    server = serve(store, tmp_path)
    try:
        yield server, case, name, pairings[0]
    finally:
        server.stop()


def test_player_card_shows_the_fide_change(served: tuple[Served, Json, str, Any]) -> None:
    server, case, name, _ = served
    page = httpx.get(f"{server.url}/t/{name}/players/1", timeout=30)
    assert page.status_code == 200
    text = html.unescape(page.text)
    tournament = case["tournaments"][0]
    assert "Rating change (FIDE)" in text
    assert f"Ro {tournament['Ro']} · Rp " in text
    assert f"K {tournament['K']} · K·(W−We) {tournament['K_chg']} · change -3" in text
    cells = [f"<td>{g['K_chg']}</td></tr>" for g in tournament["games"]]
    table = text[text.index('id="rated-games"') :]
    assert all(c in table for c in cells)


def test_player_card_shows_the_go_gor_change(served: tuple[Served, Json, str, Any]) -> None:
    """Two 1d players (GoR 2100 from the rank, no EGD list), one even game won by white: the
    card shows the EGF 2021 formula's check value (ratings.md §4.3), +9.306 to 2109.306, the
    same as `standings --rating-change` (tests/cli/test_rating_change_cli.py)."""
    server, _, _, board = served
    pages = {
        side: httpx.get(f"{server.url}/t/go/players/{board[side]['start_rank']}", timeout=30)
        for side in ("white", "black")
    }
    assert all(p.status_code == 200 for p in pages.values())
    winner, loser = (html.unescape(pages[s].text) for s in ("white", "black"))
    assert "Rating change (EGF GoR (class A, weight 1))" in winner
    assert "GoR 2100.0 · 1 games · change 9.306 · GoR after 2109.306" in winner
    assert "GoR 2100.0 · 1 games · change -8.275 · GoR after 2091.725" in loser
