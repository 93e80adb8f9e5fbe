"""`arbiter prizes` in subprocesses, as a director runs it: a real event's prize list (the 9th
Karl-Mala-Gedenkturnier, Frankfurt 2005, FIDE's own TRF sample, 284 players, 7 rounds) and the
refusals of a bad ``prizes.toml`` (one line naming the file, line, column and key; nothing
appended).

The expected prize list is read off the TRF's own columns (points, cols 81-84; rank, 86-89;
rating, 49-52; sex, 10; birth date, 70-79), not from arbiter's output:

- 6.5 Mikhaletz alone (rank 1): 1st, 500 and the cup.
- 6.0: ranks 2-7, six players (Uwira, Grabarczyk, Vasquez, Bagaturov, Donchenko, Haub): 2nd
  to 4th pooled, (300 + 200 + 100) / 6 = 100 each (equal sharing). Donchenko (born 1940) is
  a senior, but 100 is more than the seniors' 60.
- Seniors (born 1945 or before): the best left is Klundt (1941, 5.5, rank 12), alone: 60.
- U2000 (rated 1999 or less): Herrmann (1925, 5.0, rank 39) alone on 5.0: 80; the 2nd, 50,
  is shared by the three on 4.5 (Rafiee 1980, Schirrmacher 1884, Blaschke 1994): 16.67 each.
- Women (sex ``f``): Wallrabenstein, Elena and Becher, Anne on 3.0 (ranks 195, 199) share
  the 80; the book (a thing, not shared) goes to the next woman: Fischer, Helena (2.5, rank
  212; Popovic, Nathalie, also 2.5, is ranked 239).
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import require_testdata

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(os.environ.get("VIRTUAL_ENV", "") or ROOT / ".venv") / "bin"
TID = "karl-mala-gedenkturnier-2005-frankfurt"

PRIZES = """\
sharing = "equal"
currency = "EUR"

[[category]]
name = "U2000"
rating_max = 1999
unrated = false

[[category]]
name = "Women"
sex = "f"

[[category]]
name = "Seniors"
born_max = 1945

[[prize]]
place = 1
amount = 500
item = "Cup"

[[prize]]
place = 2
amount = 300

[[prize]]
place = 3
amount = 200

[[prize]]
place = 4
amount = 100

[[prize]]
category = "U2000"
place = 1
amount = 80

[[prize]]
category = "U2000"
place = 2
amount = 50

[[prize]]
category = "Women"
place = 1
amount = 80

[[prize]]
category = "Women"
place = 2
item = "Book"

[[prize]]
category = "Seniors"
place = 1
amount = 60
"""


def run(store: Path, line: str, code: int = 0) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [str(BIN / "arbiter"), "--store", str(store), *shlex.split(line)],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert done.returncode == code, (line, done.stderr)
    return done


@pytest.fixture(scope="module")
def ingested(tmp_path_factory: pytest.TempPathFactory) -> Path:
    trf = require_testdata("chess", "real", "karl_mala_gedenkturnier_2005_frankfurt.trf")
    store = tmp_path_factory.mktemp("karl-mala") / "s.duckdb"
    run(store, f"ingest {shlex.quote(str(trf))}")
    return store


@pytest.fixture
def store(ingested: Path, tmp_path: Path) -> Path:
    """A copy of the ingested event's store, for one test to change."""
    return copied(ingested, tmp_path)


def copied(store: Path, folder: Path) -> Path:
    """A copy of a DuckDB store in ``folder`` (with its write-ahead log, when it has one)."""
    for part in (store, store.with_name(store.name + ".wal")):
        if part.exists():
            shutil.copy(part, folder / part.name)
    return folder / store.name


