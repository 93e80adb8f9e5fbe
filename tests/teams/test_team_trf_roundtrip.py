"""TRF-2026 team records in and out: read → write → read equal for every team file we have,
and a team tournament ingested into the log and exported again reads back as the same team
tournament (histories, rosters, records) and pairs its next round as the expected file says."""

from __future__ import annotations

from pathlib import Path

import pytest

from ingest.trf import parse_trf
from ingest.trf.teams import is_team_file, team_tournament_from_trf
from pipelines.engines.cli import main
from projections.exports.trf import write_trf
from tests.cli.test_director_flow import Arbiter
from tests.conftest import TESTDATA, require_testdata

TEAM = TESTDATA / "chess" / "team"
REAL = TESTDATA / "chess" / "real"
FIXTURES = sorted(p.stem for p in TEAM.glob("team_*.input"))
TEAM_FILES = [*(f"team/{n}.input" for n in FIXTURES), *(
    f"real/{p.name}" for p in sorted(REAL.glob("*_team.trf"))
)]  # fmt: skip


@pytest.mark.parametrize("name", TEAM_FILES or ["<missing corpus>"])
def test_team_file_reads_back_equal(name: str, tmp_path: Path) -> None:
    path = require_testdata("chess", *name.split("/"))
    first = parse_trf(path)
    assert is_team_file(first)
    again = parse_trf(tmp_path / "again.trf", write_trf(first).encode("utf-8"))
    assert again.records == first.records
    assert team_tournament_from_trf(again) == team_tournament_from_trf(first)


def test_every_team_file_is_covered() -> None:
    require_testdata("chess", "team")
    assert len(TEAM_FILES) == 24  # 22 fixtures and the two Greek team events


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = require_testdata("chess", "team")
    out = tmp_path_factory.mktemp("exported")
    arbiter = Arbiter(out / "store.duckdb")
    arbiter("ingest", *(str(p) for p in sorted(folder.glob("team_*.input"))))
    for name in FIXTURES:
        tid = name.replace("_", "-").lower()
        arbiter("export", tid, "--format", "trf", "--output", str(out / f"{name}.trf"))
    return out


@pytest.mark.parametrize("name", FIXTURES or ["<missing corpus>"])
def test_log_export_is_the_same_team_tournament(exported: Path, name: str) -> None:
    original = team_tournament_from_trf(parse_trf(TEAM / f"{name}.input"))
    back = team_tournament_from_trf(parse_trf(exported / f"{name}.trf"))
    assert back.teams == original.teams
    assert [(r.number, r.name, r.members) for r in back.rosters] == [
        (r.number, r.name, r.members) for r in original.rosters
    ]
    assert (back.rounds_played, back.total_rounds, back.boards) == (
        original.rounds_played, original.total_rounds, original.boards,
    )  # fmt: skip
    out = exported / f"{name}.out"
    assert main(["--team", str(exported / f"{name}.trf"), "-p", str(out)]) == 0
    assert out.read_text() == (TEAM / f"{name}.output.expected").read_text()


@pytest.mark.parametrize("name", sorted(p.name for p in REAL.glob("*_team.trf")) or ["<missing>"])
def test_real_team_event_through_the_log_and_back(name: str, tmp_path: Path) -> None:
    path = require_testdata("chess", "real", name)
    arbiter = Arbiter(tmp_path / "store.duckdb")
    arbiter("ingest", str(path))
    out = tmp_path / "back.trf"
    arbiter("export", path.stem.replace("_", "-").lower(), "--format", "trf", "--output", str(out))
    original = team_tournament_from_trf(parse_trf(path))
    back = team_tournament_from_trf(parse_trf(out))
    assert back.teams == original.teams
    assert [(r.name, r.members) for r in back.rosters] == [
        (r.name, r.members) for r in original.rosters
    ]


@pytest.mark.parametrize("name", TEAM_FILES or ["<missing corpus>"])
def test_team_lines_convert_to_trf16(name: str, tmp_path: Path) -> None:
    """``310`` → ``013``: the team tournament read from either form is the same."""
    from projections.exports.trf import to_trf16

    first = parse_trf(require_testdata("chess", *name.split("/")))
    original = team_tournament_from_trf(first)
    for converted in (to_trf16(first),):
        text = write_trf(converted).encode("utf-8")
        back = team_tournament_from_trf(parse_trf(tmp_path / "c.trf", text))
        assert back.teams == original.teams
        assert [(r.number, r.name[:32], r.members) for r in back.rosters] == [
            (r.number, r.name[:32], r.members) for r in original.rosters
        ]
