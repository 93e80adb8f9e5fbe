"""``arbiter-pairings -g``: the random tournament generator, driven as a user runs it.

A generated file must pass our own checker (``-c``: every round re-paired as the file pairs
it) and, when ``$BBP_PAIRINGS`` names a bbpPairings v6 build, bbpPairings' checker; the same
seed gives the same bytes. Expected layouts (``162  W 3.0    D 1.0``, ``0000 - U`` for the
pairing-allocated bye) are those bbpPairings v6 writes for the same keys.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tests.process import pairings_run

EVERYTHING = (
    "# every kind of event the generator makes\n"
    "PlayersNumber=21\n"
    "RoundsNumber=7\n"
    "DrawPercentage=30\n"
    "ForfeitRate=8\n"
    "RetiredRate=7\n"
    "HalfPointByeRate=4\n"
    "ZeroPointByeRate=7\n"
    "LateEntryRate=7\n"
    "HasWhiteAdvantage=true\n"
    "PointsForWin=3\n"
    "PointsForDraw=1\n"
)


def _generate(tmp_path: Path, flag: str, config: str | None, seed: int) -> Path:
    out = tmp_path / f"{flag.strip('-')}-{seed}.trf"
    args = [flag, "-g"]
    if config is not None:
        (tmp_path / "config.txt").write_text(config)
        args.append(str(tmp_path / "config.txt"))
    done = pairings_run(*args, "-o", str(out), "-s", str(seed))
    assert done.returncode == 0, done.stderr
    return out


def _blocks(path: Path) -> list[list[str]]:
    """Each player's round blocks (from column 90, 10 characters a round: ``  oooo c r``)."""
    lines = [ln for ln in path.read_text().splitlines() if ln.startswith("001")]
    return [[ln[i : i + 10] for i in range(89, len(ln), 10)] for ln in lines]


@pytest.mark.parametrize("flag", ["--dutch", "--dutch-2017", "--burstein", "--dubov"])
def test_every_generated_round_is_paired_as_the_checker_pairs_it(tmp_path: Path, flag: str) -> None:
    out = _generate(tmp_path, flag, EVERYTHING, seed=2026)
    checked = pairings_run(flag, str(out), "-c", "--strict")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stdout.splitlines()[-1] == f"{out.name}: 7 of 7 rounds identical"
    codes = {block[-1] for row in _blocks(out) for block in row}
    # Late entries, withdrawals and zero-point byes (Z), half-point byes (H), forfeits (+ -),
    # draws, and the PAB (U) of an odd field all occur.
    assert {"Z", "H", "+", "-", "=", "1", "0", "U"} <= codes


def test_the_same_seed_gives_the_same_file_and_another_seed_another(tmp_path: Path) -> None:
    for folder in "abc":
        (tmp_path / folder).mkdir()
    # Only the field is fixed: rounds, rates and ratings are drawn from the seed.
    first = _generate(tmp_path / "a", "--dutch", "PlayersNumber=30\n", seed=99)
    second = _generate(tmp_path / "b", "--dutch", "PlayersNumber=30\n", seed=99)
    third = _generate(tmp_path / "c", "--dutch", "PlayersNumber=30\n", seed=100)
    assert first.read_bytes() == second.read_bytes()
    assert first.read_bytes() != third.read_bytes()
    assert first.read_text().splitlines()[0] == "012 arbiter random tournament, seed 99"


def test_the_config_decides_players_rounds_scoring_and_draws(tmp_path: Path) -> None:
    config = (
        "PlayersNumber=16\nRoundsNumber=5\nDrawPercentage=0\nForfeitRate=0\nRetiredRate=0\n"
        "HalfPointByeRate=0\nPointsForWin=3\nPointsForDraw=1\nLowestRating=1500\n"
        "HighestRating=1600\n"
    )
    out = _generate(tmp_path, "--dutch", config, seed=1)
    text = out.read_text()
    players = [ln for ln in text.splitlines() if ln.startswith("001")]
    assert len(players) == 16
    assert all(1500 <= int(ln[48:52]) <= 1600 for ln in players)
    assert "142 5" in text.splitlines()
    # bbpPairings v6 writes this line for PointsForWin=3, PointsForDraw=1.
    assert "162  W 3.0    D 1.0" in text.splitlines()
    blocks = [b for row in _blocks(out) for b in row]
    assert len(blocks) == 16 * 5
    assert {b[-1] for b in blocks} == {"1", "0"}  # no draws, no forfeits, no byes
    # 3 points a win: the points column is three times the wins.
    for line, row in zip(players, _blocks(out), strict=True):
        assert float(line[80:84]) == 3 * sum(b[-1] == "1" for b in row)


