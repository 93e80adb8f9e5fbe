"""The player card shows each round from the player's own side (issue 33, part 1).

A real `arbiter serve` over events typed through `arbiter`; the expected values are the results
the test typed, read from each player's side: Berg, who loses as Black on board 1 of round 2
(typed `1-0`), reads `0` there, not `1-0`; a forfeit reads `+` and `−`; a requested half-point
bye and the pairing's bye are lines of their own (`½ bye`, `1 bye`). A go board typed `B+R`
reads `won B+R` on Black's card and `lost B+R` on White's, with the board's handicap and komi
as the CLI's JSON of the round holds them.
"""

from __future__ import annotations

import json
from pathlib import Path

import httpx

from tests.conftest import require_testdata
from tests.web.serving import cli, serve
from tests.web.test_round_page import _rows

CHESS = [("Berg, Anna", "2410", "GM"), ("Dahl, Ola", "2300", "IM"), ("Lie, Kari", "2150", ""),
         ("Moe, Per", "2050", ""), ("Ek, Siv", "1900", "")]  # fmt: skip
GO = [("Sato, Ken", "3d"), ("Kim, Lee", "1k"), ("Ito, Aya", "5k"), ("Abe, Jun", "2d")]


def _board_of(store: str, tid: str, round_no: int, name: str) -> dict[str, object]:
    boards = json.loads(cli(store, "pairings", tid, "--round", str(round_no), "-f", "json"))
    board: dict[str, object] = next(
        b for b in boards if name in (b["white"]["name"], (b["black"] or {}).get("name"))
    )
    return board


def _card(url: str, tid: str, pid: int) -> list[list[str]]:
    page = httpx.get(f"{url}/t/{tid}/players/{pid}", timeout=60)
    assert page.status_code == 200
    return _rows(page.text, "games")


def test_chess_card_reads_each_game_from_the_players_side(tmp_path: Path) -> None:
    store = str(tmp_path / "s.duckdb")
    cli(store, "tournament", "create", "--name", "Oslo", "--id", "oslo", "--system", "dutch",
        "--rounds", "2")  # fmt: skip
    for name, rating, title in CHESS:
        cli(store, "player", "add", "oslo", "--name", name, "--rating", rating,
            *(["--title", title] if title else []))  # fmt: skip
    cli(store, "bye", "oslo", "5", "1", "--kind", "half")  # Ek asks for a half-point bye
    cli(store, "pair", "oslo")
    first = _board_of(store, "oslo", 1, "Berg, Anna")
    assert (first["board"], first["white"]["name"]) == (1, "Berg, Anna")  # type: ignore[index]
    cli(store, "result", "oslo", "1", "1", "1-0")  # Berg (White) beats Lie
    forfeit = _board_of(store, "oslo", 1, "Moe, Per")
    cli(store, "result", "oslo", "1", str(forfeit["board"]), "-+")  # White did not come
    cli(store, "pair", "oslo")
    second = _board_of(store, "oslo", 2, "Berg, Anna")
    assert second["black"]["name"] == "Berg, Anna"  # type: ignore[index]
    cli(store, "result", "oslo", "2", str(second["board"]), "1-0")  # Berg loses as Black
    by_name = {n: i for i, (n, _, _) in enumerate(CHESS, start=1)}
    server = serve(store, tmp_path)
    try:
        berg = _card(server.url, "oslo", by_name["Berg, Anna"])
        white_of_forfeit = forfeit["white"]["name"]  # type: ignore[index]
        black_of_forfeit = forfeit["black"]["name"]  # type: ignore[index]
        loser = _card(server.url, "oslo", by_name[white_of_forfeit])
        winner = _card(server.url, "oslo", by_name[black_of_forfeit])
        ek = _card(server.url, "oslo", by_name["Ek, Siv"])
        lie = _card(server.url, "oslo", by_name["Lie, Kari"])
        api = httpx.get(f"{server.url}/api/tournaments/oslo/players/1", timeout=60).json()
    finally:
        server.stop()
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


def test_go_card_says_won_or_lost_with_the_code_as_typed(tmp_path: Path) -> None:
    store = str(tmp_path / "s.duckdb")
    cli(store, "tournament", "create", "--name", "Go", "--id", "go", "--game", "go",
        "--system", "macmahon", "--rounds", "2")  # fmt: skip
    for name, rank in GO:
        cli(store, "player", "add", "go", "--name", name, "--rank", rank)
    cli(store, "pair", "go")
    board = _board_of(store, "go", 1, "Sato, Ken")
    cli(store, "result", "go", "1", str(board["board"]), "B+R")
    white, black = board["white"], board["black"]
    server = serve(store, tmp_path)
    try:
        w = _card(server.url, "go", white["id"])  # type: ignore[index]
        b = _card(server.url, "go", black["id"])  # type: ignore[index]
    finally:
        server.stop()
    assert w[0] == ["Rd", "Bd", "No.", "Col", "Opponent", "Result", "Rank", "Hcp", "Komi"]
    handicap = str(board["handicap"] or "")
    komi = "" if board["komi"] is None else f"{board['komi']:g}"
    assert w[1][3:] == ["W", black["name"], "lost B+R", black["rank"], handicap, komi]  # type: ignore[index]
    assert b[1][3:] == ["B", white["name"], "won B+R", white["rank"], handicap, komi]  # type: ignore[index]


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


def test_corpus_cards_read_as_the_trf_file(tmp_path: Path) -> None:
    """A real Swiss (TRF) ingested: every player's card prints each round as the file has it,
    from the player's side (the file's own results are the expectation)."""
    path = require_testdata(*TRF)
    store = str(tmp_path / "s.duckdb")
    cli(store, "ingest", str(path))
    tid = json.loads(cli(store, "tournament", "list", "-f", "json"))[0]["id"]
    ids = {p["name"]: p["id"] for p in json.loads(cli(store, "player", "list", tid, "-f", "json"))}
    expected = _trf_rounds(path)
    server = serve(store, tmp_path)
    try:
        with httpx.Client(base_url=server.url, timeout=60) as client:
            cards = {
                name: _rows(client.get(f"/t/{tid}/players/{ids[name]}").text, "games")[1:]
                for name in expected
            }
    finally:
        server.stop()
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
