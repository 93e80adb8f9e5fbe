"""FIDE Team Swiss (C.04.6): the next-round team pairing of every ``chess/team/`` fixture.

The expected files were worked out by hand from C.04.6 (corpus README); the comparison is of
the whole ``-p`` output, line by line (order of the matches and colours included).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from pipelines.engines.cli import main
from tests.conftest import TESTDATA, require_testdata

FIXTURES = sorted(p.stem for p in (TESTDATA / "chess" / "team").glob("team_*.input"))


@pytest.mark.parametrize("name", FIXTURES or ["<missing corpus>"])
def test_fixture_pairing_equals_expected(name: str, tmp_path: Path) -> None:
    folder = require_testdata("chess", "team")
    out = tmp_path / "out.txt"
    assert main(["--team", str(folder / f"{name}.input"), "-p", str(out)]) == 0
    expected = (folder / f"{name}.output.expected").read_text(encoding="utf-8")
    assert out.read_text(encoding="utf-8") == expected


def test_corpus_has_every_fixture() -> None:
    folder = require_testdata("chess", "team")
    assert len(list(folder.glob("team_*.output.expected"))) == len(FIXTURES) == 22


def test_team_pairing_in_a_subprocess(tmp_path: Path) -> None:
    folder = require_testdata("chess", "team")
    exe = Path(sys.executable).with_name("arbiter-pairings")
    done = subprocess.run(
        [str(exe), "--team", str(folder / "team_bye.input"), "-p"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == (folder / "team_bye.output.expected").read_text(encoding="utf-8")


def test_rematch_only_field_exits_1(tmp_path: Path) -> None:
    source = tmp_path / "in.trf"
    source.write_text(
        "142 3\n192 FIDE_TEAM\n260   1   3    1    2\n"
        + "".join(f"001 {i:>4}      P{i:<32} 2500{' ' * 29}0.0 {i:>4}\n" for i in (1, 2))
        + "310 1   A"
        + " " * 64
        + "1\n"
        "310 2   B" + " " * 64 + "2\n",
        encoding="utf-8",
    )
    assert main(["--team", str(source), "-p"]) == 1


def test_bad_team_record_names_line_and_column(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "in.trf"
    source.write_text("142 3\n192 FIDE_TEAM\n310 X   A\n", encoding="utf-8")
    assert main(["--team", str(source), "-p"]) == 3
    assert f"{source}:3:5: bad team pairing number" in capsys.readouterr().err
