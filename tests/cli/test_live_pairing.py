"""Swiss (Dutch) and Mac-Mahon rounds paired from the live log through the CLI."""

from __future__ import annotations

import json
from itertools import pairwise
from pathlib import Path
from typing import Any

from pipelines.cli import app
from tests.cli.test_director_flow import Arbiter


def boards(arbiter: Arbiter, tid: str, rnd: int) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = json.loads(
        arbiter("pairings", tid, "--round", str(rnd), "--format", "json")
    )
    return rows


def ids(board: dict[str, object]) -> tuple[int, int | None]:
    white = board["white"]
    black = board["black"]
    assert isinstance(white, dict)
    return white["id"], (black["id"] if isinstance(black, dict) else None)


def test_dutch_tournament_runs_from_the_log(tmp_path: Path) -> None:
    arbiter = Arbiter(tmp_path / "s.duckdb")
    tid = arbiter(
        "tournament", "create", "--name", "Spring Open", "--system", "dutch", "--rounds", "5"
    ).split()[-1]
    for i in range(1, 10):
        arbiter("player", "add", tid, "--name", f"Player {i}", "--rating", str(2400 - 37 * i))
    arbiter("bye", tid, "9", "3", "--kind", "half")
    met: set[frozenset[int]] = set()
    byes: list[int] = []
    for rnd in range(1, 6):
        arbiter("pair", tid)
        rows = boards(arbiter, tid, rnd)
        seen: list[int] = []
        for b in rows:
            white, black = ids(b)
            seen.append(white)
            if black is None:
                byes.append(white)
                continue
            seen.append(black)
            pair = frozenset((white, black))
            assert pair not in met, f"round {rnd}: {pair} met before"
            met.add(pair)
            arbiter("result", tid, str(rnd), str(b["board"]), ["1-0", "0-1", "1/2-1/2"][rnd % 3])
        assert len(seen) == len(set(seen))
        expected = 8 if rnd == 3 else 9  # player 9 asked for a half-point bye in round 3
        assert len(seen) == expected
    assert len(byes) == len(set(byes))  # nobody gets the pairing-allocated bye twice
    # Round 1 by the Dutch rules: top half against bottom half, colours alternating.
    first = [ids(b) for b in boards(arbiter, tid, 1)]
    assert first == [(1, 5), (6, 2), (3, 7), (8, 4), (9, None)]


def test_macmahon_tournament_pairs_with_handicap(tmp_path: Path) -> None:
    arbiter = Arbiter(tmp_path / "s.duckdb")
    tid = arbiter(
        "tournament",
        "create",
        "--name",
        "Paris Open",
        "--game",
        "go",
        "--system",
        "macmahon",
        "--rounds",
        "3",
        "--bar",
        "4d",
        "--floor",
        "20k",
    ).split()[-1]
    ranks = ["5d", "4d", "3d", "2d", "1d", "1k", "3k", "5k", "8k", "12k"]
    for r in ranks:
        arbiter("player", "add", tid, "--name", f"Player {r}", "--rank", r)
    arbiter("pair", tid)
    rows = boards(arbiter, tid, 1)
    assert len(rows) == 5
    # Round 1 of Mac-Mahon pairs neighbours in MMS; the stronger player takes white.
    for b in rows:
        white, black = ids(b)
        assert black is not None
        assert abs(white - black) == 1
    start_ranks = [b["white"]["start_rank"] for b in rows]
    assert start_ranks == sorted(start_ranks)
    handicaps = [b.get("handicap", 0) for b in rows]
    assert handicaps == sorted(handicaps)  # stones grow down the field, none above the bar
    assert handicaps[0] == 0
    assert (
        arbiter.err("pair", tid)
        == f"error: {tid}: round 1 still lacks results on board(s) 1, 2, 3, 4, 5"
    )


def test_chess_ratings_order_start_ranks_and_go_ranks_order_go(tmp_path: Path) -> None:
    arbiter = Arbiter(tmp_path / "s.duckdb")
    tid = arbiter("tournament", "create", "--name", "Go", "--game", "go").split()[-1]
    for r in ["3k", "2d", "15k", "1d"]:
        arbiter("player", "add", tid, "--name", f"P {r}", "--rank", r)
    rows = json.loads(arbiter("player", "list", tid, "--format", "json"))
    assert [r["rank"] for r in rows] == ["2d", "1d", "3k", "15k"]
    assert [a["start_rank"] for a in rows] == [1, 2, 3, 4]
    assert all(a["start_rank"] < b["start_rank"] for a, b in pairwise(rows))


