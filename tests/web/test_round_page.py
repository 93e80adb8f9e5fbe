"""The public round page shows what chess-results shows of a round (issue 33, part 1): board,
pairing numbers, titles, names, ratings (go: ranks), each player's points before the round and
the result; for go also handicap and komi.

A real `arbiter serve` over events made through `arbiter`: a chess Swiss whose round 2 is
paired after round 1's results (the points before round 2 are round 1's: 1 for each winner),
and a go Mac-Mahon round with ranks, handicap and komi columns.
"""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import httpx

from tests.web.serving import batch, cli, serve

PLAYERS = [("Berg, Anna", "2410", "GM"), ("Dahl, Ola", "2300", "IM"),
           ("Lie, Kari", "2150", ""), ("Moe, Per", "2050", "")]  # fmt: skip


CELL = r"<t[dh][^>]*>(.*?)</t[dh]>"


def _rows(page: str, table: str) -> list[list[str]]:
    body = page[page.index(f'<table id="{table}">') :]
    body = body[: body.index("</table>")]
    return [
        [
            re.sub(r"<[^>]+>", "", c).strip()
            for c in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", row, re.S)
        ]
        for row in re.findall(r"<tr>(.*?)</tr>", body, re.S)
    ]


def test_round_page_columns(tmp_path: Path) -> None:
    store = str(tmp_path / "s.duckdb")
    batch(store, tmp_path, [  # the set-up, in one process
        "tournament create --name Oslo --id oslo --system dutch --rounds 3",
        *(f"player add oslo --name {shlex.quote(name)} --rating {rating}"
          + (f" --title {title}" if title else "") for name, rating, title in PLAYERS),
        "pair oslo",
        "result oslo 1 1 1-0",  # Berg (1) beats Lie (3)
        "result oslo 1 2 0-1",  # Moe (4) loses to Dahl (2)
        "pair oslo",
        "tournament create --name Go --id go --game go --system macmahon --rounds 2",
        *(f"player add go --name {shlex.quote(name)} --rank {rank}"
          for name, rank in (("Sato, Ken", "3d"), ("Kim, Lee", "1k"), ("Ito, Aya", "5k"),
                             ("Abe, Jun", "2d"))),
        "pair go",
    ])  # fmt: skip
    server = serve(store, tmp_path)
    try:
        chess = httpx.get(server.url + "/t/oslo?round=2", timeout=30).text
        go = httpx.get(server.url + "/t/go?round=1", timeout=30).text
    finally:
        server.stop()
    head, *boards = _rows(chess, "pairings")
    assert head == ["Bd", "No.", "White", "Rtg", "Pts", "Result", "Pts", "Black", "Rtg", "No."]
    seats = {(b[2], b[1], b[3], b[4]) for b in boards} | {(b[7], b[9], b[8], b[6]) for b in boards}
    assert seats == {
        ("GM Berg, Anna", "1", "2410", "1"), ("IM Dahl, Ola", "2", "2300", "1"),
        ("Lie, Kari", "3", "2150", "0"), ("Moe, Per", "4", "2050", "0"),
    }  # fmt: skip
    head, *boards = _rows(go, "pairings")
    assert head[-2:] == ["Hcp", "Komi"]
    assert head[3] == "Rank"
    ranks = {b[2]: b[3] for b in boards} | {b[7]: b[8] for b in boards}
    assert ranks == {"Sato, Ken": "3d", "Kim, Lee": "1k", "Ito, Aya": "5k", "Abe, Jun": "2d"}
    # handicap and komi as the round holds them (the CLI's JSON of the same round)
    paired = json.loads(cli(store, "pairings", "go", "--round", "1", "-f", "json"))
    assert [(b[-2], b[-1]) for b in boards] == [
        (str(p["handicap"] or ""), "" if p["komi"] is None else f"{p['komi']:g}") for p in paired
    ]
