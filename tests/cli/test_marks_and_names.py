"""What a printed table must say about a player or an event after a director changed it:
a withdrawn player is marked in standings and crosstables (every format), a go crosstable shows
ranks where a chess one shows ratings, and `tournament list` shows the name the event was last
given (`tournament edit --name`) and the players still registered. All through `arbiter` in a
subprocess."""

from __future__ import annotations

import csv
import io
from pathlib import Path

from tests.cli.games_cli import Cli


def _five_players_one_round(cli: Cli, folder: Path) -> None:
    """Five players, round 1 paired and played (White wins), in two `arbiter batch` runs."""
    (boards,) = cli.batch(folder / "open.txt", [
        "tournament create --name Open --id open --system dutch --rounds 5",
        *(f"player add open --name 'Player{i}, A' --rating {2400 - 50 * i}" for i in range(1, 6)),
        "pair open",
        "pairings open --format json",
    ])  # fmt: skip
    cli.batch(folder / "results.txt", [
        f"result open 1 {board['board']} 1-0" for board in boards if board["black"] is not None
    ])  # fmt: skip


def test_a_withdrawn_player_is_marked_in_every_table(tmp_path: Path) -> None:
    cli = Cli(tmp_path / "s.duckdb")
    _five_players_one_round(cli, tmp_path)
    assert cli("player", "withdraw", "open", "3").strip() == ""
    standings = cli.json("standings", "open")
    assert {r["player"]["id"]: r["withdrawn_from"] for r in standings} == {
        1: None, 2: None, 3: 2, 4: None, 5: None,
    }  # fmt: skip
    # the name itself stays the player's name in JSON; the tables print the mark
    assert {r["player"]["name"] for r in standings} == {f"Player{i}, A" for i in range(1, 6)}
    assert [r["withdrawn_from"] for r in cli.json("crosstable", "open")] == [
        None, None, 2, None, None,
    ]  # fmt: skip
    text = cli("crosstable", "open").splitlines()
    assert [line for line in text if "(withdrawn)" in line] == [
        next(line for line in text if "Player3, A" in line)
    ]
    standings_text = cli("standings", "open").splitlines()
    assert [line for line in standings_text if "(withdrawn)" in line] == [
        next(line for line in standings_text if "Player3, A" in line)
    ]
    assert "withdrawn_from" not in standings_text[0]  # the mark, not a column of numbers
    assert "Player3, A (withdrawn)" in cli("standings", "open", "--format", "html")
    assert "Player3, A (withdrawn)" in cli("crosstable", "open", "--format", "html")
    rows = list(csv.DictReader(io.StringIO(cli("standings", "open", "--format", "csv"))))
    assert [r["withdrawn_from"] for r in rows if r["player"] == "Player3, A"] == ["2"]
    # taken back: the mark goes with it
    cli("player", "reenter", "open", "3")
    assert all(r["withdrawn_from"] is None for r in cli.json("standings", "open"))


def test_a_go_crosstable_shows_ranks_and_chess_ratings(tmp_path: Path) -> None:
    cli = Cli(tmp_path / "s.duckdb")
    cli.batch(tmp_path / "go.txt", [
        "tournament create --name Go --id go --game go --system macmahon --rounds 3",
        *(f"player add go --name '{name}' --rank {rank}"
          for name, rank in (("Abe, Ko", "3d"), ("Kim, Bo", "1k"), ("Sato, Ken", "12k"))),
    ])  # fmt: skip
    head, *rows = csv.reader(io.StringIO(cli("crosstable", "go", "--format", "csv")))
    assert head[3] == "Grade"
    assert sorted(row[3] for row in rows) == ["12k", "1k", "3d"]
    _five_players_one_round(cli, tmp_path)
    head, *rows = csv.reader(io.StringIO(cli("crosstable", "open", "--format", "csv")))
    assert head[3] == "Rtg"
    assert [row[3] for row in rows] == ["2350", "2300", "2250", "2200", "2150"]


def test_tournament_list_shows_the_edited_name_and_the_players_registered(
    tmp_path: Path,
) -> None:
    cli = Cli(tmp_path / "s.duckdb")
    cli("tournament", "create", "--name", "Open", "--id", "open", "--rounds", "5")
    for i in range(1, 4):
        cli("player", "add", "open", "--name", f"Player{i}, A")
    cli("player", "remove", "open", "2")
    cli("tournament", "edit", "open", "--name", "Oslo Open 2026")
    cli("tournament", "edit", "open", "--place", "Oslo")  # another edit keeps the name
    (row,) = cli.json("tournament", "list")
    assert (row["name"], row["players"]) == ("Oslo Open 2026", 2)
