"""Acceleration (TRF-2026 ``250``) of a team Swiss: the live path (``arbiter ingest`` then
``arbiter pair``) pairs an accelerated file as ``arbiter-pairings --team`` does.

No ``chess/team/`` fixture carries a ``250``; each case here is a fixture with one added: the
lower half of the teams (by number) get 2 match points and 4 game points in every round. It
changes the next round's pairing of most fixtures (not all: some are decided by byes, forfeits
or restrictions); the command-line test asserts the change on round 1 of four teams.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from pipelines.engines.cli import main
from tests.cli.games_cli import json_outputs
from tests.cli.test_director_flow import Arbiter
from tests.conftest import TESTDATA, require_testdata
from tests.teams.installed import run_installed

FIXTURES = sorted(p.stem for p in (TESTDATA / "chess" / "team").glob("team_*.input"))


def _accelerated(name: str, folder: Path) -> Path:
    """The fixture with a ``250`` line for teams n/2+1..n, rounds 1..9 (2 MP, 4 GP)."""
    text = (require_testdata("chess", "team") / f"{name}.input").read_text(encoding="utf-8")
    teams = sum(1 for line in text.splitlines() if line.startswith("310"))
    line = f"250  2.0  4.0   1   9 {teams // 2 + 1:>4} {teams:>4}\n"
    path = folder / f"acc_{name}.trf"
    path.write_text(text.rstrip("\n") + "\n" + line, encoding="utf-8")
    return path


def _pairs(rows: list[dict[str, Any]]) -> str:
    lines = [f"{r['white']['number']} {r['black']['number'] if r['black'] else 0}" for r in rows]
    return "\n".join([str(len(lines)), *lines]) + "\n"


@pytest.fixture(scope="module")
def accelerated(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Arbiter]:
    folder = tmp_path_factory.mktemp("accelerated")
    files = [_accelerated(name, folder) for name in FIXTURES]
    arbiter = Arbiter(folder / "store.duckdb")
    arbiter("ingest", *(str(p) for p in files))
    return folder, arbiter


@pytest.mark.parametrize("name", FIXTURES or ["<missing corpus>"])
def test_live_pairing_of_an_accelerated_fixture(
    accelerated: tuple[Path, Arbiter], name: str
) -> None:
    folder, arbiter = accelerated
    out = folder / f"{name}.out"
    assert main(["--team", str(folder / f"acc_{name}.trf"), "-p", str(out)]) == 0
    standalone = out.read_text(encoding="utf-8")
    tid = f"acc-{name}".replace("_", "-").lower()
    assert _pairs(json.loads(arbiter("pair", tid, "--format", "json"))) == standalone


def _run(exe: str, *args: str, store: Path) -> str:
    return run_installed(store, *args, exe=exe)


def test_acceleration_through_the_command_line(tmp_path: Path) -> None:
    """Round 1 of four teams: unaccelerated 1-3, 4-2 (fixture); with 250 for teams 3-4 the
    top half is 3 and 4 (C.04.6 pairs by score): 3-4 and 1-2, published in the order of the
    scores without acceleration (all 0 here), so 1-2 first, as the Sharly-Chess fork
    (build of /work/scratch/sharly, ``--team -p``) prints it."""
    source = _accelerated("team_round1", tmp_path)
    store = tmp_path / "store.duckdb"
    standalone = _run("arbiter-pairings", "--team", str(source), "-p", store=store)
    script = tmp_path / "live.txt"  # ingest, pair, export: one `arbiter batch`
    exported = tmp_path / "exported.trf"
    script.write_text(
        f"ingest {source}\n"
        "pair acc-team-round1 --format json\n"
        f"export acc-team-round1 -f trf -o {exported}\n",
        encoding="utf-8",
    )
    (rows,) = json_outputs(_run("arbiter", "batch", str(script), store=store))
    assert _pairs(rows) == standalone == "2\n1 2\n3 4\n"
    unaccelerated = require_testdata("chess", "team", "team_round1.output.expected")
    assert unaccelerated.read_text(encoding="utf-8") == "2\n1 3\n4 2\n"
    assert "250  2.0  4.0   1   9    3    4" in exported.read_text(encoding="utf-8").splitlines()


def _round1_with(record: str, folder: Path) -> Path:
    """``team_round1`` (four teams, round 1) with one ``250`` line."""
    text = require_testdata("chess", "team", "team_round1.input").read_text(encoding="utf-8")
    path = folder / "round1_250.trf"
    path.write_text(text.rstrip("\n") + f"\n{record}\n", encoding="utf-8")
    return path


def test_acceleration_by_match_points_only_with_the_game_points_left_blank(
    tmp_path: Path,
) -> None:
    """The record of the Sharly-Chess fork's ``team_250_accel`` test, game points blank: teams
    1-2 get 2 match points in round 1, so the scoregroups are {1, 2} and {3, 4}; the fork's
    expected pairing is 1-2, 3-4 (unaccelerated: 1-3, 4-2)."""
    source = _round1_with("250  2.0        1   1    1    2", tmp_path)
    done = subprocess.run(
        [str(Path(sys.executable).with_name("arbiter-pairings")), "--team", str(source), "-p"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == "2\n1 2\n3 4\n"


@pytest.mark.parametrize(
    ("record", "column"),
    [
        ("250                1   1    1    2", 5),  # no points at all
        ("250  2.0  4.0      1    1    2", 15),  # no first round
        ("250  2.0  4.0   1   1    1", 28),  # no last team
        ("250  2.0  x.5   1   1    1    2", 10),  # not a number
    ],
)
def test_a_malformed_acceleration_record_is_one_line_naming_line_and_column(
    tmp_path: Path, record: str, column: int
) -> None:
    source = _round1_with(record, tmp_path)
    line = len(source.read_text(encoding="utf-8").splitlines())
    done = subprocess.run(
        [str(Path(sys.executable).with_name("arbiter-pairings")), "--team", str(source), "-p"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 3
    assert done.stdout == ""
    assert len(done.stderr.splitlines()) == 1
    assert done.stderr.startswith(f"error: {source}:{line}:{column}: ")
