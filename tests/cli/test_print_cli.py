"""`arbiter print` (issue 36 part 4): every document of a real chess Swiss (an ingested TRF,
137 players over 7 rounds) and of a real go Mac-Mahon event (an OpenGotha file with handicap
games), rendered through the command line and read back with pypdfium2.

Expected values come from outside the print code: the TRF's own 001 records (names, ratings,
each round's opponent and colour) and the CLI's JSON of the same round (boards, handicap, komi).
Each page must carry the event's header and "page i of n"; each board or player must be on
exactly one line of exactly one page (a row split across pages would lose that line)."""

from __future__ import annotations

import json
import math
import subprocess
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from playwright.sync_api import Browser

from tests.conftest import require_testdata
from tests.process import ARBITER, arbiter_run

TRF = ("chess", "real", "torneo_san_viator_B_2018_madrid.trf")
GO = ("go", "opengotha", "Tournoi de Juvisy.xml")
CHESS_ID, GO_ID = "torneo-san-viator-b-2018-madrid", "tournoi-de-juvisy"
A4, LETTER = (595, 842), (612, 792)


def _ok(store: Path, *args: str, cwd: Path | None = None) -> str:
    done = arbiter_run(store, *args, cwd=cwd)
    assert done.returncode == 0, (args, done.stderr)
    return done.stdout


