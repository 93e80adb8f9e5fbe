"""FIDE's XML list read the same whatever its layout, through the CLI: the same players written
as FIDE writes them (read as arrays, `ingest.lists.fide_xml_scan`), with CRLF line ends and
indentation (arrays too), and with a comment between two players in ISO-8859-1 (read player by
player) are imported, then registered from the list by `player import` of their FIDE ids:
every player gets the name, federation, title and standard rating written in the file."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from xml.sax.saxutils import escape

import pytest

from tests.cli.list_files import XML_FIELDS
from tests.cli.test_rating_list_import_cli import arbiter
from tests.cli.test_register_from_list_cli import create

NAMES = ("Müller, Jörg", "O'Brien, Seán", "Smith & Sons, Ann", "Þórsson, Ásgeir", "Lee, Kim")
FEDERATIONS = ("GER", "IRL", "ENG", "ISL", "KOR")
TITLES = ("GM", "", "IM", "FM", "")


def players() -> list[dict[str, object]]:
    """Forty players of every kind of value: names with entities and accents, empty titles,
    no rapid rating for some."""
    found: list[dict[str, object]] = []
    for n in range(40):
        found.append(
            {
                "fideid": 4100000 + n,
                "name": f"{NAMES[n % 5]} {n}",
                "country": FEDERATIONS[n % 5],
                "sex": "F" if n % 3 == 0 else "M",
                "title": TITLES[n % 5] or None,
                "rating": 1500 + 31 * n,
                "games": n % 9,
                "k": (10, 20, 40)[n % 3],
                "rapid_rating": 1480 + 29 * n if n % 2 else None,
                "rapid_games": 0 if n % 2 else None,
                "rapid_k": 20 if n % 2 else None,
                "birthday": 1950 + n,
                "flag": "wi" if n % 3 == 0 else ("i" if n % 4 == 0 else None),
            }
        )
    return found


def _player(player: Mapping[str, object], end: str, indent: str) -> str:
    lines = [f"<player>{end}"]
    for name in XML_FIELDS:
        value = player.get(name)
        text = escape(str(value), {"'": "&apos;"}) if value is not None else ""
        lines.append(f"{indent}<{name}>{text}</{name}>{end}")
    lines.append(f"</player>{end}")
    return "".join(lines)


def write(path: Path, rows: Sequence[Mapping[str, object]], layout: str) -> Path:
    """The list in one of three layouts: ``fide``, ``crlf`` (CRLF, indented), ``latin1``
    (ISO-8859-1, a comment between the first two players)."""
    end, indent, encoding = {
        "fide": ("\n", "", "UTF-8"),
        "crlf": ("\r\n", "  ", "UTF-8"),
        "latin1": ("\n", "", "ISO-8859-1"),
    }[layout]
    body = [_player(p, end, indent) for p in rows]
    if layout == "latin1":
        body.insert(1, f"<!-- {len(rows)} players -->{end}")
    text = f'<?xml version="1.0" encoding="{encoding}"?>{end}<playerslist>{end}'
    text += "".join(body) + f"</playerslist>{end}"
    path.write_bytes(text.encode("utf-8" if encoding == "UTF-8" else "latin-1"))
    return path


@pytest.mark.parametrize("layout", ["fide", "crlf", "latin1"])
def test_every_layout_gives_the_players_written(tmp_path: Path, layout: str) -> None:
    rows = players()
    store = tmp_path / "arbiter.duckdb"
    arbiter(store, "store", "init")
    path = write(tmp_path / "players_list_xml_foa.xml", rows, layout)
    out = arbiter(store, "ratings", "import", str(path), "--date", "2025-11-01").stdout
    assert "fide-standard 2025-11-01: 40 players imported" in out
    assert "fide-rapid 2025-11-01: 20 players imported" in out
    t = create(store, "Open")
    ids = tmp_path / "ids.csv"
    ids.write_text("fide_id\n" + "".join(f"{p['fideid']}\n" for p in rows))
    arbiter(store, "player", "import", t, str(ids))
    listed = json.loads(arbiter(store, "player", "list", t, "-f", "json").stdout)
    found = {
        str(p["fide_id"]): (p["name"], p["federation"], p.get("title"), p["rating"]) for p in listed
    }
    assert found == {
        str(p["fideid"]): (p["name"], p["country"], p["title"], p["rating"]) for p in rows
    }
