"""Team events through the log: every chess/team fixture ingested then paired by ``arbiter
pair`` (the live path), and a team Swiss run end to end with the ``arbiter`` command line."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pipelines.cli import app
from tests.cli.test_director_flow import Arbiter
from tests.conftest import TESTDATA, require_testdata
from tests.teams.installed import run_installed

FIXTURES = sorted(p.stem for p in (TESTDATA / "chess" / "team").glob("team_*.input"))


@pytest.fixture(scope="module")
def ingested(tmp_path_factory: pytest.TempPathFactory) -> Arbiter:
    folder = require_testdata("chess", "team")
    arbiter = Arbiter(tmp_path_factory.mktemp("teams") / "store.duckdb")
    arbiter("ingest", *(str(p) for p in sorted(folder.glob("team_*.input"))))
    return arbiter


def _as_expected_file(rows: list[dict[str, Any]]) -> str:
    lines = [f"{r['white']['number']} {r['black']['number'] if r['black'] else 0}" for r in rows]
    return "\n".join([str(len(lines)), *lines]) + "\n"


@pytest.mark.parametrize("name", FIXTURES or ["<missing corpus>"])
def test_ingested_fixture_pairs_as_expected(ingested: Arbiter, name: str) -> None:
    folder = require_testdata("chess", "team")
    tid = name.replace("_", "-").lower()
    rows = json.loads(ingested("pair", tid, "--format", "json"))
    expected = (folder / f"{name}.output.expected").read_text(encoding="utf-8")
    assert _as_expected_file(rows) == expected


def _standings(arbiter: Arbiter, tid: str) -> list[tuple[int, str, float, float]]:
    rows = json.loads(arbiter("standings", tid, "--format", "json"))
    return [(r["rank"], r["team"]["name"], r["match_points"], r["game_points"]) for r in rows]


def test_team_swiss_run_through_the_command_line(tmp_path: Path) -> None:
    arbiter = Arbiter(tmp_path / "store.duckdb")
    tid = arbiter(
        "tournament", "create", "--name", "Oslo League", "--system", "team-swiss",
        "--rounds", "3", "--boards", "2", "--match-points", "2/1/0",
    ).split()[-1]  # fmt: skip
    assert tid == "oslo-league"
    names = ["SK Oslo", "Bergen SK", "Trondheim", "Stavanger"]
    for team in names:
        arbiter("team", "add", tid, "--name", team, "--federation", "NOR")
        for i in (1, 2, 3):
            arbiter("team", "member", "add", tid, team, "--name", f"{team} {i}", "--rating", "2000")
    # SK Oslo fields its roster boards 2 and 1 in round 1: accepted, flagged
    result = arbiter.runner.invoke(
        app,
        ["--store", arbiter.store, "lineup", tid, "SK Oslo", "--round", "1", "2", "1"],
    )
    assert result.exit_code == 0
    assert "leaves the roster's board order" in result.stderr
    assert "no roster board 9" in arbiter.err("lineup", tid, "Bergen SK", "--round", "1", "9", "1")
    # C.04.6 round 1: top half against bottom half, TPN 1 White (odd TPN: initial colour)
    matches = json.loads(arbiter("pair", tid, "--format", "json"))
    assert [(m["white"]["number"], m["black"]["number"]) for m in matches] == [(1, 3), (4, 2)]
    boards = json.loads(arbiter("pairings", tid, "--format", "json"))
    # board 1 of match 1: SK Oslo's roster board 2 (player 2) with White; board 2 alternates
    assert [(b["board"], b["white"]["id"], b["black"]["id"]) for b in boards] == [
        (1, 2, 7), (2, 8, 1), (3, 10, 4), (4, 5, 11),
    ]  # fmt: skip
    for board, outcome in (("1.1", "1-0"), ("1.2", "1/2-1/2"), ("2.1", "0-1"), ("2.2", "0-1")):
        arbiter("result", tid, "1", board, outcome)
    assert "boards of a match are 1..2" in arbiter.err("result", tid, "1", "1.3", "1-0")
    # by hand: Oslo 1½-½ Trondheim (2 MP), Stavanger 1-1 Bergen (1 MP each), 2/1/0
    assert _standings(arbiter, tid) == [
        (1, "SK Oslo", 2, 1.5), (2, "Bergen SK", 1, 1), (2, "Stavanger", 1, 1),
        (4, "Trondheim", 0, 0.5),
    ]  # fmt: skip
    prizes = json.loads(arbiter("standings", tid, "--players", "--format", "json"))
    assert {(p["board"], p["player"]["name"], p["points"]) for p in prizes} >= {
        (1, "SK Oslo 2", 1.0),
        (2, "SK Oslo 1", 0.5),
        (2, "Stavanger 2", 1.0),
    }
    # the board prizes as a page, like the individual pages: every name escaped and listed
    prizes_page = arbiter("standings", tid, "--players", "--format", "html")
    assert "<th>Board</th>" in prizes_page.replace(' class="name"', "")
    assert all(f">{p['player']['name']}<" in prizes_page for p in prizes)
    second = json.loads(arbiter("pair", tid, "--format", "json"))
    pairs = {frozenset((m["white"]["number"], m["black"]["number"])) for m in second}
    assert not pairs & {frozenset((1, 3)), frozenset((2, 4))}  # no rematch ([C1])
    assert frozenset((1, 2)) in pairs or frozenset((1, 4)) in pairs  # leader meets a 1-MP team
    arbiter("undo", tid, "--round", "2")  # takes the team pairing away with the boards
    assert json.loads(arbiter("pair", tid, "--format", "json")) == second
    log = json.loads(arbiter("log", tid, "--format", "json"))
    assert [e["payload"]["round"] for e in log if e["type"] == "TeamRoundPaired"] == [1, 2]
    html_page = arbiter("standings", tid, "--format", "html")
    assert "<table" in html_page
    assert "SK Oslo" in html_page


def test_team_round_robin_pairs_every_team_once(tmp_path: Path) -> None:
    arbiter = Arbiter(tmp_path / "store.duckdb")
    tid = arbiter(
        "tournament", "create", "--name", "League", "--system", "team-roundrobin",
        "--rounds", "3", "--boards", "1",
    ).split()[-1]  # fmt: skip
    for team in "ABCD":
        arbiter("team", "add", tid, "--name", team)
        arbiter("team", "member", "add", tid, team, "--name", f"{team} 1")
    met: set[frozenset[int]] = set()
    whites: list[int] = []
    for rnd in (1, 2, 3):
        matches = json.loads(arbiter("pair", tid, "--format", "json"))
        for m in matches:
            met.add(frozenset((m["white"]["number"], m["black"]["number"])))
            whites.append(m["white"]["number"])
            arbiter("result", tid, str(rnd), f"{m['match']}.1", "1/2-1/2")
    assert len(met) == 6  # everyone met everyone
    assert sorted(whites[:2]) != sorted(whites[2:4])  # board-1 colours alternate (Berger)


_cli = run_installed


def test_team_event_in_a_subprocess(tmp_path: Path) -> None:
    """Ingest a team file, pair it, enter results as match.board, read the standings."""
    source = require_testdata("chess", "team", "team_round1.input")
    store = tmp_path / "store.duckdb"
    _cli(store, "ingest", str(source))
    shown = [line.split() for line in _cli(store, "pair", "team-round1").splitlines()[1:]]
    assert shown == [["1", "Alpha", "Charlie"], ["2", "Delta", "Bravo"]]
    script = tmp_path / "results.txt"  # the four results in one `arbiter batch`
    script.write_text(
        "".join(
            f"result team-round1 1 {board} {outcome}\n"
            for board, outcome in (
                ("1.1", "1-0"),
                ("1.2", "1/2-1/2"),
                ("2.1", "0-1"),
                ("2.2", "0-1"),
            )
        ),
        encoding="utf-8",
    )
    _cli(store, "batch", str(script))
    rows = json.loads(_cli(store, "standings", "team-round1", "--format", "json"))
    # by hand (board colours WB): Alpha 1½-½ Charlie; Delta 1-1 Bravo; match points 2/1/0
    assert [(r["rank"], r["team"]["name"], r["match_points"], r["game_points"]) for r in rows] == [
        (1, "Alpha", 2, 1.5), (2, "Bravo", 1, 1), (2, "Delta", 1, 1), (4, "Charlie", 0, 0.5),
    ]  # fmt: skip


def test_greek_team_event_standings_through_the_log(tmp_path: Path) -> None:
    """The Friendship Cup ingested, standings from the log: published MP, BH:MP and rank order
    (test_team_standings_greek.py compares every figure)."""
    from tests.teams.test_team_standings_greek import PUBLISHED

    source = require_testdata("chess", "real", "heltour_friendship_cup_2024_heraklion_team.trf")
    store = tmp_path / "store.duckdb"
    _cli(store, "ingest", str(source))
    rows = json.loads(
        _cli(store, "standings", "heltour-friendship-cup-2024-heraklion-team", "--format", "json")
    )
    assert [(r["team"]["name"], r["match_points"], r["tiebreaks"]["BH:MP"]) for r in rows] == [
        (name, mp, bh) for name, _, _, _, mp, _, _, bh in PUBLISHED
    ]


def test_team_bye_forbidden_pair_and_forfeited_match(tmp_path: Path) -> None:
    arbiter = Arbiter(tmp_path / "store.duckdb")
    tid = arbiter(
        "tournament", "create", "--name", "Cup", "--system", "team-swiss", "--rounds", "3",
        "--boards", "2",
    ).split()[-1]  # fmt: skip
    for team in ("A", "B", "C", "D"):
        arbiter("team", "add", tid, "--name", team)
        for i in (1, 2):
            arbiter("team", "member", "add", tid, team, "--name", f"{team} {i}")
    arbiter("team", "bye", tid, "D", "1", "--kind", "half")
    arbiter("team", "forbid", tid, "A", "B", "--to", "1")
    rows = json.loads(arbiter("pair", tid, "--format", "json"))
    # D asked for a bye; A-B may not meet in round 1: A meets C, B gets the PAB (C.04.6 3.4:
    # lowest score, then largest TPN, among those leaving a legal pairing)
    assert [(r["white"]["number"], (r["black"] or {}).get("number")) for r in rows] == [
        (1, 3), (2, None),
    ]  # fmt: skip
    arbiter("team", "forfeit", tid, "1", "1", "black")  # C wins match 1 by forfeit
    table = {
        r["team"]["name"]: (r["match_points"], r["game_points"], r["played"])
        for r in json.loads(arbiter("standings", tid, "--format", "json"))
    }
    # 2/1/0; forfeit win: every board won (2 GP); PAB: a drawn match (1 MP, 2 × ½ GP);
    # a half-point bye: a drawn match's match point, no games
    assert table == {"C": (2, 2, 1), "A": (0, 0, 1), "B": (1, 1, 0), "D": (1, 0, 0)}
    assert "bad forfeit" in arbiter.err("team", "forfeit", tid, "1", "1", "1-0")


def test_crosstable_by_teams(tmp_path: Path) -> None:
    source = require_testdata("chess", "real", "heltour_friendship_cup_2024_heraklion_team.trf")
    arbiter = Arbiter(tmp_path / "store.duckdb")
    arbiter("ingest", str(source))
    tid = "heltour-friendship-cup-2024-heraklion-team"
    rows = json.loads(arbiter("crosstable", tid, "--format", "json"))
    assert [r["rank"] for r in rows] == list(range(1, 16))
    by_number = {r["number"]: r for r in rows}
    for row in rows:
        assert sum(c["game_points"] for c in row["rounds"]) == row["game_points"]
        for cell in row["rounds"]:
            if cell["opponent"] is None:
                assert cell["result"] == "U"  # 15 teams: the PAB
                assert cell["game_points"] == 3  # a drawn match on 6 boards
                continue
            theirs = by_number[cell["opponent"]]["rounds"][cell["round"] - 1]
            assert theirs["opponent"] == row["number"]
            assert cell["game_points"] + theirs["game_points"] <= 6
            assert {cell["colour"], theirs["colour"]} == {"w", "b"}
    page = arbiter("crosstable", tid, "--format", "html")
    assert page.count("<tr") == 16  # header and 15 teams
