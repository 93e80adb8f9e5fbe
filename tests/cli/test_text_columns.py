"""Issue 47: the text a director reads. `pair`/`pairings` show each side's pairing number, title
and name, rating (go: rank) and points before the round; chess `standings` shows titles, go
`standings` the grades; `tournament show` every setting. Expected values are the input: what
this test registered and entered, or the OpenGotha file's own attributes."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.conftest import require_testdata
from tests.process import arbiter_run

PLAYERS = [  # name, title, rating: pairing numbers by rating, 1 to 4
    ("Berg, Anna", "GM", 2600),
    ("Dahl, Ivar", "IM", 2450),
    ("Eik, Ola", "FM", 2300),
    ("Lie, Kari", "WFM", 2150),
]


def _ok(store: Path, *args: str) -> str:
    done = arbiter_run(store, *args)
    assert done.returncode == 0, (args, done.stderr)
    return done.stdout


def _cells(line: str) -> list[str]:
    return re.split(r"\s{2,}", line.strip())


@pytest.fixture(scope="module")
def chess(tmp_path_factory: pytest.TempPathFactory) -> Path:
    store = tmp_path_factory.mktemp("text") / "s.duckdb"
    _ok(store, "tournament", "create", "--name", "Text Open", "--id", "t", "--system", "dutch",
        "--rounds", "3", "--tiebreaks", "BH,SB", "--scoring", "3,1,0")  # fmt: skip
    for name, title, rating in PLAYERS:
        _ok(store, "player", "add", "t", "--name", name, "--title", title, "--rating", str(rating))
    _ok(store, "tournament", "edit", "t", "--registration", "approval",
        "--check-in", "2026-03-07T09:00/09:45")  # fmt: skip
    _ok(store, "check-in", "t", "1", "2", "3", "4")  # the director ticks everyone in
    return store


def test_pairings_text(chess: Path) -> None:
    """Round 1 as `pair` prints it, round 2 as `pairings` prints it after white won both
    boards of round 1 (3 points a win, as the event scores)."""
    text = _ok(chess, "pair", "t")
    number = {name: i for i, (name, _, _) in enumerate(PLAYERS, start=1)}
    info = {name: (title, rating) for name, title, rating in PLAYERS}

    def check(text: str, points: dict[str, str]) -> list[dict[str, str]]:
        head, *rows = text.splitlines()
        assert _cells(head) == ["board", "no", "white", "rating", "pts", "result", "pts",
                                "black", "rating", "no"]  # fmt: skip
        boards = []
        for line in rows:
            board, wno, white, wr, wp, *rest = _cells(line)
            result = rest[0] if len(rest) == 6 else ""
            bp, black, br, bno = rest[-4:]
            for no, shown, rating, pts in ((wno, white, wr, wp), (bno, black, br, bp)):
                title, name = shown.split(" ", 1)
                assert (title, int(rating)) == info[name], line
                assert int(no) == number[name]
                assert pts == points[name]
            boards.append({"board": board, "white": white.split(" ", 1)[1], "result": result})
        assert len(boards) == 2
        return boards

    check(text, dict.fromkeys(number, "0"))
    boards = check(_ok(chess, "pairings", "t", "--round", "1"), dict.fromkeys(number, "0"))
    for b in boards:
        _ok(chess, "result", "t", "1", b["board"], "1-0")
    winners = {b["white"] for b in boards}
    _ok(chess, "pair", "t")
    shown = _ok(chess, "pairings", "t", "--round", "2")
    check(shown, {name: "3" if name in winners else "0" for name in number})


def test_standings_titles(chess: Path) -> None:
    lines = _ok(chess, "standings", "t").splitlines()
    assert _cells(lines[0])[:3] == ["rank", "title", "player"]
    titles = {name: title for name, title, _ in PLAYERS}
    for line in lines[1:]:
        _, title, name, *_ = _cells(line)
        assert titles[name] == title


def test_tournament_show_every_setting(chess: Path) -> None:
    lines = _ok(chess, "tournament", "show", "t").splitlines()
    shown = {line[:16].strip(): line[17:] for line in lines}
    assert shown["registration"] == "approval"
    assert shown["check_in"] == "2026-03-07 09:00 to 2026-03-07 09:45"
    assert shown["tiebreaks"] == "BH, SB"
    assert shown["scoring"].startswith("win 3, draw 1, loss 0, ")
    assert shown["system"] == "dutch"


def test_tournament_show_go_komi(tmp_path: Path) -> None:
    """Go: the komi of even boards as given, of handicap boards 0.5 (EGF and AGA rules) unless
    the event says otherwise (issue 47)."""
    store = tmp_path / "s.duckdb"
    for tid, extra in (("g", ()), ("h", ("--handicap-komi", "0"))):
        _ok(store, "tournament", "create", "--name", tid.upper(), "--id", tid, "--game", "go",
            "--system", "macmahon", "--komi", "6.5", *extra)  # fmt: skip
    shown = {}
    for tid in ("g", "h"):
        lines = _ok(store, "tournament", "show", tid).splitlines()
        shown[tid] = {line[:16].strip(): line[17:] for line in lines}
    assert shown["g"]["komi"] == "6.5 even games, 0.5 handicap games"
    assert shown["h"]["komi"] == "6.5 even games, 0 handicap games"


def test_go_ranks_in_pairings_and_standings(tmp_path: Path) -> None:
    """The OpenGotha file's own ranks: in the pairings' rank columns and the standings'
    grade column, player by player."""
    xml = require_testdata("go", "opengotha", "TournoiChinois.xml")
    ranks = {
        f"{m['name']}, {m['first']}": m["rank"]
        for m in re.finditer(
            r'<Player [^>]*?firstName="(?P<first>[^"]*)"[^>]*? name="(?P<name>[^"]*)"'
            r'[^>]*? rank="(?P<rank>[^"]*)"',
            xml.read_text(encoding="utf-8"),
        )
    }
    assert len(ranks) == 24
    store = tmp_path / "s.duckdb"
    _ok(store, "ingest", str(xml))
    (tid,) = [t["id"] for t in json.loads(_ok(store, "tournament", "list", "-f", "json"))]
    lines = _ok(store, "standings", tid, "--individual").splitlines()
    assert _cells(lines[0])[:4] == ["rank", "player", "grade", "federation"]
    for line in lines[1:]:
        _, name, grade, *_ = _cells(line)
        assert grade == ranks[name], line
    head, *rows = _ok(store, "pairings", tid).splitlines()
    assert _cells(head)[:5] == ["board", "no", "white", "rank", "pts"]
    for line in rows:
        cells = _cells(line)
        white, wrank = cells[2], cells[3]
        assert ranks[re.sub(r" \(.*\)$", "", white)] == wrank, line
