"""The benchmark drivers as a user runs them: ``python -m benchmarks.run`` and the files the
team Swiss benchmark writes for both engines (issue 35 part 4)."""

from __future__ import annotations

import subprocess
import sys
from decimal import Decimal
from pathlib import Path

from benchmarks.bench_team_swiss import team_file
from tests.conftest import require_testdata

ROOT = Path(__file__).resolve().parents[2]


def _spec_fields(line: str) -> tuple[Decimal, int, str, str]:
    """TRF-2026 ``001``: points at columns 81-84; round 1's opponent 92-95, colour 97,
    result 99."""
    return Decimal(line[80:84]), int(line[91:95]), line[96], line[98]


def test_the_team_bench_file_has_its_001_fields_at_the_spec_columns(tmp_path: Path) -> None:
    corpus = require_testdata("chess", "team", "team_42_secondary.input")
    played = [
        line
        for line in corpus.read_text(encoding="utf-8").splitlines()
        if line.startswith("001") and len(line) > 90
    ]
    assert played
    assert all(_spec_fields(line)[2] in "wb-" for line in played)  # the spec holds
    text = team_file(16, seed=16)
    for line in (line for line in text.splitlines() if line.startswith("001")):
        points, opponent, colour, result = _spec_fields(line)
        assert 0 <= points <= 5
        assert 0 <= opponent <= 16
        assert colour in "wb-", line
        assert result in "10=U", line
    path = tmp_path / "teams_16.trf"
    path.write_text(text, encoding="utf-8")
    done = subprocess.run(
        [str(Path(sys.executable).with_name("arbiter-pairings")), "--team", str(path), "-p"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.splitlines()[0] == "8"


def _benchmarks_run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "benchmarks.run", *args],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
    )


def test_benchmarks_run_help_lists_the_benchmarks() -> None:
    done = _benchmarks_run("--help")
    assert done.returncode == 0, done.stdout + done.stderr
    names = sorted(p.stem.removeprefix("bench_") for p in (ROOT / "benchmarks").glob("bench_*.py"))
    assert "team_swiss" in names
    assert "usage:" in done.stdout
    for name in names:
        assert name in done.stdout


def test_benchmarks_run_with_an_unknown_name_is_one_line_and_exit_2() -> None:
    done = _benchmarks_run("no_such_bench")
    assert done.returncode == 2
    assert len((done.stdout + done.stderr).strip().splitlines()) == 1
