"""`arbiter tournament update-ratings` in a subprocess: before round 1 every player's rating
from the imported list (chess: FIDE's by FIDE id, of the date asked or the latest, or the list
named; go: rank and GoR from the EGD list by PIN, the AGA rating from the AGA list), one line per
changed player and each unchanged one with its reason; refused once round 1 is paired, with
nothing changed."""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli.list_files import fide_xml
from tests.cli.test_rating_list_import_cli import CARLSEN, HOU, arbiter
from tests.cli.test_register_from_list_cli import create, go_event_with_lists


def ratings(store: Path, t: str) -> dict[str, object]:
    rows = json.loads(arbiter(store, "player", "list", t, "-f", "json").stdout)
    return {r["name"]: r["rating"] for r in rows}


def test_chess_ratings_from_the_fide_list_before_round_one(tmp_path: Path) -> None:
    store = tmp_path / "arbiter.duckdb"
    arbiter(store, "store", "init")
    t = create(store, "Open")
    nov = fide_xml(tmp_path / "nov.xml", [CARLSEN, HOU])
    dec = fide_xml(tmp_path / "dec.xml", [{**CARLSEN, "rating": 2850}, HOU])
    arbiter(store, "ratings", "import", str(nov), "--date", "2025-11-01")
    arbiter(store, "ratings", "import", str(dec), "--date", "2025-12-01")
    arbiter(store, "player", "add", t, "--fide-id", "1503014", "--rating", "2800")
    arbiter(store, "player", "add", t, "--fide-id", "8602980", "--rating", "2600")
    arbiter(store, "player", "add", t, "--name", "Berg, Anna", "--rating", "1900")
    args = ("--fide-id", "99999999", "--name", "New, Ann", "--not-on-list")
    arbiter(store, "player", "add", t, *args)
    done = arbiter(store, "tournament", "update-ratings", t, "--date", "2025-11-15")
    assert done.stdout.splitlines() == [
        "1 Carlsen, Magnus: rating 2800 → 2839",
        "2 Hou, Yifan: rating 2600 → 2633",
        "3 Berg, Anna: unchanged (no FIDE id)",
        "4 New, Ann: unchanged (FIDE id 99999999 not on the fide-standard list of 2025-11-01)",
    ]
    assert done.stderr == (
        f"{t}: 2 player(s) updated, 2 unchanged, from fide-standard of 2025-11-01\n"
    )
    done = arbiter(store, "tournament", "update-ratings", t)
    assert done.stdout.splitlines()[:2] == [
        "1 Carlsen, Magnus: rating 2839 → 2850",
        "2 Hou, Yifan: unchanged (as on the list)",
    ]
    done = arbiter(store, "tournament", "update-ratings", t, "--list", "fide-rapid")
    assert done.stdout.splitlines()[:2] == [
        "1 Carlsen, Magnus: rating 2850 → 2823",
        "2 Hou, Yifan: unchanged (FIDE id 8602980 not on the fide-rapid list of 2025-12-01)",
    ]
    bad = arbiter(store, "tournament", "update-ratings", t, "--date", "2025-02-30", code=1)
    assert bad.stderr == "error: --date: '2025-02-30' is not a calendar date (YYYY-MM-DD)\n"
    bad = arbiter(store, "tournament", "update-ratings", t, "--date", "2025-10-01", code=1)
    assert bad.stderr == (
        f"error: {t}: no fide-standard list imported dated 2025-10-01 or before "
        "(arbiter ratings import)\n"
    )
    bad = arbiter(store, "tournament", "update-ratings", t, "--list", "egd", code=1)
    assert bad.stderr.startswith("error: --list: no list 'egd' is imported (lists: fide-blitz")
    arbiter(store, "pair", t)
    before = arbiter(store, "log", t).stdout
    refused = arbiter(store, "tournament", "update-ratings", t, "--date", "2025-11-15", code=1)
    assert refused.stderr == (
        f"error: {t}: round 1 is paired; the ratings it was paired on stay "
        "(undo round 1 first to update them)\n"
    )
    assert arbiter(store, "log", t).stdout == before
    assert ratings(store, t)["Carlsen, Magnus"] == 2823


def test_go_ranks_and_ratings_from_the_egd_and_aga_lists(tmp_path: Path) -> None:
    store, g = go_event_with_lists(tmp_path)
    arbiter(store, "player", "add", g, "--egd-pin", "10234567", "--rank", "4d", "--rating", "2400")
    arbiter(store, "player", "add", g, "--aga-id", "17452", "--rank", "3k", "--aga-rating", "-3.5")
    arbiter(store, "player", "add", g, "--name", "Sato, Ken", "--rank", "2d")
    done = arbiter(store, "tournament", "update-ratings", g)
    assert done.stdout.splitlines() == [
        "1 Schmidt Anna: rank 4d → 5d, rating 2400 → 2450",
        "2 Abentroth, Nicholas: aga rating -3.5 → -6.9, rank 3k → 6k",
        "3 Sato, Ken: unchanged (no EGD PIN; no AGA id)",
    ]
    assert done.stderr == (
        f"{g}: 2 player(s) updated, 1 unchanged, from egd of 2026-01-01 and aga of 2026-01-01\n"
    )
    rows = json.loads(arbiter(store, "player", "list", g, "-f", "json").stdout)
    assert {r["name"]: r["rank"] for r in rows} == {
        "Schmidt Anna": "5d",
        "Abentroth, Nicholas": "6k",
        "Sato, Ken": "2d",
    }
