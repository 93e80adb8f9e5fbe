"""`arbiter check T --for fide|egd` in a subprocess: a clean event exits 0; an event with each
finding prints one line each (the expected values are the list file's the test writes) and
exits 1; without a list of the kind only what needs no list is checked, said in one line."""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli.list_files import fide_xml
from tests.cli.test_rating_list_import_cli import CARLSEN, HOU, arbiter
from tests.cli.test_register_from_list_cli import EGD_LINES, go_event

ANAND = {
    "fideid": 5000017,
    "name": "Anand, Viswanathan",
    "country": "IND",
    "sex": "M",
    "title": "GM",
    "rating": 2745,
    "games": 0,
    "k": 10,
    "birthday": 1969,
}


def chess_event(store: Path, *extra: str) -> str:
    args = ("tournament", "create", "--name", "Open", "--game", "chess", "--system", "swiss")
    return arbiter(store, *args, "--rounds", "5", *extra).stdout.strip().splitlines()[-1]


def add(store: Path, t: str, *args: str) -> None:
    arbiter(store, "player", "add", t, *args)


def test_a_clean_fide_event_exits_0(tmp_path: Path) -> None:
    store = tmp_path / "arbiter.duckdb"
    arbiter(store, "store", "init")
    path = fide_xml(tmp_path / "nov.xml", [CARLSEN, HOU])
    arbiter(store, "ratings", "import", str(path), "--date", "2025-11-01")
    t = chess_event(store, "--rating-type", "standard", "--start", "2025-11-20")
    add(store, t, "--fide-id", str(CARLSEN["fideid"]))
    add(store, t, "--fide-id", str(HOU["fideid"]))
    done = arbiter(store, "check", t, "--for", "fide")
    assert done.stdout == ""
    assert done.stderr == f"{t}: 0 finding(s) for FIDE against fide-standard of 2025-11-01\n"
    assert json.loads(arbiter(store, "check", t, "--for", "fide", "-f", "json").stdout) == []


def test_each_fide_finding(tmp_path: Path) -> None:
    store = tmp_path / "arbiter.duckdb"
    arbiter(store, "store", "init")
    nov = fide_xml(tmp_path / "nov.xml", [CARLSEN, HOU, ANAND])
    # The December list is not in force at a November start: its values must not be used.
    dec = fide_xml(tmp_path / "dec.xml", [{**CARLSEN, "rating": 2850}, HOU])
    arbiter(store, "ratings", "import", str(nov), "--date", "2025-11-01")
    arbiter(store, "ratings", "import", str(dec), "--date", "2025-12-01")
    t = chess_event(store, "--start", "2025-11-20")  # no rating type
    fields = ("--federation", "NOR", "--sex", "m", "--birth", "1990")
    add(store, t, "--fide-id", str(CARLSEN["fideid"]), "--rating", "2850")
    add(store, t, "--fide-id", str(HOU["fideid"]), "--name", "Hou, Y.")
    add(store, t, "--name", "Berg, Anna", *fields)
    add(store, t, "--fide-id", "99999999", "--name", "New, Ann", "--not-on-list", *fields)
    add(store, t, "--name", "Dahl, Per", "--fide-id", str(ANAND["fideid"]), "--not-on-list")
    done = arbiter(store, "check", t, "--for", "fide", code=1)
    assert done.stdout.splitlines() == [
        f"{t}: event: rating_type: the event states no rating type (standard, rapid or blitz); "
        "FIDE needs it to rate the event (checked as standard)",
        f"{t}: 1 Carlsen, Magnus: rating: 2850; the list has {CARLSEN['rating']}",
        f"{t}: 2 Hou, Y.: name: 'Hou, Y.'; the list has '{HOU['name']}'",
        f"{t}: 3 Berg, Anna: fide_id: no FIDE id",
        f"{t}: 4 New, Ann: fide_id: 99999999 is not on the fide-standard list of 2025-11-01",
        f"{t}: 5 Dahl, Per: name: 'Dahl, Per'; the list has '{ANAND['name']}'",
        f"{t}: 5 Dahl, Per: rating: unrated; the list has {ANAND['rating']}",
        f"{t}: 5 Dahl, Per: birth: no birth date (FIDE needs at least the year)",
        f"{t}: 5 Dahl, Per: sex: no sex (m or f)",
        f"{t}: 5 Dahl, Per: federation: no federation",
    ]
    rows = json.loads(arbiter(store, "check", t, "--for", "fide", "-f", "json", code=1).stdout)
    assert rows[1] == {
        "player": 1,
        "name": "Carlsen, Magnus",
        "field": "rating",
        "problem": f"2850; the list has {CARLSEN['rating']}",
    }
    assert rows[0]["player"] is None
    assert len(rows) == 10
    wrong = arbiter(store, "check", t, "--for", "egd", code=1)
    assert wrong.stderr == f"error: {t}: EGD rates go; this is a chess event\n"