@pytest.fixture(scope="module")
def small_event(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A store with a small event (id ``small``): cheap to copy and to read the log of."""
    store = tmp_path_factory.mktemp("small") / "s.duckdb"
    run(store, "tournament create --name Small --id small --system dutch --rounds 1")
    return store


def set_prizes(store: Path, text: str, code: int = 0, tid: str = TID) -> str:
    path = store.parent / "prizes.toml"
    path.write_text(text, encoding="utf-8")
    return run(store, f"prizes {tid} set {path}", code).stderr.strip()


def test_real_event_prize_list(store: Path) -> None:
    said = set_prizes(store, PRIZES)
    assert said == f"{TID}: prize list set (9 prizes, sharing equal)"
    rows: list[dict[str, Any]] = json.loads(run(store, f"prizes {TID} --format json").stdout)
    got = [(r["player"]["name"], r["category"], r["amount"], r["item"]) for r in rows]
    six = ["Vasquez,Rodrigo", "Grabarczyk,Bogdan", "Donchenko,Anatoli"]
    six += ["Haub,Thorsten Michael", "Bagaturov,Giorgi", "Uwira,Oliver"]
    assert got[0] == ("Mikhaletz,Lubomir", None, 500, "Cup")
    assert sorted(got[1:7]) == sorted((name, None, 100, None) for name in six)
    assert got[7:] == [
        ("Klundt,Klaus", "Seniors", 60, None),
        ("Herrmann,Oliver", "U2000", 80, None),
        *sorted(
            (name, "U2000", 16.67, None)
            for name in ("Blaschke,Tobias", "Rafiee,Makan", "Schirrmacher,Carsten")
        ),
        ("Wallrabenstein,Elena", "Women", 40, None),
        ("Becher,Anne", "Women", 40, None),
        ("Fischer,Helena", "Women", 0, "Book"),
    ]
    assert {r["shared_by"] for r in rows[1:7]} == {6}
    assert all(r["places"] == [2, 3, 4] for r in rows[1:7])
    assert all(set(r["player"]) == {"id", "name"} for r in rows)
    assert rows[0]["currency"] == "EUR"

    text = run(store, f"prizes {TID}").stdout.splitlines()
    assert text[0] == "9. Karl-Mala-Gedenkturnier: prizes after round 7 of 7 (ties share equally)"
    assert text[2].split()[:3] == ["1", "Mikhaletz,Lubomir", "6.5"]
    csv = run(store, f"prizes {TID} --format csv").stdout.splitlines()
    assert csv[0].startswith("rank,player,points,category,prize,amount,currency,item")
    assert len(csv) == 1 + len(rows)
    page = run(store, f"prizes {TID} --format html").stdout
    assert '<td class="name" title="Fischer,Helena">Fischer,Helena</td>' in page
    assert "<td>Book</td>" in page


def test_a_new_list_replaces_the_old(store: Path) -> None:
    set_prizes(store, PRIZES)
    set_prizes(store, 'sharing = "none"\n[[prize]]\nplace = 1\namount = 10\n')
    rows = json.loads(run(store, f"prizes {TID} -f json").stdout)
    assert [(r["player"]["name"], r["amount"]) for r in rows] == [("Mikhaletz,Lubomir", 10)]
    log = run(store, f"log {TID}").stdout
    assert log.count(" PrizesSet ") == 2


@pytest.mark.parametrize(
    ("text", "said"),
    [
        (
            "[[prize]]\nplace = 1\namount = 100\n\n[[prize]]\nplace = 2\namount = -50\n",
            "prizes.toml:7:1: prize 2: amount: Input should be greater than 0",
        ),
        (
            'sharing = "halves"\n[[prize]]\nplace = 1\namount = 100\n',
            "prizes.toml:1:1: sharing: Input should be 'none', 'equal' or 'hort'",
        ),
        (
            '[[prize]]\nplace = 1\n  colour = "gold"\n',
            "prizes.toml:3:3: prize 1: colour: unknown key (see docs/prizes.md)",
        ),
        (
            '[[category]]\nname = "U10"\nunder = "ten"\n[[prize]]\nplace = 1\namount = 1\n',
            "prizes.toml:3:1: category 1: under: Input should be a valid integer, "
            "unable to parse string as an integer",
        ),
        (
            "[[prize]]\nplace = 1\namount = 100\ncategory = 'U2000'\n",
            "prizes.toml: prize names category 'U2000' (known: none defined)",
        ),
        ("[[prize]]\nplace = 1\namount = \n", "prizes.toml:3:10: Invalid value"),
        (
            '[category]\nname = "U10"\n[[prize]]\nplace = 1\namount = 1\n',
            "prizes.toml:1:1: category: a list of tables: write [[category]] above each one",
        ),
        ('sharing = "equal"\n', "prizes.toml: prize: Field required"),
    ],
)
def test_a_bad_file_is_one_line_and_nothing_is_appended(
    small_event: Path, tmp_path: Path, text: str, said: str
) -> None:
    store = copied(small_event, tmp_path)
    before = run(store, "log small").stdout
    message = set_prizes(store, text, code=1, tid="small")
    assert message == f"error: {store.parent / said}"
    assert run(store, "log small").stdout == before


def test_without_a_prize_list(store: Path) -> None:
    said = run(store, f"prizes {TID}", code=1).stderr.strip()
    assert said == f"error: {TID}: no prize list yet (arbiter prizes {TID} set prizes.toml)"
    said = run(store, f"prizes {TID} sett x.toml", code=1).stderr.strip()
    assert said == f"error: expected `prizes {TID} set FILE` (found 'sett')"


def test_an_age_category_needs_the_event_year(tmp_path: Path) -> None:
    store = tmp_path / "s.duckdb"
    run(store, "tournament create --name Undated --id undated --system dutch --rounds 1")
    path = tmp_path / "prizes.toml"
    path.write_text('[[category]]\nname = "U12"\nunder = 12\n[[prize]]\nplace = 1\namount = 5\n')
    said = run(store, f"prizes undated set {path}", code=1).stderr.strip()
    assert said == (
        "error: category 'U12' counts ages ('under'), which needs the event's year: set the "
        "start date (tournament edit T --start DATE) or use born_min"
    )
    assert "PrizesSet" not in run(store, "log undated").stdout
    run(store, "tournament edit undated --start 2026-03-01")
    run(store, f"prizes undated set {path}")


def test_print_prizes(store: Path) -> None:
    """`arbiter print T prizes`: the prize list on paper, read back with pypdfium2; the rows
    worked out from the TRF above (Mikhaletz 500 and the cup; the six on 6.0, 100 each; the
    book to Fischer, Helena)."""
    import pypdfium2 as pdfium

    set_prizes(store, PRIZES)
    out = store.parent / "prizes.pdf"
    done = run(store, f"print {TID} prizes -o {out}")
    assert (
        done.stderr.strip()
        == f"{TID}: Prizes after round 7 of 7 (ties share equally) written to {out}"
    )
    pdf = pdfium.PdfDocument(str(out))
    try:
        text = "\n".join(page.get_textpage().get_text_range() for page in pdf)
    finally:
        pdf.close()
    lines = [" ".join(line.split()) for line in text.replace("\r", "").splitlines()]
    assert "Rank No Name Pts Prize Amount Item Shared by" in lines
    assert any(
        line.startswith("1 ") and "Mikhaletz,Lubomir 6.5 1st 500 EUR Cup" in line for line in lines
    )
    six = ["Vasquez,Rodrigo", "Grabarczyk,Bogdan", "Donchenko,Anatoli"]
    six += ["Haub,Thorsten Michael", "Bagaturov,Giorgi", "Uwira,Oliver"]
    for name in six:  # 2nd to 4th pooled, 100 each, shared by six
        assert any(f" {name} 6 " in line and line.endswith(" 100 EUR 6") for line in lines), name
    assert any("Fischer,Helena 2.5 Women" in line and "Book" in line for line in lines)
    assert any("Klundt,Klaus 5.5 Seniors 1st 60 EUR" in line for line in lines)
