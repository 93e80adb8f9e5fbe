"""Board B of match M (``M.B``) of a team event read from a file is the file's board B of that
match, whatever board number the file gave the game.

The Friendship Cup 2024 file (chess/real/heltour_friendship_cup_2024_…) lists its games player
by player, not match after match: round 7's first game is ΟΦΗ 2 v ΟΑΑΗ, while its first match
is ΓΑΖΙ 1 v ΣΑΧ. The expectation is read from the file's own records here, by column (TRF-16:
``013`` a team and its players in board order, ``001`` a player and each round's opponent):
a team's board B in a round is the B-th of its listed players who played that round, against
the other team's B-th. Through the command line, as a director enters them: ``result T R M.B``
names the board it changed, and ``team forfeit T R M`` changes exactly that match's games.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.cli.games_cli import Cli
from tests.conftest import require_testdata

ROUND = 7
_WHERE = re.compile(r"^round 7 board (\d+)\.(\d+) \(board (\d+)\): 1-0 corrected$")


def file_matches(path: Path, round_no: int) -> dict[frozenset[str], list[frozenset[int]]]:
    """The round's matches as the file has them: the two teams' names, and the games (the two
    players' start numbers), board 1 first."""
    lines = path.read_text(encoding="utf-8").splitlines()
    opponent: dict[int, int] = {}
    for line in lines:
        if line.startswith("001"):
            block = line[91 + 10 * (round_no - 1) : 91 + 10 * round_no]
            text = block[:4].strip()
            opponent[int(line[4:8])] = int(text) if text.isdigit() else 0
    team_of: dict[int, str] = {}
    played: dict[str, list[int]] = {}
    for line in lines:
        if line.startswith("013"):
            name, numbers = line[4:36].strip(), [int(x) for x in line[36:].split()]
            played[name] = [p for p in numbers if opponent.get(p)]
            team_of.update(dict.fromkeys(numbers, name))
    matches: dict[frozenset[str], list[frozenset[int]]] = {}
    for name, players in played.items():
        for p in players:
            other = team_of[opponent[p]]
            games = matches.setdefault(frozenset((name, other)), [])
            if (game := frozenset((p, opponent[p]))) not in games:
                games.append(game)
    return matches


def _boards(cli: Cli, tid: str) -> dict[int, frozenset[int]]:
    rows = cli.json("pairings", tid, "--round", str(ROUND))
    return {r["board"]: frozenset((r["white"]["id"], r["black"]["id"])) for r in rows}


@dataclass(frozen=True)
class Cup:
    cli: Cli
    tid: str
    expected: dict[frozenset[str], list[frozenset[int]]]
    """The file's matches of `ROUND` (`file_matches`)."""


@pytest.fixture(scope="module")
def cup(tmp_path_factory: pytest.TempPathFactory) -> Cup:
    """The file ingested as a director would (each test corrects results of the store's
    round 7 only through ``--correct`` and ``team forfeit``: either may run first)."""
    path = require_testdata("chess", "real", "heltour_friendship_cup_2024_heraklion_team.trf")
    cli = Cli(tmp_path_factory.mktemp("cup") / "s.duckdb")
    cli("ingest", str(path))
    (tid,) = [t["id"] for t in cli.json("tournament", "list")]
    return Cup(cli, tid, file_matches(path, ROUND))


def test_match_boards_of_an_ingested_round_are_the_files(cup: Cup, tmp_path: Path) -> None:
    cli, tid, expected = cup.cli, cup.tid, cup.expected
    games = _boards(cli, tid)
    # the file numbers its games player by player: board 1 is not match 1's first game
    assert any(games[1] in g for g in expected.values())
    first = next(g for g in expected.values() if games[1] in g)
    assert games[1] != first[0]
    # board 1 of every match tells which two teams it is
    script = tmp_path / "first.txt"
    script.write_text(
        "".join(f"result {tid} {ROUND} {m}.1 1-0 --correct\n" for m in range(1, len(expected) + 1))
    )
    said = cli.run("batch", str(script))
    assert said.code == 0, said.err
    match_of: dict[int, frozenset[str]] = {}
    for line in said.err.splitlines():
        m = _WHERE.match(line)
        assert m is not None, line
        game = games[int(m[3])]
        (teams,) = [t for t, g in expected.items() if g[0] == game]
        match_of[int(m[1])] = teams
    assert sorted(match_of.values(), key=sorted) == sorted(expected, key=sorted)
    # then every board of every match is the file's board of that match
    script = tmp_path / "all.txt"
    script.write_text(
        "".join(
            f"result {tid} {ROUND} {m}.{b} 1-0 --correct\n"
            for m, teams in sorted(match_of.items())
            for b in range(1, len(expected[teams]) + 1)
        )
    )
    said = cli.run("batch", str(script))
    assert said.code == 0, said.err
    for line in said.err.splitlines():
        m = _WHERE.match(line)
        assert m is not None, line
        assert games[int(m[3])] == expected[match_of[int(m[1])]][int(m[2]) - 1], line
    # a board past the match's last, and a match the round does not have, are refused
    short = min(match_of, key=lambda k: len(expected[match_of[k]]))
    boards = len(expected[match_of[short]])
    if boards < 6:
        refused = cli.refused("result", tid, str(ROUND), f"{short}.{boards + 1}", "1-0")
        assert refused == f"error: {tid}: round {ROUND} match {short} has boards 1..{boards}"
    refused = cli.refused("result", tid, str(ROUND), f"{len(expected) + 1}.1", "1-0")
    assert refused.endswith(f"has no match {len(expected) + 1} (matches 1..{len(expected)})")


def test_a_forfeited_match_changes_that_matchs_games_only(cup: Cup) -> None:
    cli, tid, expected = cup.cli, cup.tid, cup.expected
    before = cli.json("pairings", tid, "--round", str(ROUND))
    games = _boards(cli, tid)
    said = cli.run("result", tid, str(ROUND), "3.1", "1-0", "--correct")
    m = _WHERE.match(said.err.strip())
    assert m is not None, said.err
    (teams,) = [t for t, g in expected.items() if g[0] == games[int(m[3])]]
    cli("team", "forfeit", tid, str(ROUND), "3", "none")
    after = cli.json("pairings", tid, "--round", str(ROUND))
    changed = {b["board"] for b, a in zip(before, after, strict=True) if b != a}
    assert {games[n] for n in changed} == set(expected[teams])
    assert {a["result"] for a in after if a["board"] in changed} == {"--"}  # double forfeit


def test_a_results_sheet_takes_match_boards(cup: Cup, tmp_path: Path) -> None:
    """``results --file`` lines ``M.B RESULT``: every board of match 2 as the file has it."""
    cli, tid, expected = cup.cli, cup.tid, cup.expected
    games = _boards(cli, tid)
    said = cli.run("result", tid, str(ROUND), "2.1", "1-0", "--correct")
    m = _WHERE.match(said.err.strip())
    assert m is not None, said.err
    (teams,) = [t for t, g in expected.items() if g[0] == games[int(m[3])]]
    sheet = tmp_path / "sheet.txt"
    sheet.write_text("".join(f"2.{b} 0-1\n" for b in range(1, len(expected[teams]) + 1)))
    before = cli.json("pairings", tid, "--round", str(ROUND))
    cli("results", tid, "--round", str(ROUND), "--file", str(sheet), "--correct")
    after = cli.json("pairings", tid, "--round", str(ROUND))
    black_won = {games[a["board"]] for a in after if a["result"] == "0-1"}
    assert set(expected[teams]) <= black_won
    changed = {games[b["board"]] for b, a in zip(before, after, strict=True) if b != a}
    assert changed <= set(expected[teams])
    bad = tmp_path / "bad.txt"
    bad.write_text("2.x 1-0\n")
    refused = cli.refused("results", tid, "--round", str(ROUND), "--file", str(bad))
    assert refused.startswith(f"error: {bad}:1:1: board '2.x'")