class Trf:
    """The players and round-by-round pairings a TRF file gives (its 001 records)."""

    def __init__(self, path: Path) -> None:
        self.players: dict[int, tuple[str, int]] = {}  # start number -> name, rating
        self.rounds: dict[int, list[tuple[int, str]]] = {}  # start number -> [(opp, colour)]
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.startswith("001"):
                continue
            number = int(line[4:8])
            self.players[number] = (line[14:47].strip(), int(line[48:52] or 0))
            cells = [line[91 + 10 * i : 99 + 10 * i] for i in range((len(line) - 91 + 1) // 10 + 1)]
            self.rounds[number] = [(int(c[:4] or 0), c[5:6]) for c in cells if c.strip()]

    def games(self, rnd: int) -> set[tuple[str, str]]:
        """Round `rnd`'s games as (white's name, black's name)."""
        out = set()
        for number, rounds in self.rounds.items():
            opp, colour = rounds[rnd - 1]
            if opp and colour == "w":
                out.add((self.players[number][0], self.players[opp][0]))
        return out


def _pages(path: Path) -> tuple[list[str], list[tuple[int, int]]]:
    """Each page's text (lines joined by newlines) and size in points."""
    assert path.read_bytes()[:5] == b"%PDF-"
    pdf = pdfium.PdfDocument(str(path))
    try:
        texts, sizes = [], []
        for page in pdf:
            texts.append(page.get_textpage().get_text_range().replace("\r\n", "\n"))
            w, h = page.get_size()
            sizes.append((round(w), round(h)))
        return texts, sizes
    finally:
        pdf.close()


def _lines(texts: list[str]) -> list[str]:
    return [line.strip() for text in texts for line in text.split("\n")]


def _check_pages(
    texts: list[str], sizes: list[tuple[int, int]], event: str, size: tuple[int, int]
) -> None:
    assert sizes == [size] * len(texts)
    for i, text in enumerate(texts, start=1):
        assert event in text, i
        assert f"page {i} of {len(texts)}" in text


def _once(lines: list[str], *parts: str) -> str:
    """The one line holding every part, in order; fails when none or several do."""
    found = [
        line for line in lines if all(p in line for p in parts)
        and [line.index(p) for p in parts] == sorted(line.index(p) for p in parts)
    ]  # fmt: skip
    assert len(found) == 1, (parts, found)
    return found[0]


@pytest.fixture(scope="module")
def events(tmp_path_factory: pytest.TempPathFactory) -> Path:
    store = tmp_path_factory.mktemp("print") / "s.duckdb"
    _ok(store, "ingest", str(require_testdata(*TRF)), str(require_testdata(*GO)))
    return store


def _print(store: Path, out: Path, *args: str) -> tuple[list[str], list[tuple[int, int]]]:
    _ok(store, "print", *args, "-o", str(out))
    return _pages(out)


def test_chess_documents(events: Path, tmp_path: Path) -> None:
    trf = Trf(require_testdata(*TRF))
    event = "XXX Torneo San Viator - Memorial Pepe Domaica (B)"
    header = "Madrid · 2018-04-08 – 2018-06-10 · Chief arbiter: Francisco Javier Sanz Morinigo"
    games = trf.games(7)
    names = [name for name, _ in trf.players.values()]
    boards = json.loads(_ok(events, "pairings", CHESS_ID, "--round", "7", "-f", "json"))
    assert {(b["white"]["name"], b["black"]["name"]) for b in boards if b["black"]} == games

    texts, sizes = _print(events, tmp_path / "p.pdf", CHESS_ID, "pairings", "--round", "7")
    _check_pages(texts, sizes, event, A4)
    assert all(header in t and "Pairings, round 7" in t for t in texts)
    lines = _lines(texts)
    for b in boards:  # a board's whole row on one line of one page, in the JSON's order
        black = b["black"]["name"] if b["black"] else "bye"
        _once(lines, f"{b['board']} {b['white']['start_rank']} {b['white']['name']}", black)
    # the header row repeated on every page of the table
    assert all("Bd No White Rtg Pts Result Pts Black Rtg No" in t for t in texts)

    texts, sizes = _print(events, tmp_path / "a.pdf", CHESS_ID, "pairings-alpha")
    _check_pages(texts, sizes, event, A4)
    lines = _lines(texts)
    for white, black in games:
        _once(lines, f"{white} ", "White", black)
        _once(lines, f"{black} ", "Black", white)
    assert len(texts) >= 3  # 137 players

    texts, sizes = _print(events, tmp_path / "s.pdf", CHESS_ID, "slips")
    _check_pages(texts, sizes, event, A4)
    assert len(texts) == math.ceil(len(games) / 4)  # four slips a page
    for page in texts:
        for white, black in games:
            assert (f"White: {white} (" in page) == (f"Black: {black} (" in page)
    lines = _lines(texts)
    for white, black in games:
        _once(lines, f"White: {white} (")
        _once(lines, f"Black: {black} (")

    texts, sizes = _print(events, tmp_path / "c.pdf", CHESS_ID, "cards")
    _check_pages(texts, sizes, event, A4)
    assert len(texts) == math.ceil(len(games) / 2)  # two cards a page
    numbers = [line for line in _lines(texts) if line.isdigit()]
    assert sorted(map(int, numbers)) == sorted(b["board"] for b in boards if b["black"])

    texts, sizes = _print(events, tmp_path / "w.pdf", CHESS_ID, "wallchart")
    _check_pages(texts, sizes, event, A4[::-1])  # landscape
    assert all("No Rank Name Rtg Fed/Club R1 R2 R3 R4 R5 R6 R7 Pts" in t for t in texts)
    lines = _lines(texts)
    for number, (name, _) in trf.players.items():
        _once(lines, f"{number} ", f" {name} ")

    texts, sizes = _print(events, tmp_path / "st.pdf", CHESS_ID, "standings")
    _check_pages(texts, sizes, event, A4)
    assert all("Standings, after round 7 of 7" in t for t in texts)
    lines = _lines(texts)
    for name in names:
        _once(lines, f" {name} ")

    texts, sizes = _print(events, tmp_path / "pl.pdf", CHESS_ID, "players", "--paper", "letter")
    _check_pages(texts, sizes, event, LETTER)
    assert len(texts) >= 3
    lines = _lines(texts)
    order = [lines.index(_once(lines, f" {name} ")) for name in names]
    by_rating = sorted(trf.players, key=lambda n: (-trf.players[n][1], n))
    assert [names[n - 1] for n in sorted(trf.players, key=lambda n: order[n - 1])] == [
        trf.players[n][0] for n in by_rating
    ]


def test_go_documents(events: Path, tmp_path: Path) -> None:
    event = "Tournoi de Juvisy"
    boards = json.loads(_ok(events, "pairings", GO_ID, "-f", "json"))
    games = [b for b in boards if b["black"]]
    assert any(b["handicap"] for b in games)  # the file has handicap games

    texts, sizes = _print(events, tmp_path / "p.pdf", GO_ID, "pairings")
    _check_pages(texts, sizes, event, A4)
    assert "Rank Pts Result Pts Black Rank No Hcp Komi" in texts[0]
    lines = _lines(texts)
    for b in games:
        w, bl = b["white"], b["black"]
        line = _once(lines, f"{b['board']} {w['start_rank']} {w['name']} {w['rank']}", bl["name"])
        komi = f"{b['komi']:g}" if b["komi"] is not None else ""
        assert line.endswith(
            f"{bl['start_rank']} {b['handicap'] or ''} {komi}".replace("  ", " ").strip()
        )

    texts, sizes = _print(events, tmp_path / "s.pdf", GO_ID, "slips", "--paper", "letter")
    _check_pages(texts, sizes, event, LETTER)
    lines = _lines(texts)
    for b in games:
        _once(lines, f"White: {b['white']['name']} {b['white']['rank']} (")
        komi = f", komi {b['komi']:g}" if b["komi"] is not None else ""
        note = [line for line in lines if line.startswith(f"Handicap {b['handicap']}{komi}")]
        assert note
    assert "White wins" in texts[0]

    for doc in ("pairings-alpha", "cards", "wallchart", "standings", "players"):
        texts, sizes = _print(events, tmp_path / f"{doc}.pdf", GO_ID, doc)
        _check_pages(texts, sizes, event, A4[::-1] if doc == "wallchart" else A4)


def test_html_and_default_names(events: Path, tmp_path: Path) -> None:
    _ok(events, "print", GO_ID, "pairings", "-f", "html", "--paper", "letter", cwd=tmp_path)
    page = (tmp_path / f"{GO_ID}-pairings-r4.html").read_text()
    assert "size: letter;" in page
    assert 'counter(page) " of " counter(pages)' in page
    assert "<thead>" in page
    assert "break-inside: avoid" in page
    for b in json.loads(_ok(events, "pairings", GO_ID, "-f", "json")):
        seats = [b["white"], b["black"]] if b["black"] else [b["white"]]
        assert all(page.count(f">{s['name']}</td>") == 1 for s in seats)
    _ok(events, "print", CHESS_ID, "wallchart", cwd=tmp_path)
    assert (tmp_path / f"{CHESS_ID}-wallchart-r7.pdf").read_bytes()[:5] == b"%PDF-"
    _ok(events, "print", CHESS_ID, "players", cwd=tmp_path)
    assert (tmp_path / f"{CHESS_ID}-players.pdf").exists()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("nonsense",), "unknown document 'nonsense' (one of: pairings, pairings-alpha, slips"),
        (("slips", "--round", "9"), f"{CHESS_ID}: round 9 is not paired (last paired: 7)"),
        (("pairings",), "already exists (--force overwrites it)"),
    ],
)
def test_errors(events: Path, tmp_path: Path, args: tuple[str, ...], message: str) -> None:
    out = tmp_path / "out.pdf"
    out.write_bytes(b"mine")
    done = arbiter_run(events, "print", CHESS_ID, *args, "-o", str(out))
    assert done.returncode != 0
    assert done.stderr.count("\n") == 1
    assert message in done.stderr
    assert out.read_bytes() == b"mine"  # nothing written
    _ok(events, "print", CHESS_ID, "cards", "-o", str(out), "--force")
    assert out.read_bytes()[:5] == b"%PDF-"


