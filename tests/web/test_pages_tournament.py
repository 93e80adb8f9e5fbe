"""The tournament page (issue 33, part 1): a finished event opens on its standings with the
rounds one click away, an event in play on the round in play; a round's page lists under the
boards every player it does not pair and why (a requested bye, a withdrawal, a late entry).

A real `arbiter serve` over events typed through `arbiter`; the expected reasons are the
actions the test typed.
"""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import httpx

from tests.web.serving import cli, serve
from tests.web.test_round_page import _rows

PLAYERS = [("Berg, Anna", "2410"), ("Dahl, Ola", "2300"), ("Lie, Kari", "2150"),
           ("Moe, Per", "2050"), ("Ek, Siv", "1900")]  # fmt: skip


def _batch(store: str, *lines: str) -> None:
    """Director's commands in one `arbiter batch` (one process; set-up, not the door tested)."""
    script = Path(store).with_name("batch.txt")
    script.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    cli(store, "batch", str(script))


def _results(store: str, tid: str, round_no: int) -> None:
    """White wins every board of the round (a bye has no result to enter)."""
    boards = json.loads(cli(store, "pairings", tid, "--round", str(round_no), "-f", "json"))
    _batch(store, *(f"result {tid} {round_no} {b['board']} 1-0" for b in boards if b["black"]))


def _order(page: str, *ids: str) -> list[str]:
    """The tables of `ids` found on the page, in page order."""
    found = [(page.find(f'id="{i}"'), i) for i in ids]
    return [i for at, i in sorted(found) if at >= 0]


def test_finished_event_opens_on_standings_and_rounds_list_who_is_not_paired(
    tmp_path: Path,
) -> None:
    store = str(tmp_path / "s.duckdb")
    _batch(
        store,
        "tournament create --name Oslo --id oslo --system dutch --rounds 3",
        *(f"player add oslo --name {shlex.quote(name)} --rating {r}" for name, r in PLAYERS),
        "bye oslo 5 1 --kind half",  # Ek asks for round 1 off
        "pair oslo",
    )
    late = cli(store, "player", "add", "oslo", "--name", "Nes, Tor", "--rating", "1800").strip()
    _results(store, "oslo", 1)
    _batch(store, "player withdraw oslo 4 --from-round 2", "pair oslo")  # Moe leaves
    _results(store, "oslo", 2)
    _batch(
        store,
        "tournament create --name Live --id live --system dutch --rounds 3",
        *(f"player add live --name {shlex.quote(name)} --rating {r}" for name, r in PLAYERS[:4]),
        "pair live",
    )
    in_play = serve(store, tmp_path)
    try:
        oslo_in_play = httpx.get(in_play.url + "/t/oslo", timeout=60).text
        live = httpx.get(in_play.url + "/t/live", timeout=60).text
    finally:
        in_play.stop()
    cli(store, "pair", "oslo")
    _results(store, "oslo", 3)
    done = serve(store, tmp_path)
    try:
        final = httpx.get(done.url + "/t/oslo", timeout=60).text
        round1 = httpx.get(done.url + "/t/oslo?round=1", timeout=60).text
        round2 = httpx.get(done.url + "/t/oslo?round=2", timeout=60).text
    finally:
        done.stop()
    # In play (round 2 paired, round 3 to come): the round first, then the standings.
    assert _order(oslo_in_play, "pairings", "standings") == ["pairings", "standings"]
    assert _order(live, "pairings", "standings") == ["pairings", "standings"]
    # Finished: the standings first, no boards; each round one click away.
    assert _order(final, "pairings", "standings") == ["standings"]
    assert "<h2>Final standings</h2>" in final
    links = re.findall(r'<nav class="tabs" id="rounds">(.*?)</nav>', final, re.S)[0]
    assert re.findall(r'href="([^"]+)"', links) == ["/t/oslo", "?round=1", "?round=2", "?round=3"]
    assert _order(round2, "pairings", "not-paired", "standings") == [
        "pairings", "not-paired", "standings",
    ]  # fmt: skip
    # Who a round does not pair, and why: as the test typed it.
    head, *rows = _rows(round1, "not-paired")
    assert head == ["No.", "Name", "Why"]
    why = {r[1]: r[2] for r in rows}
    assert why == {"Ek, Siv": "half-point bye", "Nes, Tor": "not yet entered"}
    assert {r[1]: r[2] for r in _rows(round2, "not-paired")[1:]} == {
        "Moe, Per": "withdrawn (from round 2)"
    }
    assert late.isdigit()
