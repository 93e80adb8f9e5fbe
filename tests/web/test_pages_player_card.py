"""The player card shows each round from the player's own side (issue 33, part 1).

A real `arbiter serve` over events typed through `arbiter`; the expected values are the results
the test typed, read from each player's side: Berg, who loses as Black on board 1 of round 2
(typed `1-0`), reads `0` there, not `1-0`; a forfeit reads `+` and `−`; a requested half-point
bye and the pairing's bye are lines of their own (`½ bye`, `1 bye`). A go board typed `B+R`
reads `won B+R` on Black's card and `lost B+R` on White's, with the board's handicap and komi
as the CLI's JSON of the round holds them.
"""

from __future__ import annotations

import shlex
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.cli.games_cli import json_outputs
from tests.conftest import require_testdata
from tests.web.serving import cli, serve
from tests.web.test_round_page import _rows

CHESS = [("Berg, Anna", "2410", "GM"), ("Dahl, Ola", "2300", "IM"), ("Lie, Kari", "2150", ""),
         ("Moe, Per", "2050", ""), ("Ek, Siv", "1900", "")]  # fmt: skip
GO = [("Sato, Ken", "3d"), ("Kim, Lee", "1k"), ("Ito, Aya", "5k"), ("Abe, Jun", "2d")]


TRF = ("chess", "real", "torneo_san_viator_B_2018_madrid.trf")
_OWN = {"1": "1", "0": "0", "=": "½", "+": "+", "-": "−", "H": "½ bye", "F": "1 bye",
        "U": "1 bye", "Z": "0 bye"}  # fmt: skip


def _trf_rounds(path: Path) -> dict[str, list[tuple[str | None, str, str]]]:
    """Each player's rounds as the TRF file writes them: (opponent's name or None, colour
    letter W/B or '', the result as the card must print it)."""
    lines = [x for x in path.read_text(encoding="utf-8").splitlines() if x.startswith("001")]
    names = {int(x[4:8]): x[14:47].strip() for x in lines}
    out: dict[str, list[tuple[str | None, str, str]]] = {}
    for x in lines:
        blocks = [x[i : i + 8] for i in range(91, len(x.rstrip()), 10)]
        out[x[14:47].strip()] = [
            (
                None if b[:4].strip() in ("", "0000") else names[int(b[:4])],
                b[5].upper().replace("-", ""),
                _OWN[b[7]],
            )
            for b in blocks
        ]
    return out


def _board_of(boards: list[dict[str, Any]], name: str) -> dict[str, Any]:
    """The board of ``name`` in a round's `pairings -f json`."""
    return next(b for b in boards if name in (b["white"]["name"], (b["black"] or {}).get("name")))


def _card(url: str, tid: str, number: int) -> list[list[str]]:
    """The games of the card of No. ``number`` (`/t/T/players/N`: the pairing number)."""
    page = httpx.get(f"{url}/t/{tid}/players/{number}", timeout=60)
    assert page.status_code == 200
    return _rows(page.text, "games")


@dataclass
class Events:
    """One store served for every card test (they only read it): the chess and go events
    typed through `arbiter batch`, and the corpus TRF ingested."""

    url: str
    first: dict[str, Any]  # Berg's board of round 1, before its result
    forfeit: dict[str, Any]  # Moe's board of round 1 (White did not come)
    second: dict[str, Any]  # Berg's board of round 2
    go: dict[str, Any]  # Sato's board of round 1 (B+R)
    corpus: str  # the ingested TRF's tournament id
    corpus_ids: dict[str, int]  # its players' pairing numbers by name (the cards' URLs)


def _batch(store: str, script: Path, lines: list[str]) -> list[Any]:
    """``lines`` in one `arbiter batch` process: the JSON documents printed."""
    script.write_text("\n".join(lines) + "\n")
    return json_outputs(cli(store, "batch", str(script)))