def test_greek_names(tmp_path: Path) -> None:
    """A Greek event's name and players print as letters (DejaVu Sans embedded), not boxes."""
    from pipelines.paper.pdf import DEJAVU

    if not any((folder / "DejaVuSans.ttf").is_file() for folder in DEJAVU):
        pytest.skip("no DejaVu Sans on this system: the PDF falls back to Helvetica")
    path = require_testdata("chess", "real", "heltour_friendship_cup_2024_heraklion_team.trf")
    lines = path.read_text(encoding="utf-8").splitlines()
    event = next(line[4:].strip() for line in lines if line.startswith("012"))
    store = tmp_path / "s.duckdb"
    _ok(store, "ingest", str(path))
    tid = json.loads(_ok(store, "tournament", "list", "-f", "json"))[0]["id"]
    texts, sizes = _print(store, tmp_path / "p.pdf", tid, "players")
    _check_pages(texts, sizes, event, A4)
    assert "ΚΡΗΤΙΚΗΣ" in event


def test_html_prints_in_chromium(events: Path, tmp_path: Path, browser: Browser) -> None:
    """The HTML version printed by a real Chromium: the paper size from its @page rule, "page
    i of n" and the header row on every page, each player's row whole on one page."""
    out = tmp_path / "alpha.html"
    args = ("pairings-alpha", "-f", "html", "--paper", "letter", "-o", str(out))
    _ok(events, "print", CHESS_ID, *args)
    page = browser.new_page()
    try:
        page.goto(out.as_uri())
        (tmp_path / "alpha.pdf").write_bytes(page.pdf(prefer_css_page_size=True))
    finally:
        page.close()
    texts, sizes = _pages(tmp_path / "alpha.pdf")
    assert len(texts) >= 3
    _check_pages(texts, sizes, "XXX Torneo San Viator", LETTER)
    assert all("Name No Board Colour Opponent" in t for t in texts)
    lines = _lines(texts)
    for white, black in Trf(require_testdata(*TRF)).games(7):
        _once(lines, f"{white} ", "White", black)
        _once(lines, f"{black} ", "Black", white)


