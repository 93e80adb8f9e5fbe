"""`arbiter ratings import` and `ratings lists` in a subprocess, on list files the test writes
in each format: FIDE XML (three lists from one file), FIDE TXT (combined and one-type, the date
from the header), the EGD list (TXT and HTML), the AGA TD list (tab and fixed-width), a national
CSV. A bad row refuses the file in one line FILE:LINE:COL and imports nothing;
``--skip-bad-lines`` lists it and imports the rest; the same file twice changes nothing."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli.list_files import fide_txt, fide_xml

ARBITER = Path(sys.executable).parent / "arbiter"

CARLSEN = {
    "fideid": 1503014,
    "name": "Carlsen, Magnus",
    "country": "NOR",
    "sex": "M",
    "title": "GM",
    "rating": 2839,
    "games": 0,
    "k": 10,
    "rapid_rating": 2823,
    "rapid_games": 0,
    "rapid_k": 10,
    "blitz_rating": 2886,
    "blitz_games": 0,
    "blitz_k": 10,
    "birthday": 1990,
}
HOU = {
    "fideid": 8602980,
    "name": "Hou, Yifan",
    "country": "CHN",
    "sex": "F",
    "title": "GM",
    "w_title": "WGM",
    "rating": 2633,
    "games": 9,
    "k": 10,
    "birthday": 1994,
    "flag": "w",
}


def arbiter(store: Path, *args: str, code: int = 0) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "ARBITER_STORE": str(store), "COLUMNS": "300"}
    done = subprocess.run(
        [str(ARBITER), *args], capture_output=True, text=True, env=env, check=False
    )
    assert done.returncode == code, (args, done.stdout[-2000:], done.stderr[-2000:])
    return done


def lists(store: Path) -> dict[tuple[str, str], dict[str, object]]:
    rows = json.loads(arbiter(store, "ratings", "lists", "-f", "json").stdout)
    return {(r["list"], r["date"]): r for r in rows}


@pytest.fixture
def store(tmp_path: Path) -> Path:
    path = tmp_path / "arbiter.duckdb"
    arbiter(path, "store", "init")
    return path


def test_fide_xml_gives_three_lists_and_a_second_import_is_a_no_op(
    store: Path, tmp_path: Path
) -> None:
    path = fide_xml(tmp_path / "players_list_xml_foa.xml", [CARLSEN, HOU])
    out = arbiter(store, "ratings", "import", str(path), "--date", "2025-11-01").stdout
    assert "fide-standard 2025-11-01: 2 players imported" in out
    assert "fide-rapid 2025-11-01: 1 players imported" in out
    found = lists(store)
    assert found["fide-standard", "2025-11-01"]["players"] == 2
    assert (
        found["fide-blitz", "2025-11-01"]["sha256"] == found["fide-rapid", "2025-11-01"]["sha256"]
    )
    # The reader hashes the bytes as it reads them: the whole file's SHA-256.
    assert str(found["fide-standard", "2025-11-01"]["sha256"]).startswith(
        hashlib.sha256(path.read_bytes()).hexdigest()[:12]
    )
    again = arbiter(store, "ratings", "import", str(path), "--date", "2025-11-01").stdout
    assert again.count("already imported from this file, nothing changed") == 3
    assert lists(store) == found


def test_fide_txt_lists_take_the_month_from_the_header(store: Path, tmp_path: Path) -> None:
    one = fide_txt(tmp_path / "standard_nov25frl.txt", [CARLSEN, HOU], month="NOV25")
    out = arbiter(store, "ratings", "import", str(one)).stdout
    assert "fide-standard 2025-11-01: 2 players imported" in out
    combined = fide_txt(tmp_path / "players_list_foa.txt", [CARLSEN, HOU])
    out = arbiter(store, "ratings", "import", str(combined), "--date", "2025-12-01").stdout
    assert "fide-blitz 2025-12-01: 1 players imported" in out


def test_a_shifted_txt_column_is_refused_at_its_line_and_column(
    store: Path, tmp_path: Path
) -> None:
    path = fide_txt(tmp_path / "standard_nov25frl.txt", [CARLSEN, HOU], month="NOV25")
    lines = path.read_text().splitlines()
    lines[2] = lines[2][:40] + "   " + lines[2][40:]
    path.write_text("\n".join(lines) + "\n")
    done = arbiter(store, "ratings", "import", str(path), code=1)
    assert done.stderr.count("\n") == 1
    assert done.stderr.startswith(f"error: {path}:3:")
    assert lists(store) == {}


def test_bad_input_is_one_line_and_imports_nothing(store: Path, tmp_path: Path) -> None:
    truncated = fide_xml(tmp_path / "list.xml", [CARLSEN, HOU])
    text = truncated.read_text()
    truncated.write_text(text[: text.index("<rating>2633")])
    done = arbiter(store, "ratings", "import", str(truncated), "--date", "2025-11-01", code=1)
    assert done.stderr.startswith(f"error: {truncated}:")
    assert "truncated" in done.stderr
    assert done.stderr.count("\n") == 1
    national = tmp_path / "national.csv"
    national.write_text(
        "id,name,federation,rating\n1,Ola Nordmann,NOR,1000000000\n2,Kari,NOR,1800\n"
    )
    args = ("ratings", "import", str(national), "--list", "NOR-elo", "--date", "2026-01-01")
    done = arbiter(store, *args, code=1)
    assert done.stderr == (
        f"error: {national}:2:20: rating out of range (found '1000000000', expected a whole "
        "number 0 .. 4000)\n"
    )
    assert lists(store) == {}
    done = arbiter(store, *args, "--skip-bad-lines")
    assert f"skipped: {national}:2:20: rating out of range" in done.stderr
    assert "NOR-elo 2026-01-01: 1 players imported" in done.stdout
    assert lists(store)["NOR-elo", "2026-01-01"]["skipped"] == 1


def test_a_list_needs_a_date_and_a_name(store: Path, tmp_path: Path) -> None:
    national = tmp_path / "national.csv"
    national.write_text("id,name,federation,rating\n1,Ola Nordmann,NOR,2100\n")
    done = arbiter(store, "ratings", "import", str(national), "--list", "NOR-elo", code=1)
    assert "states no date: give --date" in done.stderr
    done = arbiter(store, "ratings", "import", str(national), "--date", "2026-01-01", code=1)
    assert "give --list NAME" in done.stderr


def test_another_file_for_the_same_list_needs_replace(store: Path, tmp_path: Path) -> None:
    first = fide_xml(tmp_path / "a.xml", [CARLSEN])
    second = fide_xml(tmp_path / "b.xml", [{**CARLSEN, "rating": 2840}])
    arbiter(store, "ratings", "import", str(first), "--date", "2025-11-01")
    done = arbiter(store, "ratings", "import", str(second), "--date", "2025-11-01", code=1)
    assert "--replace" in done.stderr
    out = arbiter(store, "ratings", "import", str(second), "--date", "2025-11-01", "--replace")
    assert "fide-standard 2025-11-01: 1 players replaced" in out.stdout
    assert lists(store)["fide-standard", "2025-11-01"]["source"] == "b.xml"


def test_egd_aga_and_csv_lists(store: Path, tmp_path: Path) -> None:
    egd_lines = (
        "  19574643  Abad Jahin                            FR  38GJ   20k   --     15     2"
        "  T200202B\n"
        "  10234567  Schmidt Anna                          DE  Berl   5d    --   2450    20"
        "  T251001A\n"
    )
    egd_txt = tmp_path / "allworld_lp.txt"
    egd_txt.write_text(egd_lines)
    out = arbiter(store, "ratings", "import", str(egd_txt), "--date", "2026-01-01").stdout
    assert "egd 2026-01-01: 2 players imported" in out
    egd_html = tmp_path / "allworld_lp.html"
    egd_html.write_text(
        f"<html><body><pre>\n  Pin  Name   Country\n{egd_lines}</pre></body></html>\n"
    )
    out = arbiter(store, "ratings", "import", str(egd_html), "--date", "2026-02-01").stdout
    assert "egd 2026-02-01: 2 players imported" in out
    tab = tmp_path / "TDListA.txt"
    tab.write_text(
        "Abentroth, Nicholas\t17452\tLimit\t-6.90000\t4/22/2010\tFARG\tND\t0.54000\t9/1/2009\n"
        "Abraham, Michael\t12767\tFull\t\t6/19/2005\tATLA\tSC\t\t\n"
    )
    out = arbiter(store, "ratings", "import", str(tab), "--date", "2026-01-01").stdout
    assert "aga 2026-01-01: 2 players imported" in out
    fixed = tmp_path / "TDListN.txt"
    fixed.write_text(
        "Aal, Zachary                    15648 Full   -20.1 7/2/2008  none NY\n"
        "Aarhus, Bob                     9616  Full   -21.9 1/1/2008  NOVA VA\n"
    )
    out = arbiter(store, "ratings", "import", str(fixed), "--date", "2026-02-01").stdout
    assert "aga 2026-02-01: 2 players imported" in out
    national = tmp_path / "national.csv"
    national.write_text("id,name,federation,rating,sex,birth_year\n7,Ola,NOR,2100,M,1999\n")
    args = ("ratings", "import", str(national), "--list", "NOR-elo", "--date", "2026-01-01")
    assert "NOR-elo 2026-01-01: 1 players imported" in arbiter(store, *args).stdout
    assert set(lists(store)) == {
        ("egd", "2026-01-01"),
        ("egd", "2026-02-01"),
        ("aga", "2026-01-01"),
        ("aga", "2026-02-01"),
        ("NOR-elo", "2026-01-01"),
    }
