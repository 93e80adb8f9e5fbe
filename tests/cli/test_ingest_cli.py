"""`arbiter ingest` and `arbiter export` through the command line."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from typer.testing import CliRunner

from ingest.elo import parse_elo
from ingest.h9 import parse_h9
from ingest.trf import parse_trf
from pipelines import cli  # noqa: F401  (registers every command on the app)
from pipelines.cli import app
from tests.conftest import require_testdata

ELO = ("othello", "elo", "2019", "20190105_92_Dutch_open.ELO")
H9 = ("go", "h9", "honte_amp2006.h9")
TRF = ("chess", "real", "lichess_swiss_2026.02.14_cY3wR140_weekly-agca-prize-50-dollars.trf")


def arbiter(store: Path, *args: str, code: int = 0) -> str:
    result = CliRunner().invoke(app, ["--store", str(store), *args])
    assert result.exit_code == code, (args, result.output, result.exception)
    return result.stdout


def inbox(tmp_path: Path) -> Path:
    folder = tmp_path / "inbox"
    folder.mkdir()
    for parts in (ELO, H9, TRF):
        shutil.copy(require_testdata(*parts), folder / parts[-1])
    return folder


def test_ingest_a_folder_then_again(tmp_path: Path) -> None:
    store = tmp_path / "a.duckdb"
    folder = inbox(tmp_path)
    out = arbiter(store, "ingest", str(folder), "--format", "json")
    report = json.loads(out)
    assert [f["status"] for f in report["files"]] == ["ingested"] * 3
    assert all(set(f) >= {"path", "status", "tournament", "error"} for f in report["files"])
    assert report["summary"]["ingested"] == 3
    assert report["summary"]["failed"] == 0
    text = arbiter(store, "ingest", str(folder))
    assert text.splitlines()[-1].startswith("0 file(s) ingested, 3 already ingested, 0 failed")


def test_a_failed_file_exits_1_with_one_line(tmp_path: Path) -> None:
    store = tmp_path / "b.duckdb"
    folder = inbox(tmp_path)
    (folder / "broken.ELO").write_text("%%Tournament: x\nnot a header\n")
    out = arbiter(store, "ingest", str(folder), code=1)
    lines = out.splitlines()
    assert (
        lines[0] == f"{folder / 'broken.ELO'}:2:1: bad header line (found 'not a header', "
        "expected %%Country:)"
    )
    assert lines[1].startswith("3 file(s) ingested, 0 already ingested, 1 failed")


def test_forced_format_and_strict_points(tmp_path: Path) -> None:
    store = tmp_path / "c.duckdb"
    source = require_testdata("chess", "real", "icu_bunratty_masters_2011.trf")
    renamed = tmp_path / "masters.txt"
    shutil.copy(source, renamed)
    out = arbiter(store, "ingest", str(renamed), "--format", "trf", "--strict", code=1)
    assert "points of" in out.splitlines()[0]
    report = json.loads(arbiter(store, "ingest", str(renamed), "-f", "trf", "-f", "json"))
    (entry,) = report["files"]
    assert entry["status"] == "ingested"
    assert len(entry["warnings"]) == 5


def test_export_round_trip_per_format(tmp_path: Path) -> None:
    store = tmp_path / "d.duckdb"
    report = json.loads(arbiter(store, "ingest", str(inbox(tmp_path)), "-f", "json"))
    by_format = {f["format"]: f["tournament"] for f in report["files"]}

    out = tmp_path / "20190105_X.ELO"
    arbiter(store, "export", by_format["elo"], "--format", "elo", "-o", str(out))
    original, again = parse_elo(require_testdata(*ELO)), parse_elo(out)
    assert [(p.wof_id, p.surname, p.first_name) for p in again.players] == [
        (p.wof_id, p.surname, p.first_name) for p in original.players
    ]
    key = lambda g: (g.first, g.second, g.outcome, g.first_discs, g.first_colour)  # noqa: E731
    assert sorted(map(key, again.games), key=str) == sorted(map(key, original.games), key=str)

    out = tmp_path / "egd.h9"
    arbiter(store, "export", by_format["h9"], "--format", "h9", "-o", str(out))
    h9_original, h9_again = parse_h9(require_testdata(*H9)), parse_h9(out)
    assert [(p.name, p.rank, p.pin, p.results) for p in h9_again.players] == [
        (p.name, p.rank, p.pin, p.results) for p in h9_original.players
    ]

    out = tmp_path / "report.trf"
    arbiter(store, "export", by_format["trf"], "--format", "trf", "-o", str(out))
    trf_original, trf_again = parse_trf(require_testdata(*TRF)), parse_trf(out)
    assert [(p.number, p.name, p.fide_id, p.points, p.rounds) for p in trf_again.players] == [
        (p.number, p.name, p.fide_id, p.points, p.rounds) for p in trf_original.players
    ]


def test_new_player_marks_survive_ingest_and_export(tmp_path: Path) -> None:
    """The ``+`` of a player new to the WOF list is stored as event metadata and exported."""
    source = require_testdata("othello", "elo", "2019", "20190622_EGP_Prague.ELO")
    store = tmp_path / "n.duckdb"
    (entry,) = json.loads(arbiter(store, "ingest", str(source), "-f", "json"))["files"]
    out = tmp_path / "20190622_X.ELO"
    arbiter(store, "export", entry["tournament"], "--format", "elo", "-o", str(out))
    original, again = parse_elo(source), parse_elo(out)
    assert any(p.new for p in original.players)
    assert [(p.wof_id, p.new) for p in again.players] == [
        (p.wof_id, p.new) for p in original.players
    ]


def test_export_of_an_unknown_tournament(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        app, ["--store", str(tmp_path / "e.duckdb"), "export", "nope", "--format", "trf"]
    )
    assert result.exit_code == 1
    assert result.stderr.strip() == "error: unknown tournament 'nope' (known: none yet)"
