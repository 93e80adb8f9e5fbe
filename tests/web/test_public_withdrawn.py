"""The public standings mark a withdrawn player, as the CLI's tables do (issue 33: web
standings did not mark a withdrawn player).

A real `arbiter serve`: four players, round 1 played, one withdrawn through `arbiter`; the
tournament page's standings table shows ``Name (withdrawn)`` for him and for nobody else.
"""

from __future__ import annotations

import re
from pathlib import Path

import httpx

from tests.web.serving import cli, new_event, serve

NAMES = ["Berg, Anna", "Dahl, Ola", "Lie, Kari", "Moe, Per"]


def test_the_public_standings_mark_a_withdrawn_player(tmp_path: Path) -> None:
    store = str(tmp_path / "store.duckdb")
    new_event(store, NAMES)
    cli(store, "pair", "oslo")
    cli(store, "result", "oslo", "1", "1", "1-0")
    cli(store, "result", "oslo", "1", "2", "0-1")
    cli(store, "player", "withdraw", "oslo", "2")
    server = serve(store, tmp_path)
    try:
        page = httpx.get(server.url + "/t/oslo", timeout=30).text
    finally:
        server.stop()
    table = page[page.index('<table id="standings">') :]
    table = table[: table.index("</table>")]
    names = re.findall(r'/players/\d+">([^<]+)</a>', table)
    assert sorted(names) == sorted(["Berg, Anna", "Dahl, Ola (withdrawn)", "Lie, Kari", "Moe, Per"])