@pytest.fixture(scope="module")
def events(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Events]:
    tmp_path = tmp_path_factory.mktemp("cards")
    store = str(tmp_path / "s.duckdb")
    path = require_testdata(*TRF)
    one, go_one, listed = _batch(store, tmp_path / "a.txt", [
        "tournament create --name Oslo --id oslo --system dutch --rounds 2",
        *(f"player add oslo --name {shlex.quote(name)} --rating {rating}"
          + (f" --title {title}" if title else "") for name, rating, title in CHESS),
        "bye oslo 5 1 --kind half",  # Ek asks for a half-point bye
        "pair oslo",
        "pairings oslo --round 1 -f json",
        "tournament create --name Go --id go --game go --system macmahon --rounds 2",
        *(f"player add go --name {shlex.quote(name)} --rank {rank}" for name, rank in GO),
        "pair go",
        "pairings go --round 1 -f json",
        f"ingest {shlex.quote(str(path))}",
        "tournament list -f json",
    ])  # fmt: skip
    first, forfeit = _board_of(one, "Berg, Anna"), _board_of(one, "Moe, Per")
    go = _board_of(go_one, "Sato, Ken")
    (corpus,) = [t["id"] for t in listed if t["id"] not in ("oslo", "go")]
    two, players = _batch(store, tmp_path / "b.txt", [
        "result oslo 1 1 1-0",  # Berg (White) beats Lie
        f"result oslo 1 {forfeit['board']} -+",  # White did not come
        "pair oslo",
        "pairings oslo --round 2 -f json",
        f"result go 1 {go['board']} B+R",
        f"player list {corpus} -f json",
    ])  # fmt: skip
    second = _board_of(two, "Berg, Anna")
    cli(store, "result", "oslo", "2", str(second["board"]), "1-0")  # Berg loses as Black
    server = serve(store, tmp_path)
    try:
        yield Events(
            server.url,
            first,
            forfeit,
            second,
            go,
            corpus,
            {p["name"]: p["start_rank"] for p in players},
        )
    finally:
        server.stop()


def test_chess_card_reads_each_game_from_the_players_side(events: Events) -> None:
    first, forfeit, second = events.first, events.forfeit, events.second
    assert (first["board"], first["white"]["name"]) == (1, "Berg, Anna")
    assert second["black"]["name"] == "Berg, Anna"
    by_name = {n: i for i, (n, _, _) in enumerate(CHESS, start=1)}  # rating order: No. 1..5
    url = events.url
    berg = _card(url, "oslo", by_name["Berg, Anna"])
    loser = _card(url, "oslo", by_name[forfeit["white"]["name"]])
    winner = _card(url, "oslo", by_name[forfeit["black"]["name"]])
    ek = _card(url, "oslo", by_name["Ek, Siv"])
    lie = _card(url, "oslo", by_name["Lie, Kari"])
    api = httpx.get(f"{url}/api/tournaments/oslo/players/1", timeout=60).json()
    head, *games = berg
    assert head == ["Rd", "Bd", "No.", "Col", "Opponent", "Result", "Rtg"]
    assert games == [
        ["1", "1", "3", "W", "Lie, Kari", "1", "2150"],
        ["2", str(second["board"]), "2", "B", "IM Dahl, Ola", "0", "2300"],
    ]
    assert (loser[1][3], loser[1][5]) == ("W", "−")
    assert (winner[1][3], winner[1][5]) == ("B", "+")
    assert ek[1][3:] == ["", "half-point bye", "½ bye", ""]
    assert [g[3:] for g in lie[1:] if g[4] == "pairing bye"] == [["", "pairing bye", "1 bye", ""]]
    # The JSON twin keeps the board's result (White's side) and adds the player's own.
    assert [(g["result"], g["own"]) for g in api["games"]] == [("1-0", "1"), ("1-0", "0")]


def test_go_card_says_won_or_lost_with_the_code_as_typed(events: Events) -> None:
    board = events.go
    white, black = board["white"], board["black"]
    w = _card(events.url, "go", white["start_rank"])
    b = _card(events.url, "go", black["start_rank"])
    assert w[0] == ["Rd", "Bd", "No.", "Col", "Opponent", "Result", "Rank", "Hcp", "Komi"]
    handicap = str(board["handicap"] or "")
    komi = "" if board["komi"] is None else f"{board['komi']:g}"
    assert w[1][3:] == ["W", black["name"], "lost B+R", black["rank"], handicap, komi]
    assert b[1][3:] == ["B", white["name"], "won B+R", white["rank"], handicap, komi]


def test_corpus_cards_read_as_the_trf_file(events: Events) -> None:
    """A real Swiss (TRF) ingested: every player's card prints each round as the file has it,
    from the player's side (the file's own results are the expectation)."""
    tid, ids = events.corpus, events.corpus_ids
    expected = _trf_rounds(require_testdata(*TRF))
    with httpx.Client(base_url=events.url, timeout=60) as client:
        cards = {
            name: _rows(client.get(f"/t/{tid}/players/{ids[name]}").text, "games")[1:]
            for name in expected
        }
    compared = 0
    for name, rounds in expected.items():
        assert len(cards[name]) == len(rounds), name
        for row, (opponent, colour, own) in zip(cards[name], rounds, strict=True):
            where = f"{name} round {row[0]}: {row}"
            assert (row[3], row[5]) == (colour, own), where
            if opponent is not None:  # the name cell may carry a title in front
                assert row[4] == opponent or row[4].endswith(" " + opponent), where
            compared += 1
    assert compared == 7 * len(expected) > 900  # 7 rounds of every player