def test_without_a_list_only_what_needs_none_is_checked(tmp_path: Path) -> None:
    store = tmp_path / "arbiter.duckdb"
    arbiter(store, "store", "init")
    t = chess_event(store, "--rating-type", "rapid")
    add(store, t, "--name", "Berg, Anna", "--fide-id", "123", "--federation", "NOR")
    done = arbiter(store, "check", t, "--for", "fide", code=1)
    assert done.stdout.splitlines() == [
        f"{t}: event: start_date: the event states no start date (nor round dates)",
        f"{t}: 1 Berg, Anna: birth: no birth date (FIDE needs at least the year)",
        f"{t}: 1 Berg, Anna: sex: no sex (m or f)",
    ]
    assert done.stderr.splitlines()[0] == (
        f"{t}: no fide-rapid list imported (arbiter ratings import): "
        "checked only what needs no list"
    )


def test_egd_pins_and_grades(tmp_path: Path) -> None:
    store = tmp_path / "arbiter.duckdb"
    arbiter(store, "store", "init")
    (tmp_path / "allworld_lp.txt").write_text(EGD_LINES)
    g = go_event(store, "Go Open")
    done = arbiter(store, "check", g, "--for", "egd")  # nobody yet: clean, no list said
    assert "no egd list imported" in done.stderr
    arbiter(store, "ratings", "import", str(tmp_path / "allworld_lp.txt"), "--date", "2026-01-01")
    add(store, g, "--egd-pin", "10234567")  # Schmidt Anna, 5d on the list
    done = arbiter(store, "check", g, "--for", "egd")
    assert done.stderr == f"{g}: 0 finding(s) for EGD against egd of 2026-01-01\n"
    add(store, g, "--egd-pin", "19574643", "--rank", "18k")  # 20k on the list
    add(store, g, "--name", "Sato, Ken", "--rank", "2d")
    add(store, g, "--name", "Kim, Lee", "--rank", "1d", "--egd-pin", "555", "--not-on-list")
    done = arbiter(store, "check", g, "--for", "egd", code=1)
    assert done.stdout.splitlines() == [
        f"{g}: 2 Abad Jahin: rank: 18k; the list has 20k",
        f"{g}: 3 Sato, Ken: egd_pin: no EGD PIN",
        f"{g}: 4 Kim, Lee: egd_pin: 555 is not on the egd list of 2026-01-01",
    ]
    wrong = arbiter(store, "check", g, "--for", "fide", code=1)
    assert wrong.stderr == f"error: {g}: FIDE rates chess; this is a go event\n"


def test_a_rating_typed_for_a_player_not_on_the_list(tmp_path: Path) -> None:
    """A newcomer entered with a national rating: FIDE rates him unrated (docs/fide_ratings.md),
    so the check says the typed rating will not be FIDE's."""
    store = tmp_path / "arbiter.duckdb"
    arbiter(store, "store", "init")
    arbiter(store, "ratings", "import", str(fide_xml(tmp_path / "nov.xml", [CARLSEN])),
            "--date", "2025-11-01")  # fmt: skip
    t = chess_event(store, "--rating-type", "standard", "--start", "2025-11-20")
    fields = ("--federation", "NOR", "--sex", "m", "--birth", "1990")
    add(store, t, "--fide-id", "99999999", "--name", "New, Ann", "--not-on-list",
        "--rating", "1800", *fields)  # fmt: skip
    done = arbiter(store, "check", t, "--for", "fide", code=1)
    assert done.stdout.splitlines() == [
        f"{t}: 1 New, Ann: fide_id: 99999999 is not on the fide-standard list of 2025-11-01",
        f"{t}: 1 New, Ann: rating: 1800 typed; not on the list, FIDE rates the player unrated",
    ]
