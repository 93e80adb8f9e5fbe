"""Registration from an imported FIDE list, through the CLI's `player add --fide-id` and a
`player import` CSV with a ``fide_id`` column alone: the list fills name, federation, title,
sex, birth year and rating; an option given overrides; an id not on the list is refused naming
the field, unless --not-on-list (--force only allows a namesake); without an imported list
nothing changes. Go: --egd-pin and --aga-id from the EGD and AGA lists, the PIN in the h9
export."""

from __future__ import annotations

import json
import re
from pathlib import Path

from tests.cli.list_files import fide_xml
from tests.cli.test_rating_list_import_cli import CARLSEN, HOU, arbiter
from tests.conftest import require_testdata


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
    assert done.stderr == (
        "error: --fide-id 99999999 is not on the fide-standard list of 2025-11-01 "
        "(--not-on-list registers a player new to FIDE)\n"
    )
    # --force allows a namesake only; it does not let an unlisted id through.
    args = ("player", "add", t, "--fide-id", "99999999", "--name", "New, Player")
    assert "--not-on-list" in arbiter(store, *args, "--force", code=1).stderr
    arbiter(store, *args, "--not-on-list")
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


EGD_LINES = (
    "  19574643  Abad Jahin                            FR  38GJ   20k   --     15     2"
    "  T200202B\n"
    "  10234567  Schmidt Anna                          DE  Berl   5d    --   2450    20"
    "  T251001A\n"
)
AGA_LINES = (
    "Abentroth, Nicholas\t17452\tLimit\t-6.90000\t4/22/2010\tFARG\tND\t0.54000\t9/1/2009\n"
    "Abraham, Michael\t12767\tFull\t3.20000\t6/19/2005\tATLA\tSC\t\t\n"
)


def go_event(store: Path, name: str) -> str:
    args = ("tournament", "create", "--name", name, "--game", "go", "--system", "macmahon")
    return arbiter(store, *args, "--rounds", "3").stdout.strip().splitlines()[-1]


def go_event_with_lists(tmp_path: Path) -> tuple[Path, str]:
    """A store with a go event and the EGD and AGA lists of 2026-01-01 imported."""
    store = tmp_path / "arbiter.duckdb"
    arbiter(store, "store", "init")
    g = go_event(store, "Go Open")
    (tmp_path / "allworld_lp.txt").write_text(EGD_LINES)
    (tmp_path / "TDListA.txt").write_text(AGA_LINES)
    for f in ("allworld_lp.txt", "TDListA.txt"):
        arbiter(store, "ratings", "import", str(tmp_path / f), "--date", "2026-01-01")
    return store, g


def test_go_players_fill_from_the_egd_and_aga_lists(tmp_path: Path) -> None:
    store, g = go_event_with_lists(tmp_path)
    done = arbiter(store, "player", "add", g, "--egd-pin", "10234567")
    assert "Schmidt Anna, from the egd list of 2026-01-01" in done.stderr
    arbiter(store, "player", "add", g, "--egd-pin", "19574643", "--rank", "18k")
    arbiter(store, "player", "add", g, "--aga-id", "17452")
    done = arbiter(store, "player", "add", g, "--egd-pin", "555", code=1)
    assert done.stderr == (
        "error: --egd-pin 555 is not on the egd list of 2026-01-01 "
        "(--not-on-list registers a player new to the EGD)\n"
    )
    done = arbiter(store, "player", "add", g, "--egd-pin", "10234567", code=1)
    assert done.stderr == "error: --egd-pin 10234567 is already player No. 1 (Schmidt Anna)\n"
    done = arbiter(store, "player", "add", g, "--aga-id", "99", code=1)
    assert "--aga-id 99 is not on the aga list" in done.stderr
    arbiter(store, "player", "add", g, "--aga-id", "99", "--name", "Neu, Ling", "--not-on-list")
    t = create(store, "Chess")
    done = arbiter(store, "player", "add", t, "--egd-pin", "10234567", code=1)
    assert done.stderr == "error: --egd-pin is a go id; this is a chess event\n"
    # The CSV door: an egd_pin column alone is enough; a PIN not on the list names its cell.
    h = go_event(store, "Go Cup")
    bad = tmp_path / "bad.csv"
    bad.write_text("egd_pin\n10234567\n777\n")
    done = arbiter(store, "player", "import", h, str(bad), code=1)
    assert done.stderr.startswith(f"error: {bad}:3:1: egd_pin 777 is not on the egd list")
    assert "(--not-on-list registers" in done.stderr  # the command's own option, by its name
    pins = tmp_path / "pins.csv"
    pins.write_text("egd_pin\n10234567\n19574643\n")
    arbiter(store, "player", "import", h, str(pins))
    listed = {
        p["name"]: p for p in json.loads(arbiter(store, "player", "list", g, "-f", "json").stdout)
    }
    assert (listed["Schmidt Anna"]["rank"], listed["Schmidt Anna"]["rating"]) == ("5d", 2450)
    assert listed["Schmidt Anna"]["federation"] == "DE"
    assert listed["Abad Jahin"]["rank"] == "18k"  # the option given wins over the list's 20k
    assert listed["Abentroth, Nicholas"]["rank"] == "6k"  # AGA -6.9: 6 kyu
    assert listed["Neu, Ling"]["rank"] is None
    cup = json.loads(arbiter(store, "player", "list", h, "-f", "json").stdout)
    assert sorted(p["name"] for p in cup) == ["Abad Jahin", "Schmidt Anna"]
    # The h9 export carries each PIN as the EGD's own tables do: '|PIN' ending the line.
    out = tmp_path / "cup.h9"
    arbiter(store, "export", h, "-f", "h9", "-o", str(out))
    lines = [x for x in out.read_text(encoding="latin-1").splitlines() if "Schmidt" in x]
    assert len(lines) == 1
    assert lines[0].endswith("|10234567")
    # A real EGD table (KPMC 2020) ends its player lines the same way.
    sample = require_testdata("go", "h9", "honte_kpmc2020.h9")
    line = next(x for x in sample.read_text().splitlines() if "|" in x)
    assert re.search(r"\|[0-9]{8}$", line)
    assert re.search(r"\|[0-9]{8}$", lines[0])
