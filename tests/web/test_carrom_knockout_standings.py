"""A carrom knockout's standings on the HTTP API are SoL's ranking (issue 44).

A 64-player knockout run through SoL 5.26 itself (tests/data/sol/ko_seeds_64.json, README
there) is entered through `arbiter batch` as a director would (create, import, pair and results
round by round); a real `arbiter serve` then answers `GET /api/tournaments/T/standings` with
SoL's final ranking: its order (points, then seed position), and each player's points, bucholz,
net and total score as SoL's columns give them.
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import httpx

from tests.cli.test_sol_cases_cli import _create_args, _players_csv, _results_sheet
from tests.web.serving import cli, serve

CASE = Path(__file__).parent.parent / "data" / "sol" / "ko_seeds_64.json"


def test_the_api_ranks_a_carrom_knockout_as_sol(tmp_path: Path) -> None:
    data = json.loads(CASE.read_text())
    tid = "ko-seeds-64"
    lines = [
        shlex.join(_create_args(data)),
        shlex.join(["player", "import", tid, str(_players_csv(data, tmp_path))]),
    ]
    for rnd in data["rounds"]:
        lines.append(f"pair {tid}")
        sheet = _results_sheet(rnd, tmp_path)
        lines.append(f"results {tid} --round {rnd['round']} --file {shlex.quote(str(sheet))}")
    script = tmp_path / "event.txt"
    script.write_text("\n".join(lines) + "\n")
    store = str(tmp_path / "store.duckdb")
    cli(store, "batch", str(script))
    server = serve(store, tmp_path)
    try:
        rows = httpx.get(f"{server.url}/api/tournaments/{tid}/standings", timeout=30).json()
    finally:
        server.stop()
    columns = ("BUCHOLZ", "NETSCORE", "TOTSCORE")
    ours = [
        (r["rank"], r["player"]["id"], r["points"], *(r["tiebreaks"][c] for c in columns))
        for r in rows
    ]
    theirs = [
        (r["rank"], r["id"], *(float(r[c]) for c in ("points", "bucholz", "netscore", "totscore")))
        for r in data["rounds"][-1]["ranking_after"]
    ]
    assert ours == theirs
