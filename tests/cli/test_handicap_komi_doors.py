"""Go boards in go's terms (issue 47 item 6), at every door.

A handicap board's komi is 0.5 by EGF and AGA rules (`--handicap-komi` changes it); an even
board keeps the event's komi. Expectations come from the corpus file itself: OpenGotha's
"Tournoi de Juvisy" (``komi="7.5"`` in its general parameters, each ``Game``'s ``handicap``):

* ingested, every board of a handicap game shows 0.5, every even board 7.5 (`pairings`);
* paired again by the Mac-Mahon engine (round 4 taken back), the same rule holds;
* the slips say "Handicap N, komi 0.5" and offer no jigo box (no board has an integer komi);
* the h9 export's KM header and the OpenGotha export's komi are the file's 7.5, and the
  OpenGotha export reports no komi lost;
* the site (a real server) shows the same komi as the CLI;
* a professional rank is refused at entry in one line; a jigo box appears where komi is whole.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import httpx

from tests.conftest import require_testdata
from tests.process import arbiter_run
from tests.web.serving import serve

JUVISY = ("go", "opengotha", "Tournoi de Juvisy.xml")
TID = "tournoi-de-juvisy"


def _run(store: Path, *args: str) -> str:
    done = arbiter_run(store, "--as", "td", *args)
    assert done.returncode == 0, done.stderr
    return done.stdout


def _file_komi_and_handicaps(path: Path) -> tuple[float, dict[int, list[int]]]:
    """The file's komi and, by round, the handicap of each of its games."""
    root = ET.parse(path).getroot()
    general = root.find(".//GeneralParameterSet")
    assert general is not None
    rounds: dict[int, list[int]] = {}
    for game in root.iter("Game"):
        rounds.setdefault(int(game.get("roundNumber", "0")), []).append(
            int(game.get("handicap", "0"))
        )
    return float(general.get("komi", "nan")), rounds


def _boards_of(store: Path, tid: str, round_no: int) -> list[dict[str, object]]:
    rows = json.loads(_run(store, "pairings", tid, "--round", str(round_no), "--format", "json"))
    return [r for r in rows if r.get("black") is not None]


def _boards(store: Path, round_no: int) -> list[dict[str, object]]:
    return _boards_of(store, TID, round_no)


def test_a_handicap_board_has_komi_half_a_point_everywhere(tmp_path: Path) -> None:
    source = require_testdata(*JUVISY)
    file_komi, handicaps = _file_komi_and_handicaps(source)
    assert file_komi == 7.5
    assert any(h for games in handicaps.values() for h in games)
    store = tmp_path / "store.duckdb"
    _run(store, "ingest", str(source))

    for round_no, games in handicaps.items():
        boards = _boards(store, round_no)
        assert sorted(int(str(b["handicap"] or 0)) for b in boards) == sorted(games)
        for b in boards:
            assert b["komi"] == (0.5 if b["handicap"] else file_komi), (round_no, b)

    _run(store, "undo", TID, "--round", "4", "--reason", "pair it again")
    _run(store, "pair", TID)
    boards = _boards(store, 4)
    assert any(b["handicap"] for b in boards)
    assert all(b["komi"] == (0.5 if b["handicap"] else file_komi) for b in boards)

    slips = tmp_path / "slips.html"
    _run(store, "print", TID, "slips", "--format", "html", "-o", str(slips))
    text = slips.read_text(encoding="utf-8")
    notes = re.findall(r"Handicap (\d+), komi ([\d.]+)", text)
    assert len(notes) == len(boards)
    assert all(komi == ("0.5" if int(h) else "7.5") for h, komi in notes)
    assert "Jigo" not in text

    h9 = _run(store, "export", TID, "--format", "h9")
    assert "; KM[7.5]" in h9.splitlines()
    og = tmp_path / "out.xml"
    done = arbiter_run(store, "export", TID, "--format", "opengotha", "-o", str(og))
    assert done.returncode == 0, done.stderr
    assert "written as the rules'" not in done.stderr  # no board's komi lost
    general = ET.parse(og).getroot().find(".//GeneralParameterSet")
    assert general is not None
    assert general.get("komi") == "7.5"

    served = serve(str(store), tmp_path)
    try:
        api = httpx.get(f"{served.url}/api/tournaments/{TID}/rounds/4", timeout=120).json()
        shown = [b for b in api if b.get("black") is not None]
        handicap = next(b for b in shown if b["handicap"])
        card = httpx.get(
            f"{served.url}/t/{TID}/players/{handicap['white']['id']}", timeout=120
        ).text
    finally:
        served.stop()
    assert [(b["handicap"], b["komi"]) for b in shown] == [
        (b["handicap"], b["komi"]) for b in boards
    ]
    assert f"<td>{handicap['handicap']}</td><td>0.5</td>" in card


def test_handicap_komi_is_the_events_setting(tmp_path: Path) -> None:
    store = tmp_path / "store.duckdb"
    _run(store, "tournament", "create", "--name", "Zero Cup", "--id", "cup", "--game", "go",
         "--system", "macmahon", "--komi", "7", "--handicap-komi", "0")  # fmt: skip
    for name, rank in (("Aoki, Jo", "3k"), ("Sato, Ken", "10k")):
        _run(store, "player", "add", "cup", "--name", name, "--rank", rank)
    _run(store, "pair", "cup")
    (board,) = _boards_of(store, "cup", 1)
    assert board["handicap"]
    assert board["komi"] == 0.0
    slips = tmp_path / "slips.html"
    _run(store, "print", "cup", "slips", "--format", "html", "-o", str(slips))
    text = slips.read_text(encoding="utf-8")
    assert f"Handicap {board['handicap']}, komi 0" in text
    assert "Jigo" in text  # komi 0: a jigo can happen, and the result entry takes it
    _run(store, "result", "cup", "1", "1", "jigo")


def test_a_professional_rank_is_refused_at_entry(tmp_path: Path) -> None:
    store = tmp_path / "store.duckdb"
    _run(store, "tournament", "create", "--name", "Go", "--id", "go", "--game", "go",
         "--system", "macmahon", "--rounds", "2", "--komi", "7")  # fmt: skip
    done = arbiter_run(store, "--as", "td", "player", "add", "go", "--name", "Sato, Ken",
                       "--rank", "1p")  # fmt: skip
    assert (done.returncode, done.stderr) == (
        1, "error: --rank '1p': professional ranks are not paired (30k..9d); enter 9d\n"
    )  # fmt: skip
    for name, rank in (("Aoki, Jo", "3d"), ("Sato, Ken", "3d")):
        _run(store, "player", "add", "go", "--name", name, "--rank", rank)
    _run(store, "pair", "go")
    slips = tmp_path / "slips.html"
    _run(store, "print", "go", "slips", "--format", "html", "-o", str(slips))
    text = slips.read_text(encoding="utf-8")
    assert "Handicap 0, komi 7" in text
    assert "Jigo" in text  # komi 7: a jigo can happen, and the result entry takes it
    _run(store, "result", "go", "1", "1", "jigo")
