"""Every SoL 5.26 reference run (carrom/sol/cases) driven through the `arbiter` command line.

Per case, as a director would: `tournament create` with the case's settings (system, SoL
method, delays, phantom score, the draw seed of the unrated first round), `player import`
of the field (nationality, rating, seed position), then round by round `pair` (compared
board by board with SoL's pairing) and `results --file` with SoL's scores; at the end
`standings` must give SoL's ranking (order, points, bucholz, net and total score).
``rr_seeds_6`` must refuse the round SoL refused.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import pytest

from tests.cli.games_cli import Cli
from tests.conftest import TESTDATA, require_testdata

ROOT = TESTDATA / "carrom" / "sol" / "cases"
CASES = sorted(p.stem for p in ROOT.glob("*.json")) if ROOT.exists() else ["missing"]
TIEBREAKS = {"swiss": ("bucholz", "netscore", "totscore"), "roundrobin": ("netscore", "totscore")}


def _create(cli: Cli, data: dict[str, Any], tmp: Path) -> str:
    s = data["settings"]
    rounds = len(data["rounds"]) + (1 if data["stopped"] else 0)
    tid = cli(
        "tournament", "create", "--name", data["case"], "--game", "carrom",
        "--system", s["system"], "--rounds", str(rounds), "--pairing", s["couplings"],
        "--delay-top-players", str(s["delaytoppairing"]),
        "--delay-compatriots", str(s["delaycompatriotpairing"]),
        "--phantom-score", str(s["phantomscore"]), "--draw-seed", str(s["seed"]),
    ).split()[-1]  # fmt: skip
    players = tmp / "players.csv"
    with players.open("w", newline="") as f:
        out = csv.writer(f)
        out.writerow(["name", "federation", "rating", "seed"])
        for c in data["competitors"]:
            first, last = c["name"].split(" ", 1)
            out.writerow(
                [f"{last}, {first}", c["nationality"], c["rating"] or "", c["position"] or ""]
            )
    ids = cli("player", "import", tid, str(players)).split()
    assert ids == [str(c["id"]) for c in data["competitors"]]
    return tid


@pytest.mark.golden
@pytest.mark.slow
@pytest.mark.parametrize("name", CASES)
def test_sol_case_through_the_command_line(name: str, tmp_path: Path) -> None:
    data = json.loads(require_testdata("carrom", "sol", "cases", f"{name}.json").read_text())
    cli = Cli(tmp_path / "store.duckdb")
    tid = _create(cli, data, tmp_path)
    for rnd in data["rounds"]:
        r = rnd["round"]
        got = [
            (b["board"], b["white"]["id"], b["black"]["id"] if b["black"] else None)
            for b in cli.json("pair", tid)
        ]
        expected = [
            (p["board"], p["competitor1"], p["competitor2"])
            for p in sorted(rnd["pairings"], key=lambda p: p["board"])
        ]
        assert got == expected, f"{name} round {r}"
        sheet = tmp_path / f"results{r}.txt"
        sheet.write_text(
            "".join(
                f"{m['board']} {m['score1']}-{m['score2']}\n"
                for m in rnd["results"]
                if m["competitor2"] is not None
            )
        )
        cli("results", tid, "--round", str(r), "--file", str(sheet))
    if data["stopped"]:
        assert "no more possible combinations" in cli.refused("pair", tid)
    table = cli.json("standings", tid)
    columns = TIEBREAKS.get(data["settings"]["system"], ())
    ours = [
        (row["player"]["id"], row["points"], *(row["tiebreaks"][c.upper()] for c in columns))
        for row in table
    ]
    theirs = [
        (row["id"], float(row["points"]), *(float(row[c]) for c in columns))
        for row in data["rounds"][-1]["ranking_after"]
    ]
    assert ours == theirs, f"{name}: ranking after the last round"


def test_every_reference_case_is_listed() -> None:
    root = require_testdata("carrom", "sol", "cases")
    assert sorted(p.stem for p in root.glob("*.json")) == CASES
    assert len(CASES) == 34
