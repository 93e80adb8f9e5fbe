"""The director's flow from the foundation issue, through the real command line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pipelines.cli import app

PLAYERS = [
    ("Carlsen, Magnus", 2830, "NOR", "1503014"),
    ("Caruana, Fabiano", 2795, "USA", "2020009"),
    ("Nakamura, Hikaru", 2780, "USA", "2016192"),
    ("Giri, Anish", 2760, "NED", "24116068"),
    ("Firouzja, Alireza", 2750, "FRA", "12573981"),
    ("So, Wesley", 2740, "USA", "5202213"),
]


class Arbiter:
    def __init__(self, store: Path) -> None:
        self.runner = CliRunner()
        self.store = str(store)

    def __call__(self, *args: str, code: int = 0) -> str:
        result = self.runner.invoke(app, ["--store", self.store, *args])
        assert result.exit_code == code, (args, result.output, result.exception)
        return result.stdout

    def err(self, *args: str, code: int = 1) -> str:
        result = self.runner.invoke(app, ["--store", self.store, *args])
        assert result.exit_code == code, (args, result.output)
        assert result.exception is None or isinstance(result.exception, SystemExit)
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1, result.stderr
        return lines[0]


@pytest.fixture
def arbiter(tmp_path: Path) -> Arbiter:
    return Arbiter(tmp_path / "store.duckdb")


def create(arbiter: Arbiter) -> str:
    out = arbiter(
        "tournament",
        "create",
        "--name",
        "Club Championship",
        "--game",
        "chess",
        "--system",
        "roundrobin",
        "--rounds",
        "5",
    )
    tid = out.strip().splitlines()[-1]
    for name, rating, fed, fide in PLAYERS:
        arbiter(
            "player",
            "add",
            tid,
            "--name",
            name,
            "--rating",
            str(rating),
            "--federation",
            fed,
            "--fide-id",
            fide,
        )
    return tid


def pairings(arbiter: Arbiter, tid: str, rnd: int) -> list[dict[str, object]]:
    rows: list[dict[str, object]] = json.loads(
        arbiter("pairings", tid, "--round", str(rnd), "--format", "json")
    )
    return rows


def test_round_one_follows_berger_table(arbiter: Arbiter) -> None:
    tid = create(arbiter)
    assert tid == "club-championship"
    arbiter("pair", tid)
    boards = pairings(arbiter, tid, 1)
    # Berger table, 6 players, round 1: 1-6, 2-5, 3-4 by start rank (rating order).
    got = [(b["white"]["start_rank"], b["black"]["start_rank"]) for b in boards]  # type: ignore[index]
    assert got == [(1, 6), (2, 5), (3, 4)]
    assert boards[0]["white"] == {
        "id": 1, "name": "Carlsen, Magnus", "start_rank": 1, "title": None, "rating": 2830,
        "points_before": 0,
    }  # fmt: skip
    assert boards[0]["result"] is None


def play_round(arbiter: Arbiter, tid: str, rnd: int, results: list[str]) -> None:
    arbiter("pair", tid)
    for board, res in enumerate(results, start=1):
        arbiter("result", tid, str(rnd), str(board), res)


def test_full_flow_with_undo_and_restore(arbiter: Arbiter) -> None:
    tid = create(arbiter)
    play_round(arbiter, tid, 1, ["1-0", "1/2-1/2", "0-1"])
    play_round(arbiter, tid, 2, ["1-0", "0-1", "1/2-1/2"])
    at2 = json.loads(arbiter("standings", tid, "--format", "json"))
    play_round(arbiter, tid, 3, ["1-0", "1-0", "1-0"])
    log_before = arbiter("log", tid, "--format", "json")
    standings_before = arbiter("standings", tid, "--format", "json")

    assert json.loads(arbiter("standings", tid, "--at-round", "2", "--format", "json")) == at2

    arbiter("undo", tid, "--round", "3")
    assert json.loads(arbiter("standings", tid, "--format", "json")) == at2
    assert arbiter.err("pairings", tid, "--round", "3") == (
        f"error: {tid}: round 3 is not paired (last paired round: 2)"
    )
    arbiter("restore", tid)
    assert arbiter("standings", tid, "--format", "json") == standings_before
    log_after = json.loads(arbiter("log", tid, "--format", "json"))
    before = json.loads(log_before)
    strip = [{k: v for k, v in e.items() if k != "position"} for e in before]
    assert [{k: v for k, v in e.items() if k != "position"} for e in log_after] == strip
    # Restored events have new positions: never reused.
    assert log_after[-1]["position"] > before[-1]["position"]


def test_standings_points_and_json_shape(arbiter: Arbiter) -> None:
    tid = create(arbiter)
    play_round(arbiter, tid, 1, ["1-0", "1/2-1/2", "0-1"])
    rows = json.loads(arbiter("standings", tid, "--format", "json"))
    by_name = {r["player"]["name"]: r for r in rows}
    assert by_name["Carlsen, Magnus"]["points"] == 1.0  # 1-6 won by white (1)
    assert by_name["So, Wesley"]["points"] == 0.0
    assert by_name["Nakamura, Hikaru"]["points"] == 0.0  # 3-4 won by black (4)
    assert by_name["Giri, Anish"]["points"] == 1.0
    assert set(rows[0]) == {
        "rank", "player", "rating", "federation", "points", "tiebreaks", "withdrawn_from",
    }  # fmt: skip
    assert set(rows[0]["player"]) == {"id", "name", "start_rank"}
    assert rows[0]["rank"] == 1
    csv_out = arbiter("standings", tid, "--format", "csv")
    assert csv_out.splitlines()[0].startswith("rank,player,rating,federation,points")


def test_user_errors_are_one_line_and_append_nothing(arbiter: Arbiter) -> None:
    tid = create(arbiter)
    log0 = arbiter("log", tid, "--format", "json")
    assert arbiter.err("standings", "nope") == (
        "error: unknown tournament 'nope' (known: club-championship)"
    )
    assert arbiter.err("result", tid, "1", "1", "1-0") == (
        f"error: {tid}: round 1 is not paired yet (last paired round: none)"
    )
    arbiter("pair", tid)
    assert arbiter.err("result", tid, "1", "9", "1-0") == (
        f"error: {tid}: round 1 has no board 9 (boards 1..3)"
    )
    assert arbiter.err("result", tid, "1", "1", "2-0").startswith(
        f"error: {tid}: unknown chess result '2-0'"
    )
    arbiter("result", tid, "1", "1", "1-0")
    assert arbiter.err("pair", tid) == (
        f"error: {tid}: round 1 still lacks results on board(s) 2, 3"
    )
    assert "already has result 1-0" in arbiter.err("result", tid, "1", "1", "0-1")
    assert arbiter.err("player", "add", tid, "--name", "Late, Comer") == (
        f"error: {tid}: a round robin's field is fixed once round 1 is paired"
    )
    log1 = json.loads(arbiter("log", tid, "--format", "json"))
    assert len(log1) == len(json.loads(log0)) + 2  # the pairing and the one good result
    arbiter("result", tid, "1", "1", "0-1", "--correct")
    assert json.loads(arbiter("log", tid, "--format", "json"))[-1]["type"] == "ResultCorrected"


def test_odd_field_gets_a_bye_and_double_round_robin(arbiter: Arbiter) -> None:
    tid = (
        arbiter("tournament", "create", "--name", "Five", "--rounds", "5", "--double")
        .strip()
        .splitlines()[-1]
    )
    for i in range(5):
        arbiter("player", "add", tid, "--name", f"P{i}", "--rating", str(2000 - i))
    seen: dict[frozenset[int], int] = {}
    for rnd in range(1, 11):
        arbiter("pair", tid)
        boards = pairings(arbiter, tid, rnd)
        assert sum(1 for b in boards if b["black"] is None) == 1
        assert boards[-1]["black"] is None  # the bye is listed last
        for b in boards:
            if b["black"] is not None:
                pair = frozenset((b["white"]["id"], b["black"]["id"]))  # type: ignore[index]
                seen[pair] = seen.get(pair, 0) + 1
                arbiter("result", tid, str(rnd), str(b["board"]), "1/2-1/2")
    assert len(seen) == 10
    assert set(seen.values()) == {2}
    assert arbiter.err("pair", tid) == f"error: {tid}: all 10 rounds are paired"


def test_tournament_create_prints_id_last_and_list(arbiter: Arbiter) -> None:
    a = arbiter("tournament", "create", "--name", "Spring Cup").strip().splitlines()[-1]
    b = arbiter("tournament", "create", "--name", "Spring Cup").strip().splitlines()[-1]
    assert (a, b) == ("spring-cup", "spring-cup-2")
    rows = json.loads(arbiter("tournament", "list", "--format", "json"))
    assert [r["id"] for r in rows] == ["spring-cup", "spring-cup-2"]


def test_console_script_runs(tmp_path: Path) -> None:
    exe = Path(sys.executable).parent / "arbiter"
    env = {**os.environ, "ARBITER_STORE": str(tmp_path / "s.duckdb")}
    out = subprocess.run(
        [str(exe), "tournament", "create", "--name", "Réunion Open", "--game", "go"],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stdout.strip().splitlines()[-1] == "reunion-open"
    help_text = subprocess.run(
        [str(exe), "--help"], env=env, capture_output=True, text=True, check=True
    ).stdout
    for command in ("tournament", "player", "pair", "result", "standings", "undo", "restore"):
        assert command in help_text
