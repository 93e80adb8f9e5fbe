"""`arbiter norms` in subprocesses, as a chief arbiter runs it after the last round.

A hand-made 11-round Swiss (12 players who all meet; a TRF written here): Nora
Hansen (IM, NOR) meets players 2..12 in rounds 1..11. Against the nine opponents of rounds 1-9
(ratings 2550, 2500, 2450 GM; 2400, 2380 IM; 2300 FM; 2300, 2320, 2220: average 21,420 / 9 =
2380) she scores 7 (a loss, two draws, six wins), then loses rounds 10 and 11 to two untitled
2400 players. Worked by hand from B.01 (1 January 2024):

- whole event, 11 games: Ra 26,220 / 11 = 2383.6 -> 2384 (1.4.7); 7/11 = 64 % -> dp 102
  (1.4.9): Rp 2486 < 2600, no GM norm (1.4.8); she holds IM, so no IM norm is sought;
- rounds 1-9 (1.4.1e, the last two left out): 7/9 = 78 % -> dp 220, Ra 2380: Rp 2600, three
  GMs of nine (1.4.5b), six title-holders (1.4.5a), no NOR opponent: a GM norm.

Then the real Bunratty Masters 2011 (ICU's TRF, 6 rounds): nobody has the nine games of 1.4.1,
so nobody has a norm, and each player's games are those the TRF shows played (results 1, 0, =).
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import require_testdata
from tests.process import arbiter_run

# number -> (name, sex, title, rating, federation)
PLAYERS = {
    1: ("Hansen, Nora", "w", "IM", 2450, "NOR"),
    2: ("Garcia, Ana", "m", "GM", 2550, "ESP"),
    3: ("Bauer, Karl", "m", "GM", 2500, "GER"),
    4: ("Martin, Paul", "m", "GM", 2450, "FRA"),
    5: ("Visser, Jan", "m", "IM", 2400, "NED"),
    6: ("Brown, Tom", "m", "IM", 2380, "ENG"),
    7: ("Lopez, Luis", "m", "FM", 2300, "ESP"),
    8: ("Weber, Max", "m", "", 2300, "GER"),
    9: ("Berg, Lars", "m", "", 2320, "SWE"),
    10: ("Holm, Jens", "m", "", 2220, "DEN"),
    11: ("Dahl, Ola", "m", "", 2400, "NOR"),
    12: ("Lie, Per", "m", "", 2400, "NOR"),
}
# Nora's results in rounds 1..11 (against players 2..12).
NORA = ["0", "=", "=", "1", "1", "1", "1", "1", "1", "0", "0"]


def schedule() -> list[list[tuple[int, int]]]:
    """Eleven rounds of 12 players (the circle method), Nora meeting player r+1 in round r."""
    rounds = []
    for r in range(11):
        pairs = [(1, r + 2)]
        for k in range(1, 6):
            pairs.append(((r + k) % 11 + 2, (r - k) % 11 + 2))
        rounds.append(pairs)
    return rounds


def event_trf() -> str:
    blocks: dict[int, list[str]] = {n: [] for n in PLAYERS}
    points = dict.fromkeys(PLAYERS, 0.0)
    value = {"1": 1.0, "=": 0.5, "0": 0.0}
    other = {"1": "0", "=": "=", "0": "1"}
    for r, pairs in enumerate(schedule()):
        for white, black in pairs:
            res = NORA[r] if white == 1 else "="
            blocks[white].append(f"{black:4d} w {res}")
            blocks[black].append(f"{white:4d} b {other[res]}")
            points[white] += value[res]
            points[black] += value[other[res]]
    lines = ["012 Norm Test Open", "022 Oslo", "062 12", "092 Individual: Swiss-System", "142 11"]
    for n, (name, sex, title, rating, fed) in PLAYERS.items():
        head = (
            f"001 {n:4d} {sex}{title:>3} {name:<33} {rating:4d} {fed}    {1000 + n:8d} "
            f"1990/01/01 {points[n]:4.1f}"
        )
        lines.append(head.ljust(89) + "".join(f"  {b}" for b in blocks[n]))
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("norms")
    trf = folder / "norm_test_open.trf"
    trf.write_text(event_trf())
    store = folder / "s.duckdb"
    done = arbiter_run(store, "ingest", str(trf))
    assert done.returncode == 0, done.stderr
    return store


def norms_json(store: Path, tournament: str) -> list[dict[str, Any]]:
    done = arbiter_run(store, "norms", tournament, "--format", "json")
    assert done.returncode == 0, done.stderr
    rows: list[dict[str, Any]] = json.loads(done.stdout)
    return rows


def test_gm_norm_over_rounds_1_to_9(store: Path) -> None:
    rows = {r["player"]["name"]: r for r in norms_json(store, "norm-test-open")}
    nora = rows["Hansen, Nora"]
    assert nora["player"] == {"id": nora["player"]["id"], "name": "Hansen, Nora"}
    assert nora["norms"] == ["GM"]
    assert nora["games"] == 11
    assert nora["points"] == 7.0
    whole = nora["checks"]["GM"]
    assert (whole["ra"], whole["rp"]) == (2384, 2486)
    assert list(nora["checks"]) == ["GM"]  # she holds IM (and so WGM and WIM): GM only
    (made,) = [m for m in nora["made"] if m["title"] == "GM"]
    assert made["dropped"] == [10, 11]
    assert (made["games"], made["points"], made["ra"], made["percent"], made["dp"], made["rp"]) == (
        9, 7.0, 2380, 78, 220, 2600,
    )  # fmt: skip
    assert (made["titled"], made["qualifying"]) == (6, 3)
    assert all(r["norms"] == [] for name, r in rows.items() if name != "Hansen, Nora")


def test_text_and_html(store: Path) -> None:
    done = arbiter_run(store, "norms", "norm-test-open")
    assert done.returncode == 0, done.stderr
    line = next(x for x in done.stdout.splitlines() if x.startswith("Hansen, Nora"))
    assert "GM: without round 10,11 (Ra 2380, Rp 2600)" in line
    page = arbiter_run(store, "norms", "norm-test-open", "--format", "html")
    assert page.returncode == 0
    assert "<table" in page.stdout
    assert "Hansen, Nora" in page.stdout


def test_unknown_tournament_one_line(store: Path) -> None:
    done = arbiter_run(store, "norms", "no-such-event")
    assert done.returncode == 1
    assert len(done.stderr.strip().splitlines()) == 1
    assert "no-such-event" in done.stderr


def test_real_event_six_rounds_no_norm(tmp_path: Path) -> None:
    trf = require_testdata("chess", "real", "icu_bunratty_masters_2011.trf")
    store = tmp_path / "s.duckdb"
    assert arbiter_run(store, "ingest", str(trf)).returncode == 0
    played: dict[str, int] = {}
    for line in trf.read_text(encoding="latin-1").splitlines():
        if line.startswith("001"):
            cells = [line[i : i + 10] for i in range(91, len(line), 10)]
            played[line[14:47].strip()] = sum(1 for c in cells if c[7:8] in ("1", "0", "="))
    rows = norms_json(store, "icu-bunratty-masters-2011")
    assert len(rows) == len(played) == 34
    assert {r["player"]["name"]: r["games"] for r in rows} == played
    assert all(r["norms"] == [] for r in rows)


def _pdf_text(path: Path) -> list[str]:
    """Each page's text (pypdfium2), and the page size in points."""
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(str(path))
    try:
        assert tuple(round(v) for v in pdf[0].get_size()) == (595, 842)  # A4
        return [pdf[i].get_textpage().get_text_range() for i in range(len(pdf))]
    finally:
        pdf.close()


