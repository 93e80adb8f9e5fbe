"""``arbiter-pairings --team -g``: the random team tournament generator, driven as a user runs
it.

A generated file must pass our team checker (``--team -c``) and, when ``$BBP_TEAM_PAIRINGS``
names the Sharly-Chess fork of bbpPairings, be read by the fork's checker; the same seed gives
the same bytes. The ``310``, ``192``, ``240`` and ``362`` layouts are those the fork reads
(its ``fileformats/teamtrf.cpp`` columns, and the corpus files of ``chess/team/``).
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

from tests.process import pairings_run

EVERYTHING = (
    "# every kind of round the team generator makes\n"
    "TeamsNumber=11\n"
    "BoardsNumber=3\n"
    "RoundsNumber=7\n"
    "DrawPercentage=30\n"
    "ForfeitRate=8\n"
    "RetiredRate=6\n"
    "HalfPointByeRate=4\n"
    "ZeroPointByeRate=5\n"
    "LateEntryRate=6\n"
    "HasWhiteAdvantage=true\n"
)


def _generate(folder: Path, config: str | None, seed: int) -> Path:
    out = folder / f"team-{seed}.trf"
    args = ["--team", "-g"]
    if config is not None:
        (folder / "config.txt").write_text(config)
        args.append(str(folder / "config.txt"))
    done = pairings_run(*args, "-o", str(out), "-s", str(seed))
    assert done.returncode == 0, done.stderr
    return out


def _lines(path: Path, code: str) -> list[str]:
    return [ln for ln in path.read_text().splitlines() if ln.startswith(code)]


def test_every_generated_round_is_paired_as_the_checker_pairs_it(tmp_path: Path) -> None:
    out = _generate(tmp_path, EVERYTHING, seed=2026)
    checked = pairings_run("--team", str(out), "-c", "--strict")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stdout.splitlines()[-1] == f"{out.name}: 7 of 7 rounds identical"
    blocks = [ln[i : i + 10] for ln in _lines(out, "001") for i in range(89, len(ln), 10)]
    # Team byes (H, and Z for late entries, withdrawals and missed rounds), board forfeits,
    # draws and the team PAB (U) of an odd number of teams all occur.
    assert {"Z", "H", "+", "-", "=", "1", "0", "U"} <= {b[-1] for b in blocks}
    byes = _lines(out, "240")
    assert {b[4] for b in byes} == {"H", "Z"}
    # A team's bye is every member's: each member of a 240 team has the block in that round.
    kind, round_no, team = byes[0][4], int(byes[0][6:9]), int(byes[0][10:14])
    members = [ln for ln in _lines(out, "001") if int(ln[4:8]) in range(3 * team - 2, 3 * team + 1)]
    assert {ln[79 + 10 * round_no : 89 + 10 * round_no] for ln in members} == {f"  0000 - {kind}"}


def test_the_same_seed_gives_the_same_file_and_another_seed_another(tmp_path: Path) -> None:
    for folder in "abc":
        (tmp_path / folder).mkdir()
    config = "TeamsNumber=10\nRoundsNumber=5\n"
    first = _generate(tmp_path / "a", config, seed=7)
    second = _generate(tmp_path / "b", config, seed=7)
    third = _generate(tmp_path / "c", config, seed=8)
    assert first.read_bytes() == second.read_bytes()
    assert first.read_bytes() != third.read_bytes()
    assert first.read_text().splitlines()[0] == "012 arbiter random team tournament, seed 7"


def test_the_config_decides_teams_boards_type_scores_and_match_points(tmp_path: Path) -> None:
    config = (
        "TeamsNumber=6\nBoardsNumber=4\nRoundsNumber=3\nColourPreferenceType=b\n"
        "PrimaryScore=GP\nPointsForMatchWin=3\nLowestRating=1500\nHighestRating=2500\n"
    )
    out = _generate(tmp_path, config, seed=5)
    text = out.read_text().splitlines()
    assert "192 FIDE_TEAM_TYPEB_GP_MP" in text
    # TW at columns 5-6, its value at 7-10, TD at 14, TL at 23 (the fork's 362 columns).
    assert "362 TW 3.0   TD 1.0   TL 0.0" in text
    rosters = _lines(out, "310")
    assert [int(r[4:7]) for r in rosters] == [1, 2, 3, 4, 5, 6]
    members = [[int(m) for m in r[73:].split()] for r in rosters]
    assert members == [[4 * t + b for b in range(1, 5)] for t in range(6)]
    rating = {int(ln[4:8]): int(ln[48:52]) for ln in _lines(out, "001")}
    assert all(1500 <= r <= 2500 for r in rating.values())
    # Board order by rating inside a team; teams numbered by their average, highest first.
    assert all(
        [rating[m] for m in ms] == sorted((rating[m] for m in ms), reverse=True) for ms in members
    )
    totals = [sum(rating[m] for m in ms) for ms in members]
    assert totals == sorted(totals, reverse=True)
    # Each round, the team named first has White on board 1 and the boards alternate.
    first = _lines(out, "001")[0]
    colour = first[96]
    second_board = _lines(out, "001")[1][96]
    assert {colour, second_board} == {"w", "b"}


def test_a_bad_value_is_one_line_naming_the_key_and_exit_3(tmp_path: Path) -> None:
    (tmp_path / "config.txt").write_text("TeamsNumber=8\nBoardsNumber=0\n")
    done = pairings_run("--team", "-g", str(tmp_path / "config.txt"), "-o", str(tmp_path / "o.trf"))
    assert done.returncode == 3
    assert done.stderr.count("\n") == 1
    assert re.search(r"config.txt:2:\d+: bad value for BoardsNumber", done.stderr), done.stderr


@pytest.mark.skipif(
    not os.environ.get("BBP_TEAM_PAIRINGS"), reason="$BBP_TEAM_PAIRINGS unset (the fork)"
)
def test_the_fork_reads_the_generated_file(tmp_path: Path) -> None:
    out = _generate(tmp_path, EVERYTHING, seed=2026)
    done = subprocess.run(
        [os.environ["BBP_TEAM_PAIRINGS"], "--team", str(out), "-c"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert (done.returncode, done.stderr) == (0, "")
    assert len(re.findall(r": Round #\d+", done.stdout)) == 7