def test_output_goes_through_the_safe_writer(events: Path, tmp_path: Path) -> None:
    """Issue 47: `-o` a FIFO, a symbolic link or a folder is refused in one line even with
    --force, and each is left as it was; a 300-character name is one line too; the file is
    written 0644 as exports are; `-o -` writes the PDF to standard output."""
    import os
    import stat

    fifo, link, target, folder = (tmp_path / n for n in ("fifo", "link", "target", "dir"))
    os.mkfifo(fifo)
    target.write_bytes(b"mine")
    link.symlink_to(target)
    folder.mkdir()
    long = tmp_path / ("x" * 300 + ".pdf")
    for out, says in (
        (fifo, "is a FIFO"),
        (link, "is a symbolic link"),
        (folder, "is a folder"),
        (long, "File name too long"),
    ):
        done = arbiter_run(events, "print", GO_ID, "pairings", "-o", str(out), "--force")
        assert done.returncode == 1, out
        assert done.stderr.count("\n") == 1, done.stderr
        assert says in done.stderr, done.stderr
        assert "internal error" not in done.stderr
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert link.is_symlink()
    assert target.read_bytes() == b"mine"
    assert folder.is_dir()
    assert not any(folder.iterdir())
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dir", "fifo", "link", "target"]

    out = tmp_path / "p.pdf"
    _ok(events, "print", GO_ID, "pairings", "-o", str(out))
    assert stat.S_IMODE(out.stat().st_mode) == 0o644
    raw = subprocess.run(
        [ARBITER, "--store", str(events), "print", GO_ID, "pairings", "-o", "-"],
        capture_output=True, cwd=tmp_path, check=False, timeout=120,
    )  # fmt: skip
    assert raw.returncode == 0, raw.stderr
    assert b"written to standard output" in raw.stderr
    assert not (tmp_path / "-").exists()
    (tmp_path / "piped.pdf").write_bytes(raw.stdout)
    assert _pages(tmp_path / "piped.pdf")[0] == _pages(out)[0]
    piped = arbiter_run(events, "print", GO_ID, "pairings", "-f", "html", "-o", "-")
    assert piped.stdout.startswith("<!DOCTYPE html>") or "<html" in piped.stdout[:200]
