""" "Unrated" means one thing on the FIDE side, through the CLI: once a FIDE list is imported, a
player who is not on the list in force is FIDE-unrated, whatever rating was typed for him
(docs/fide_ratings.md). A 6-player round robin of five list players and a newcomer entered
three ways (`--rating 0`, no rating, `--fide-id N --not-on-list --rating 1800`): the five get
the same new ratings from `ratings run --method fide`, each one's `standings --rating-change`
change is the run's new rating minus his list rating, and `norms` counts the newcomer as an
unrated opponent (1400, B.01 1.4.6).

The expected ratings are worked by hand from the FIDE Rating Regulations effective 1 March 2024
(handbook B.02, with the 1 October 2025 amendment to 8.3.1); table 8.1.2 gives PD for the
higher (H) and lower (L) rated player.

List of 1 November 2025 (rating, K): A 2000 K20, B 1900 K20, C 1800 K40, D 1700 K20,
E 1600 K40; U is on no list. Results (row player's score):

    .   A   B   C   D   E   U
    A   -   ½   1   1   1   1
    B   ½   -   1   0   1   0
    C   0   0   -   ½   1   0
    D   0   1   ½   -   0   1
    E   0   0   0   1   -   0
    U   0   1   1   0   1   -

8.3.1 rates a player's games "played against a rated player" only: the games against U count
for nobody on the list. Each list player's four games (D = own − opponent, capped at 400):

    A 2000: B D100 H.64 ½ → −.14; C D200 .76 1 → +.24; D D300 .85 1 → +.15;
            E D400 .92 1 → +.08; Σ +.33, K20 → +6.60 → +7 → 2007
    B 1900: A D−100 L.36 ½ → +.14; C D100 .64 1 → +.36; D D200 .76 0 → −.76;
            E D300 .85 1 → +.15; Σ −.11, K20 → −2.20 → −2 → 1898
    C 1800: A L.24 0 → −.24; B L.36 0 → −.36; D D100 .64 ½ → −.14; E D200 .76 1 → +.24;
            Σ −.50, K40 → −20.00 → −20 → 1780
    D 1700: A L.15 0 → −.15; B L.24 1 → +.76; C L.36 ½ → +.14; E D100 .64 0 → −.64;
            Σ +.11, K20 → +2.20 → +2 → 1702
    E 1600: A L.08 0 → −.08; B L.15 0 → −.15; C L.24 0 → −.24; D L.36 1 → +.64;
            Σ +.17, K40 → +6.80 → +7 → 1607

(n·K ≤ 700 everywhere; 8.3.4 rounds the period's change once, .5 away from zero.)

U's first rating (8.2, the 2024 rule): 3 of 5 against 2000, 1900, 1800, 1700, 1600 with two
hypothetical 1800 opponents, both drawn: Ra = (9000 + 3600)/7 = 1800, p = 4/7 = .57 → dp 50
(table 8.1.1), Ru = 1850 (at least 5 games, 7.1.4; at most 2200, at least 1400).

Were U rated 1800 (the typed rating taken as FIDE's), A would also count +.24 against him
(D200 .76, 1) and B −.36: the new ratings would differ, which this test would see.
"""

from __future__ import annotations

import csv
import shlex
from pathlib import Path
from typing import Any

import pytest

from tests.cli.games_cli import json_outputs
from tests.cli.list_files import fide_xml
from tests.cli.test_rating_list_import_cli import arbiter

LIST = {"A": (30000001, 2000, 20), "B": (30000002, 1900, 20), "C": (30000003, 1800, 40),
        "D": (30000004, 1700, 20), "E": (30000005, 1600, 40)}  # fmt: skip
SCORES = {
    ("A", "B"): 0.5, ("A", "C"): 1.0, ("A", "D"): 1.0, ("A", "E"): 1.0, ("A", "U"): 1.0,
    ("B", "C"): 1.0, ("B", "D"): 0.0, ("B", "E"): 1.0, ("B", "U"): 0.0,
    ("C", "D"): 0.5, ("C", "E"): 1.0, ("C", "U"): 0.0,
    ("D", "E"): 0.0, ("D", "U"): 1.0,
    ("E", "U"): 0.0,
}  # fmt: skip
"""The row player's score against the column player (module docstring's table)."""
EXPECTED = {"A": 2007, "B": 1898, "C": 1780, "D": 1702, "E": 1607}
"""Worked by hand in the module docstring."""
NEWCOMER = ("--name", "New, Ann")
VARIANTS = {
    "rating 0": (*NEWCOMER, "--rating", "0"),
    "no rating": NEWCOMER,
    "not on the list, national 1800": (*NEWCOMER, "--fide-id", "39999999", "--not-on-list",
                                       "--rating", "1800"),
}  # fmt: skip
_RESULT = {1.0: "1-0", 0.5: "1/2-1/2", 0.0: "0-1"}