def test_pair_explain_says_why_per_board(tmp_path: Path) -> None:
    arbiter = Arbiter(tmp_path / "s.duckdb")
    tid = arbiter("tournament", "create", "--name", "RR", "--rounds", "3").split()[-1]
    for i in range(4):
        arbiter("player", "add", tid, "--name", f"P{i}", "--rating", str(2000 - i))
    result = arbiter.runner.invoke(app, ["--store", arbiter.store, "pair", tid, "--explain"])
    assert result.exit_code == 0
    notes = [line for line in result.stderr.splitlines() if line.startswith("board")]
    assert notes == [
        "board 1 (P0 - P3): Berger table round 1, numbers 1-4",
        "board 2 (P1 - P2): Berger table round 1, numbers 2-3",
    ]
    go = arbiter(
        "tournament",
        "create",
        "--name",
        "Go",
        "--game",
        "go",
        "--system",
        "macmahon",
        "--rounds",
        "3",
    ).split()[-1]
    for r in ["2d", "1d", "1k", "2k", "3k"]:
        arbiter("player", "add", go, "--name", f"P {r}", "--rank", r)
    result = arbiter.runner.invoke(app, ["--store", arbiter.store, "pair", go, "--explain"])
    lines = [line for line in result.stderr.splitlines() if line.startswith("board")]
    assert len(lines) == 3
    assert lines[-1].endswith("bye (chosen before matching, as OpenGotha does)")
    assert all("no rematch 500000000000000" in line for line in lines[:2])


def _play(arbiter: Arbiter, tid: str, rnd: int, result: str) -> list[tuple[int, int | None]]:
    rows = boards(arbiter, tid, rnd)
    for b in rows:
        if b["black"] is not None:
            arbiter("result", tid, str(rnd), str(b["board"]), result)
    return [ids(b) for b in rows]


def test_carrom_sol_swiss_othello_and_gopair_run_from_the_log(tmp_path: Path) -> None:
    arbiter = Arbiter(tmp_path / "s.duckdb")
    setups = [
        ("carrom", ["--system", "swiss", "--pairing", "dazed", "--phantom-score", "25"], "25-7"),
        ("othello", ["--system", "swiss"], "40-24"),
        ("go", ["--system", "gopair"], "B+"),
    ]
    for game, options, result in setups:
        tid = arbiter(
            "tournament",
            "create",
            "--name",
            f"{game} event",
            "--game",
            game,
            "--rounds",
            "3",
            *options,
        ).split()[-1]
        for i, rank in enumerate(["3d", "1d", "2k", "5k", "9k", "12k", "15k"], start=1):
            extra = ["--rank", rank] if game == "go" else ["--rating", str(2000 - 10 * i)]
            arbiter("player", "add", tid, "--name", f"Player{i}, A", *extra)
        met: set[frozenset[int]] = set()
        for rnd in (1, 2, 3):
            arbiter("pair", tid)
            played = _play(arbiter, tid, rnd, result)
            seen = [p for pair in played for p in pair if p is not None]
            assert sorted(seen) == list(range(1, 8)), (game, rnd, played)
            assert sum(1 for _, b in played if b is None) == 1
            for a, b in played:
                if b is not None:
                    assert frozenset((a, b)) not in met, (game, rnd, a, b)
                    met.add(frozenset((a, b)))


def test_knockout_bracket_advances_winners(tmp_path: Path) -> None:
    arbiter = Arbiter(tmp_path / "s.duckdb")
    tid = arbiter(
        "tournament",
        "create",
        "--name",
        "Cup",
        "--system",
        "knockout",
        "--rounds",
        "3",
        "--seeding",
        "standard",
    ).split()[-1]
    for i in range(1, 7):
        arbiter("player", "add", tid, "--name", f"Seed {i}", "--rating", str(2100 - i))
    arbiter("pair", tid)
    first = [ids(b) for b in boards(arbiter, tid, 1)]
    # Six players in an eight-slot bracket: seeds 1 and 2 get the byes.
    assert first == [(1, None), (4, 5), (2, None), (3, 6)]
    arbiter("result", tid, "1", "2", "0-1")  # 5 beats 4
    arbiter("result", tid, "1", "4", "1-0")  # 3 beats 6
    arbiter("pair", tid)
    assert [ids(b) for b in boards(arbiter, tid, 2)] == [(1, 5), (2, 3)]
    assert arbiter.err("tournament", "create", "--name", "X", "--seeding", "random") == (
        "error: unknown --seeding 'random' (supported: standard)"
    )
