"""A director's team controls through `arbiter` in a subprocess: acceleration given on the
command line (TRF ``250``, C.04.6), and team standings while a round is in play."""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli.games_cli import Cli


def _league(cli: Cli, folder: Path, *tids: str) -> None:
    """Per id, four teams of two, numbered 1..4 by strength (C.04.6 round 1: 1-3, 4-2); made
    in one `arbiter batch` (set-up)."""
    lines: list[str] = []
    for tid in tids:
        lines.append(f"tournament create --name {tid} --id {tid} --system team-swiss "
                     "--rounds 5 --boards 2")  # fmt: skip
        for k in range(1, 5):
            lines.append(f"team add {tid} --name Team{k}")
            lines += [
                f"team member add {tid} Team{k} --name 'T{k}, P{b}' --rating {2400 - 100 * k - b}"
                for b in (1, 2)
            ]
    cli.batch(folder / "league.txt", lines)


def _matches(cli: Cli, tid: str) -> list[tuple[int, int]]:
    return [(m["white"]["number"], m["black"]["number"]) for m in cli.json("pair", tid)]


def test_acceleration_given_on_the_command_line(tmp_path: Path) -> None:
    cli = Cli(tmp_path / "s.duckdb")
    _league(cli, tmp_path, "plain", "fast")
    assert _matches(cli, "plain") == [(1, 3), (4, 2)]
    out = cli("team", "accelerate", "fast", "Team3", "4", "--from", "1", "--to", "2",
              "--match-points", "2", "--game-points", "4")  # fmt: skip
    assert out.split() == ["3", "4"]
    assert cli.refused("team", "accelerate", "fast", "Team1", "--from", "9") == (
        "error: fast: rounds 9..9 are not within 1..5"
    )
    # 2 MP ahead, teams 3 and 4 form the top score group: 3-4 and 1-2, published in the
    # order of the scores without acceleration (as the Sharly-Chess fork prints it): 1-2 first
    assert _matches(cli, "fast") == [(1, 2), (3, 4)]
    assert cli.refused("team", "accelerate", "fast", "Team1") == (
        "error: fast: round 1 is already paired; accelerate from round 2 on"
    )
    trf = cli("export", "fast", "--format", "trf").splitlines()
    assert [line for line in trf if line.startswith("250")] == [
        "250  2.0  4.0   1   2    3    3",
        "250  2.0  4.0   1   2    4    4",
    ]
    # fictitious points pair, they never rank
    cli.batch(
        tmp_path / "draws.txt", [f"result fast 1 {b} 1/2-1/2" for b in ("1.1", "1.2", "2.1", "2.2")]
    )
    assert {r["match_points"] for r in cli.json("standings", "fast")} == {1}


def test_team_standings_while_a_round_is_in_play(tmp_path: Path) -> None:
    cli = Cli(tmp_path / "s.duckdb")
    _league(cli, tmp_path, "lg")
    cli("pair", "lg")
    done = cli.run("standings", "lg", "--format", "json")
    assert done.err.strip() == "lg: after round 0 (round 1 in play)"
    assert {(r["played"], r["lost"]) for r in json.loads(done.out)} == {(0, 0)}
    cli.batch(tmp_path / "three.txt", [
        f"result lg 1 {board} {outcome}"
        for board, outcome in (("1.1", "1-0"), ("1.2", "1/2-1/2"), ("2.1", "0-1"))
    ])  # fmt: skip
    assert cli.run("standings", "lg").err.strip() == "lg: after round 0 (round 1 in play)"
    cli("result", "lg", "1", "2.2", "0-1")
    done = cli.run("standings", "lg", "--format", "json")
    assert done.err == ""
    table = {r["team"]["name"]: (r["played"], r["match_points"]) for r in json.loads(done.out)}
    # 1-3: 1½-½ (Team1 2 MP); 4-2: 1-1, as board 2's colours alternate (1 MP each)
    assert table == {"Team1": (1, 2), "Team2": (1, 1), "Team3": (1, 0), "Team4": (1, 1)}
