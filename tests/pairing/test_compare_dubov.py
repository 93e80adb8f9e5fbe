"""``make compare``'s Dubov check against py4swiss (benchmarks/compare_dubov.py), and the
figures table ``make compare`` prints, with the real references when the environment names them
(``$DUBOV_REFERENCE``: py4swiss 0.3.1's command; ``$BBP_PAIRINGS``: bbpPairings v6).

The worked example of docs/dubov_disputed.md: our generator's seed 63 (9 players, 6 rounds).
Before round 2, players 5 and 8 are the lowest (0 points); 9 had the PAB and 4 won by forfeit
(Article 3.1.1 bars both). 5 lost over the board (1 game played), 8 lost by forfeit (none).
Article 3.1.4 ("has played the highest number of games") gives the PAB to 5; py4swiss gives it
to 8, and once the PAB is fixed either way the two engines pair the other boards alike.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks.compare_dubov import PY4SWISS_3_1_4, check_tournament
from events.result_codes import ResultCode
from ingest.trf import parse_trf
from tests.process import pairings_run

ROOT = Path(__file__).resolve().parents[2]
PY4SWISS = os.environ.get("DUBOV_REFERENCE", "")
BBP = os.environ.get("BBP_PAIRINGS", "")


def _seed_63(tmp_path: Path) -> Path:
    config = tmp_path / "config.txt"
    config.write_text("PlayersNumber=9\nRoundsNumber=6\n")
    out = tmp_path / "dubov-63.trf"
    done = pairings_run("--dubov", "-g", str(config), "-o", str(out), "-s", "63")
    assert done.returncode == 0, done.stderr
    return out


def test_the_worked_example_is_the_tournament_the_doc_describes(tmp_path: Path) -> None:
    players = {p.number: p for p in parse_trf(_seed_63(tmp_path)).players}
    first = {n: p.rounds[0] for n, p in players.items()}
    assert first[9].result is ResultCode.PAB
    assert first[4].result is ResultCode.FORFEIT_WIN
    assert (first[5].opponent, first[5].result) == (1, ResultCode.LOSS)
    assert (first[8].opponent, first[8].result) == (4, ResultCode.FORFEIT_LOSS)
    zero = sorted(
        n for n, e in first.items() if e.result in {ResultCode.LOSS, ResultCode.FORFEIT_LOSS}
    )
    assert zero == [5, 8]
    assert players[5].rounds[1].result is ResultCode.PAB  # Article 3.1.4


@pytest.mark.skipif(not PY4SWISS, reason="$DUBOV_REFERENCE not set")
def test_py4swiss_3_1_4_departure_is_classified(tmp_path: Path) -> None:
    checked = check_tournament(_seed_63(tmp_path), PY4SWISS)
    assert checked.failed is None
    assert checked.rounds == 6
    second = next(d for d in checked.differing if d.round == 2)
    assert "checker 8 0" in second.boards
    assert "file 5 0" in second.boards
    assert {d.why for d in checked.differing} == {PY4SWISS_3_1_4}
    assert checked.identical == 6 - len(checked.differing)


@pytest.mark.skipif(not BBP, reason="$BBP_PAIRINGS not set")
def test_make_compare_prints_the_figures_of_each_system(tmp_path: Path) -> None:
    out = tmp_path / "compare.json"
    argv = ["--systems", "dutch", "-n", "2", "--players", "10-12", "-o", str(out)]
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks.compare", *argv],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
        cwd=ROOT,
        env={**os.environ, "BBP_PAIRINGS": BBP},
    )
    assert done.returncode == 0, done.stderr
    figures = json.loads(out.read_text())["systems"]["dutch"]
    assert 10 <= figures["players_max"] <= 12
    compared = figures["reference_generated_agree"] + figures["arbiter_generated_agree"]
    row = (
        f"| dutch | {compared} | {compared} | {figures['rounds_compared']} "
        f"| {figures['rounds_compared']} | - of 0 |"
    )
    assert row in done.stdout.splitlines()
    assert figures["rounds_compared"] > 0
    assert "| system | tournaments compared | identical | rounds compared |" in done.stdout
