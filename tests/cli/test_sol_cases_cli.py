"""Every SoL 5.26 reference run (carrom/sol/cases) driven through the `arbiter` command line.

Every case runs as one `arbiter batch` script (the director's commands, one a line, in one
process: start-up is most of a command's cost); three cases, one per system, also run
command by command, one process each. Per case, as a director would: `tournament create`
with the case's settings (system, SoL method, delays, phantom score, the draw seed of the
unrated first round), `player import` of the field (nationality, rating, seed position),
then round by round `pair` (compared board by board with SoL's pairing) and
`results --file` with SoL's scores; at the end
`standings` must give SoL's ranking (order, points, bucholz, net and total score).
``rr_seeds_6`` must refuse the round SoL refused.
"""

from __future__ import annotations

import csv
import json
import shlex
from pathlib import Path
from typing import Any

import pytest

from tests.cli.games_cli import Cli, json_outputs
from tests.conftest import TESTDATA, require_testdata

ROOT = TESTDATA / "carrom" / "sol" / "cases"
CASES = sorted(p.stem for p in ROOT.glob("*.json")) if ROOT.exists() else ["missing"]
ONE_BY_ONE = ["serial_7", "rr_circle_6", "ko_seeds_8"]
TIEBREAKS = {"swiss": ("bucholz", "netscore", "totscore"), "roundrobin": ("netscore", "totscore")}


def _load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(
        require_testdata("carrom", "sol", "cases", f"{name}.json").read_text()
    )
    return data


def _create_args(data: dict[str, Any]) -> list[str]:
    s = data["settings"]
    rounds = len(data["rounds"]) + (1 if data["stopped"] else 0)
    return [
        "tournament", "create", "--name", data["case"], "--game", "carrom",
        "--system", s["system"], "--rounds", str(rounds), "--pairing", s["couplings"],
        "--delay-top-players", str(s["delaytoppairing"]),
        "--delay-compatriots", str(s["delaycompatriotpairing"]),
        "--phantom-score", str(s["phantomscore"]), "--draw-seed", str(s["seed"]),
    ]  # fmt: skip


def _players_csv(data: dict[str, Any], tmp: Path) -> Path:
    players = tmp / "players.csv"
    with players.open("w", newline="") as f:
        out = csv.writer(f)
        out.writerow(["name", "federation", "rating", "seed"])
        for c in data["competitors"]:
            first, last = c["name"].split(" ", 1)
            out.writerow(
                [f"{last}, {first}", c["nationality"], c["rating"] or "", c["position"] or ""]
            )
    return players


def _results_sheet(rnd: dict[str, Any], tmp: Path) -> Path:
    sheet = tmp / f"results{rnd['round']}.txt"
    sheet.write_text(
        "".join(
            f"{m['board']} {m['score1']}-{m['score2']}\n"
            for m in rnd["results"]
            if m["competitor2"] is not None
        )
    )
    return sheet


def _boards(rows: list[dict[str, Any]]) -> list[tuple[int, int, int | None]]:
    return [(b["board"], b["white"]["id"], b["black"]["id"] if b["black"] else None) for b in rows]


def _expected(rnd: dict[str, Any]) -> list[tuple[int, int, int | None]]:
    return [
        (p["board"], p["competitor1"], p["competitor2"])
        for p in sorted(rnd["pairings"], key=lambda p: p["board"])
    ]


def _check_ranking(name: str, data: dict[str, Any], table: list[dict[str, Any]]) -> None:
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


def _check_knockout_scores(name: str, data: dict[str, Any], table: list[dict[str, Any]]) -> None:
    """A knockout ranks by the bracket, but SoL still shows each player's net and total score:
    of every match the player played, the rounds they won and the one they lost (the files'
    ``ranking_after`` values are those sums in every round of every knockout case)."""
    ours = {
        row["player"]["id"]: (row["tiebreaks"]["NETSCORE"], row["tiebreaks"]["TOTSCORE"])
        for row in table
    }
    theirs = {
        row["id"]: (float(row["netscore"]), float(row["totscore"]))
        for row in data["rounds"][-1]["ranking_after"]
    }
    assert ours == theirs, f"{name}: net and total scores after the last round"


@pytest.mark.golden
@pytest.mark.parametrize("name", CASES)
def test_sol_case_as_one_batch(name: str, tmp_path: Path) -> None:
    data = _load(name)
    tid = data["case"].replace("_", "-")
    lines = [
        shlex.join(_create_args(data)),
        shlex.join(["player", "import", tid, str(_players_csv(data, tmp_path))]),
    ]
    for rnd in data["rounds"]:
        sheet = _results_sheet(rnd, tmp_path)
        lines.append(f"pair {tid} --format json")
        lines.append(f"results {tid} --round {rnd['round']} --file {shlex.quote(str(sheet))}")
    lines.append(f"standings {tid} --format json")
    knockout = data["settings"]["system"] == "knockout"
    if knockout:
        lines.append(f"standings {tid} --tiebreaks NETSCORE,TOTSCORE --format json")
    if data["stopped"]:
        lines.append(f"pair {tid}")
    script = tmp_path / "event.txt"
    script.write_text("\n".join(lines) + "\n")
    done = Cli(tmp_path / "store.duckdb").run("batch", str(script))
    outputs = json_outputs(done.out)
    scores = outputs.pop() if knockout else None
    *pairings, table = outputs
    if scores is not None:
        _check_knockout_scores(name, data, scores)
    for rnd, rows in zip(data["rounds"], pairings, strict=False):
        assert _boards(rows) == _expected(rnd), f"{name} round {rnd['round']}"
    assert len(pairings) == len(data["rounds"]), done.err
    _check_ranking(name, data, table)
    if data["stopped"]:
        assert done.code == 1
        assert "no more possible combinations" in done.err
        assert done.err.strip().splitlines()[-1].startswith(f"{script}:{len(lines)}: stopped")
    else:
        assert done.code == 0, done.err


@pytest.mark.golden
@pytest.mark.parametrize("name", ONE_BY_ONE)
def test_sol_case_command_by_command(name: str, tmp_path: Path) -> None:
    data = _load(name)
    cli = Cli(tmp_path / "store.duckdb")
    tid = cli(*_create_args(data)).split()[-1]
    ids = cli("player", "import", tid, str(_players_csv(data, tmp_path))).split()
    assert ids == [str(c["id"]) for c in data["competitors"]]
    for rnd in data["rounds"]:
        assert _boards(cli.json("pair", tid)) == _expected(rnd), f"{name} round {rnd['round']}"
        cli(
            "results",
            tid,
            "--round",
            str(rnd["round"]),
            "--file",
            str(_results_sheet(rnd, tmp_path)),
        )
    _check_ranking(name, data, cli.json("standings", tid))


def test_every_reference_case_is_listed() -> None:
    root = require_testdata("carrom", "sol", "cases")
    assert sorted(p.stem for p in root.glob("*.json")) == CASES
    assert len(CASES) == 34