def _score(white: str, black: str) -> float:
    if (white, black) in SCORES:
        return SCORES[white, black]
    return 1.0 - SCORES[black, white]


def _batch(store: Path, script: Path, lines: list[list[str]]) -> list[Any]:
    """``lines`` run in order in one `arbiter batch` (one process: no test here is about a
    single call); the JSON documents they printed."""
    script.write_text("".join(shlex.join(line) + "\n" for line in lines), encoding="utf-8")
    return json_outputs(arbiter(store, "batch", str(script)).stdout)


def _round_robin(tmp_path: Path, newcomer: tuple[str, ...]) -> tuple[Path, list[list[str]]]:
    """The list imported, the six players registered (the newcomer last), five rounds paired
    and played; the last round's results not yet entered: the store and the command that
    enters them."""
    store = tmp_path / "arbiter.duckdb"
    rows = [
        {"fideid": i, "name": f"Player {key}", "country": "USA", "sex": "M", "rating": r,
         "k": k, "games": 0, "birthday": 1980}
        for key, (i, r, k) in LIST.items()
    ]  # fmt: skip
    lines = [
        ["store", "init"],
        ["ratings", "import", str(fide_xml(tmp_path / "nov.xml", rows)), "--date", "2025-11-01"],
        ["tournament", "create", "--name", "RR", "--id", "rr", "--game", "chess",
         "--system", "roundrobin", "--rating-type", "standard", "--start", "2025-11-10",
         "--end", "2025-11-14"],
        *(["player", "add", "rr", "--fide-id", str(fide_id)] for fide_id, _, _ in LIST.values()),
        ["player", "add", "rr", *newcomer],
    ]  # fmt: skip
    keys = dict(enumerate([*LIST, "U"], start=1))
    results: list[list[str]] = []
    for rnd in range(1, 6):
        # Each round's pairing printed in the batch that enters the round before's results.
        pair = ["pair", "rr", "-f", "json"]
        (boards,) = _batch(store, tmp_path / f"batch-{rnd}.txt", [*lines, *results, pair])
        lines = []
        sheet = tmp_path / f"round-{rnd}.txt"
        sheet.write_text(
            "".join(
                f"{b['board']} {_RESULT[_score(keys[b['white']['id']], keys[b['black']['id']])]}\n"
                for b in boards
                if b["black"] is not None
            )
        )
        results = [["results", "rr", "--round", str(rnd), "--file", str(sheet)]]
    return store, results


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_the_list_players_do_not_see_how_the_newcomer_was_entered(
    tmp_path: Path, variant: str
) -> None:
    store, last_results = _round_robin(tmp_path, VARIANTS[variant])
    # The last results, `ratings run --method fide`, `standings --rating-change` and `norms`
    # in one batch.
    out = tmp_path / "out"
    run = ["ratings", "run", "--method", "fide", "--as-of", "2025-12-01", "-o", str(out)]
    standings, norms = _batch(store, tmp_path / "views.txt", [
        *last_results, run, ["standings", "rr", "--rating-change", "-f", "json"],
        ["norms", "rr", "-f", "json"],
    ])  # fmt: skip
    with out.joinpath("ratings.csv").open(encoding="utf-8") as f:
        listing = {row["name"]: row for row in csv.DictReader(f)}
    changes = {r["player"]["name"]: r for r in standings}
    for key, (_, before, k) in LIST.items():
        name = f"Player {key}"
        assert int(listing[name]["rating"]) == EXPECTED[key], (variant, key)
        mine = changes[name]
        assert (mine["Ro"], mine["K"], mine["games"]) == (before, k, 4), (variant, key)
        assert mine["change"] == int(listing[name]["rating"]) - before, (variant, key)
    # The newcomer: unrated in both views, his first rating 1850 from his five games (8.2).
    newcomer = changes["New, Ann"]
    assert newcomer["Ro"] is None
    assert newcomer["status"] == "initial"
    assert int(listing["New, Ann"]["rating"]) == 1850
    # Norms read the same ratings: B.01 1.4.6 counts an unrated opponent as 1400, never as 0
    # (nor as the 1800 typed): A's opponents 1900 + 1800 + 1700 + 1600 + 1400 = 8400 / 5.
    by_name = {r["player"]["name"]: r for r in norms}
    assert by_name["Player A"]["opponents"]["average"] == 1680
    assert by_name["New, Ann"]["rating"] is None
