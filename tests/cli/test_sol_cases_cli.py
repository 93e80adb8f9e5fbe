"""Every SoL 5.26 reference run (carrom/sol/cases) driven through the `arbiter` command line.

Every case runs as one `arbiter batch` script (the director's commands, one a line, in one
process: start-up is most of a command's cost); three cases, one per system, also run
command by command, one process each. Per case, as a director would: `tournament create`
with the case's settings (system, SoL method, delays, phantom score, the draw seed of the
unrated first round), `player import` of the field (nationality, rating, seed position),
then round by round `pair` (compared board by board with SoL's pairing) and
`results --file` with SoL's scores; at the end, for every round, `standings --at-round`
must give SoL's ranking after that round (`ranking_after`): the order, and every value of its
four columns (points, bucholz, net and total score), each case's own ranking chain (a knockout
ranks by points and seed, its three columns shown) and all three columns asked for.
``rr_seeds_6`` must refuse the round SoL refused. Besides the shared cases, two 64-player
knockouts run through SoL 5.26 itself (tests/data/sol, README there).
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
OURS = Path(__file__).parent.parent / "data" / "sol"
SHARED = sorted(p.stem for p in ROOT.glob("*.json")) if ROOT.exists() else ["missing"]
CASES = SHARED + sorted(p.stem for p in OURS.glob("*.json"))
ONE_BY_ONE = ["serial_7", "rr_circle_6", "ko_seeds_8"]
COLUMNS = ("bucholz", "netscore", "totscore")
TIEBREAKS = {"swiss": COLUMNS, "roundrobin": ("netscore", "totscore"), "knockout": COLUMNS}


def _load(name: str) -> dict[str, Any]:
    ours = OURS / f"{name}.json"
    path = ours if ours.exists() else require_testdata("carrom", "sol", "cases", f"{name}.json")
    data: dict[str, Any] = json.loads(path.read_text())
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


def _check_ranking(
    name: str, rnd: dict[str, Any], table: list[dict[str, Any]], columns: tuple[str, ...]
) -> None:
    """Our standings (with these columns) against SoL's ranking after the round ``rnd``."""
    ours = [
        (row["player"]["id"], row["points"], *(row["tiebreaks"][c.upper()] for c in columns))
        for row in table
    ]
    theirs = [
        (row["id"], float(row["points"]), *(float(row[c]) for c in columns))
        for row in rnd["ranking_after"]
    ]
    assert ours == theirs, f"{name}: ranking after round {rnd['round']}"


def _check_values(name: str, rnd: dict[str, Any], table: list[dict[str, Any]]) -> None:
    """Every value of SoL's four columns, player by player (whatever the order)."""
    ours = {
        row["player"]["id"]: (row["points"], *(row["tiebreaks"][c.upper()] for c in COLUMNS))
        for row in table
    }
    theirs = {
        row["id"]: tuple(float(row[c]) for c in ("points", *COLUMNS))
        for row in rnd["ranking_after"]
    }
    assert ours == theirs, f"{name}: the four columns after round {rnd['round']}"


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
    every = ",".join(c.upper() for c in COLUMNS)
    for rnd in data["rounds"]:
        lines.append(f"standings {tid} --at-round {rnd['round']} --format json")
        lines.append(f"standings {tid} --at-round {rnd['round']} --tiebreaks {every} --format json")
    if data["stopped"]:
        lines.append(f"pair {tid}")
    script = tmp_path / "event.txt"
    script.write_text("\n".join(lines) + "\n")
    done = Cli(tmp_path / "store.duckdb").run("batch", str(script))
    outputs = json_outputs(done.out)
    rounds = len(data["rounds"])
    assert len(outputs) == 3 * rounds, done.err
    pairings, tables = outputs[:rounds], outputs[rounds:]
    for rnd, rows in zip(data["rounds"], pairings, strict=True):
        assert _boards(rows) == _expected(rnd), f"{name} round {rnd['round']}"
    columns = TIEBREAKS[data["settings"]["system"]]
    for i, rnd in enumerate(data["rounds"]):
        _check_ranking(name, rnd, tables[2 * i], columns)
        _check_values(name, rnd, tables[2 * i + 1])
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
    last = data["rounds"][-1]
    _check_ranking(name, last, cli.json("standings", tid), TIEBREAKS[data["settings"]["system"]])


def test_every_reference_case_is_listed() -> None:
    root = require_testdata("carrom", "sol", "cases")
    assert sorted(p.stem for p in root.glob("*.json")) == SHARED
    assert len(SHARED) == 34
    assert CASES[34:] == ["ko_seeds_64", "ko_seeds_64_rating"]
