"""Registration from an imported FIDE list, through the CLI's `player add --fide-id` and a
`player import` CSV with a ``fide_id`` column alone: the list fills name, federation, title,
sex, birth year and rating; an option given overrides; an id not on the list is refused naming
the field, unless --force; without an imported list nothing changes."""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli.list_files import fide_xml
from tests.cli.test_rating_list_import_cli import CARLSEN, HOU, arbiter


def create(store: Path, name: str) -> str:
    args = ("tournament", "create", "--name", name, "--game", "chess", "--system", "swiss")
    out = arbiter(store, *args, "--rounds", "5").stdout
    return out.strip().splitlines()[-1]


def test_player_add_and_import_fill_from_the_fide_list(tmp_path: Path) -> None:
    store = tmp_path / "arbiter.duckdb"
    arbiter(store, "store", "init")
    t = create(store, "Open")
    # No list imported yet: a FIDE id alone is not enough, a name is needed as before.
    done = arbiter(store, "player", "add", t, "--fide-id", "1503014", code=1)
    assert "name" in done.stderr
    path = fide_xml(tmp_path / "players_list_xml_foa.xml", [CARLSEN, HOU])
    arbiter(store, "ratings", "import", str(path), "--date", "2025-11-01")
    arbiter(store, "player", "add", t, "--fide-id", "1503014")
    arbiter(store, "player", "add", t, "--fide-id", "8602980", "--rating", "2600")
    done = arbiter(store, "player", "add", t, "--fide-id", "99999999", code=1)
    assert done.stderr.startswith("error: --fide-id 99999999 is not on the fide-standard list")
    arbiter(store, "player", "add", t, "--fide-id", "99999999", "--name", "New, Player", "--force")
    other = tmp_path / "ids.csv"
    other.write_text("fide_id\n1503014\n")
    u = create(store, "Blitz")
    arbiter(store, "player", "import", u, str(other))
    listed = json.loads(arbiter(store, "player", "list", t, "-f", "json").stdout)
    by_id = {str(p.get("fide_id")): p for p in listed}
    carlsen = by_id["1503014"]
    assert (carlsen["name"], carlsen["rating"]) == ("Carlsen, Magnus", 2839)
    assert by_id["8602980"]["rating"] == 2600
    assert by_id["99999999"]["name"] == "New, Player"
    imported = json.loads(arbiter(store, "player", "list", u, "-f", "json").stdout)
    assert [(p["name"], p["rating"]) for p in imported] == [("Carlsen, Magnus", 2839)]