def test_it1_certificate_and_it3_report(store: Path, tmp_path: Path) -> None:
    """The forms carry the figures worked by hand above: IT1 of Nora's GM norm counts the
    games of rounds 1-9 (rounds 10 and 11 left out), 7 points, Ra 2380, 78 %, Rp 2600 (dp
    220); IT3 lists that one norm. A player without a norm, or a title not made, is refused
    in one line and no file is written."""
    rows = {r["player"]["name"]: r for r in norms_json(store, "norm-test-open")}
    nora = rows["Hansen, Nora"]["player"]["id"]
    it1 = tmp_path / "it1.pdf"
    done = arbiter_run(store, "norms", "norm-test-open", "--certificate", str(nora), "-o", str(it1))
    assert done.returncode == 0, done.stderr
    assert done.stderr.strip().endswith(f"written to {it1}")
    text = "\n".join(_pdf_text(it1))
    for shown in ("IT1 Certificate of title norm: GM, Hansen, Nora", "Norm Test Open",
                  "Games counted 9", "Rounds left out (1.4.1e/f) 10, 11", "Points 7",
                  "Ra (1.4.7) 2380", "Score 78 %", "2600 (dp 220)", "Chief arbiter"):  # fmt: skip
        assert shown in text, shown
    assert text.count("Garcia, Ana") == 1  # round 1's opponent: a counted game
    assert "Dahl, Ola" not in text  # round 10: left out
    assert "Lie, Per" not in text  # round 11: left out

    it3 = tmp_path / "it3.pdf"
    done = arbiter_run(store, "norms", "norm-test-open", "--report", "-o", str(it3))
    assert done.returncode == 0, done.stderr
    report = "\n".join(_pdf_text(it3))
    assert "IT3 Tournament report (title norms)" in report
    assert "Hansen, Nora NOR GM 9 7 2380 2600 10, 11" in report
    assert "Players 12" in report

    none = rows["Garcia, Ana"]["player"]["id"]
    done = arbiter_run(store, "norms", "norm-test-open", "--certificate", str(none),
                       "-o", str(tmp_path / "x.pdf"))  # fmt: skip
    assert done.returncode == 1
    assert (
        done.stderr.strip()
        == f"error: norm-test-open: player {none} (Garcia, Ana) made no title norm"
    )
    done = arbiter_run(store, "norms", "norm-test-open", "--certificate", str(nora),
                       "--title", "IM", "-o", str(tmp_path / "x.pdf"))  # fmt: skip
    assert done.returncode == 1
    assert "made no IM norm (made: GM)" in done.stderr
    assert not (tmp_path / "x.pdf").exists()
    done = arbiter_run(store, "norms", "norm-test-open", "--report", "-o", str(it3))
    assert done.returncode == 1
    assert "already exists (--force overwrites it)" in done.stderr
    # issue 47: the forms go through the one safe writer: a FIFO is refused even with --force
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    done = arbiter_run(store, "norms", "norm-test-open", "--report", "-o", str(fifo), "--force")
    assert done.returncode == 1
    assert done.stderr.strip() == f"error: {fifo}: is a FIFO: refusing to replace it"
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert stat.S_IMODE(it3.stat().st_mode) == 0o644
    args = ("--report", "--form-format", "html", "-o", "-")
    done = arbiter_run(store, "norms", "norm-test-open", *args)
    assert done.returncode == 0, done.stderr
    assert "IT3 Tournament report (title norms)" in done.stdout
    assert "Hansen, Nora" in done.stdout
