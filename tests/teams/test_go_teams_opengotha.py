"""Go team events from OpenGotha XML: ``arbiter ingest`` takes ``<Teams>`` (rosters, board
order per round) into the log beside the games, and ``arbiter standings --format json`` ranks
the teams.

The expectation is read from the file itself, independently of arbiter's aggregation: the
``<Board>`` seating of each round and the ``<Game>`` results give every match (the games of two
teams' members in a round) and OpenGotha's team points (2/1/0 by board wins, ``TEAMP``) and
board wins (``BDW``). The file states no team result, so the figures are what OpenGotha computes
from it by its documented rule; its placement criteria order the ranking (TEAMP, then BDW).
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections import defaultdict
from pathlib import Path

from tests.conftest import require_testdata
from tests.teams.installed import run_installed

_WINS = {"RESULT_WHITEWINS": (1.0, 0.0), "RESULT_BLACKWINS": (0.0, 1.0), "RESULT_EQUAL": (0.5, 0.5)}


def opengotha_team_table(path: Path) -> dict[str, tuple[int, float, int]]:
    """Team name → (team points, board wins, matches) by OpenGotha's rule, from the XML."""
    root = ET.parse(path).getroot()
    seat: dict[tuple[int, str], tuple[str, int]] = {}
    for node in root.iter("Team"):
        for b in node.iter("Board"):
            seat[(int(b.get("roundNumber", 0)), b.get("player", ""))] = (
                node.get("teamName", ""),
                int(b.get("boardNumber", 0)),
            )
    wins: dict[tuple[int, str, str], float] = defaultdict(float)
    for g in root.iter("Game"):
        r = int(g.get("roundNumber", 0))
        white, black = (
            seat.get((r, g.get("whitePlayer", ""))),
            seat.get((r, g.get("blackPlayer", ""))),
        )
        if white is None or black is None:
            continue
        assert white[1] == black[1], "the file seats a match's players on the same board"
        white_wins, black_wins = _WINS[g.get("result", "")]
        wins[(r, white[0], black[0])] += white_wins
        wins[(r, black[0], white[0])] += black_wins
    table: dict[str, tuple[int, float, int]] = {
        t.get("teamName", ""): (0, 0.0, 0) for t in root.iter("Team")
    }
    for (rnd, team, other), mine in wins.items():
        theirs = wins[(rnd, other, team)]
        points = 2 if mine > theirs else 1 if mine == theirs else 0
        tp, bdw, n = table[str(team)]
        table[team] = (tp + points, bdw + mine, n + 1)
    return table


_cli = run_installed


def test_team_egc_2013_standings_from_the_file(tmp_path: Path) -> None:
    source = require_testdata("go", "opengotha-rgf", "TeamEGC2013.xml")
    store = tmp_path / "store.duckdb"
    _cli(store, "ingest", str(source))
    rows = json.loads(_cli(store, "standings", "teamegc2013", "--format", "json"))
    expected = opengotha_team_table(source)
    assert len(rows) == len(expected) == 35
    got = {r["team"]["name"]: (r["match_points"], r["game_points"], r["played"]) for r in rows}
    assert got == expected
    keys = [(r["match_points"], r["game_points"]) for r in rows]
    assert keys == sorted(keys, reverse=True)  # TEAMP, then BDW (the file's criteria 1 and 2)
    assert (rows[0]["team"]["name"], rows[0]["match_points"]) == ("Wampiry", 12)


def test_team_egc_2013_rosters_and_crosstable(tmp_path: Path) -> None:
    """Board order: the first team of the file, "Get strong", seats Ismail-Akhunov, Popova,
    Novik on boards 1-3 in every round; the crosstable by teams pairs opponents both ways."""
    source = require_testdata("go", "opengotha-rgf", "TeamEGC2013.xml")
    store = tmp_path / "store.duckdb"
    _cli(store, "ingest", str(source))
    prizes = json.loads(_cli(store, "standings", "teamegc2013", "--players", "--format", "json"))
    boards = {p["board"]: p["player"]["name"] for p in prizes if p["team"] == "Get strong"}
    assert [boards[b].split(",")[0] for b in (1, 2, 3)] == ["Ismail-Akhunov", "Popova", "Novik"]
    table = json.loads(_cli(store, "crosstable", "teamegc2013", "--format", "json"))
    opponent = {(r["number"], x["round"]): x["opponent"] for r in table for x in r["rounds"]}
    for (team, rnd), other in opponent.items():
        if other is not None:
            assert opponent[(other, rnd)] == team