def test_dutch_2017_writes_bbppairings_v5_records(tmp_path: Path) -> None:
    out = _generate(
        tmp_path,
        "--dutch-2017",
        "PlayersNumber=10\nRoundsNumber=4\nPointsForWin=3\nPointsForDraw=1\n",
        seed=3,
    )
    lines = out.read_text().splitlines()
    assert "XXR 4" in lines
    assert {"BBW   3.0", "BBD   1.0"} <= set(lines)
    assert any(ln in ("XXC white1", "XXC black1") for ln in lines)


def test_baku_acceleration_is_written_and_paired(tmp_path: Path) -> None:
    out = _generate(
        tmp_path, "--dutch", "PlayersNumber=40\nRoundsNumber=6\nAcceleration=baku\n", seed=8
    )
    assert "092 FIDE_DUTCH_2025_BAKU" in out.read_text().splitlines()
    checked = pairings_run("--dutch", str(out), "-c", "--strict")
    assert checked.returncode == 0, checked.stdout


def test_a_round_everybody_misses_is_written_and_not_paired(tmp_path: Path) -> None:
    # Every player enters late (round 2): round 1 holds zero-point byes only.
    out = _generate(tmp_path, "--dubov", "PlayersNumber=3\nRoundsNumber=2\nLateEntryRate=1\n", 1)
    assert [row[0] for row in _blocks(out)] == ["  0000 - Z"] * 3
    checked = pairings_run("--dubov", str(out), "-c", "--strict")
    assert checked.returncode == 0, checked.stdout + checked.stderr


@pytest.mark.parametrize(
    ("config", "message"),
    [
        ("PlayersNumber=12\nPlayerNumber=3\n", "config.txt:2:1: unknown key 'PlayerNumber'"),
        ("PlayersNumber=12\nDrawPercentage=120\n", "config.txt:2:16: bad value for DrawPercentage"),
        ("RoundsNumber\n", "config.txt:1:1: not a Key=value line"),
        ("LowestRating=2000\nHighestRating=1800\n", "config.txt:2:15: HighestRating below"),
    ],
)
def test_a_bad_config_is_one_line_naming_line_and_column(
    tmp_path: Path, config: str, message: str
) -> None:
    (tmp_path / "config.txt").write_text(config)
    out = tmp_path / "out.trf"
    done = pairings_run("--dutch", "-g", str(tmp_path / "config.txt"), "-o", str(out), "-s", "1")
    assert done.returncode == 3
    assert len(done.stderr.splitlines()) == 1
    assert message in done.stderr
    assert not out.exists()


def test_missing_output_and_team_acceleration_are_refused(tmp_path: Path) -> None:
    for flag in ("--dutch", "--team"):
        no_out = pairings_run(flag, "-g")
        assert no_out.returncode == 3
        assert "-g needs -o OUTPUT" in no_out.stderr
    (tmp_path / "baku.txt").write_text("Acceleration=baku\n")
    team = pairings_run("--team", "-g", str(tmp_path / "baku.txt"), "-o", str(tmp_path / "t.trf"))
    assert (team.returncode, team.stderr) == (
        3,
        "error: -g --team: Acceleration=baku is not available for team tournaments\n",
    )
    assert not (tmp_path / "t.trf").exists()


@pytest.mark.skipif(not os.environ.get("BBP_PAIRINGS"), reason="$BBP_PAIRINGS not set")
@pytest.mark.parametrize("flag", ["--dutch", "--burstein"])
def test_the_reference_checker_finds_no_difference(tmp_path: Path, flag: str) -> None:
    out = _generate(tmp_path, flag, "PlayersNumber=40\nRoundsNumber=7\n", seed=5)
    done = subprocess.run(
        [os.environ["BBP_PAIRINGS"], flag, str(out), "-c"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "Checker pairings" not in done.stdout
