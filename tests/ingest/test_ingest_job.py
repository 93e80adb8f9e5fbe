"""The ingest job over the reference corpora: every file ingests or fails with a precise message,
points agree with the files, and a re-ingest appends nothing."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import polars as pl
import pytest

from events.duckdb_store import DuckDBStore
from events.store import WrongExpectedVersion
from ingest.elo import parse_elo
from pipelines.commands.base import load
from pipelines.jobs.ingest import IngestOptions, IngestReport, Status, discover, ingest
from tests.conftest import require_testdata


def run(paths: list[Path]) -> tuple[DuckDBStore, IngestReport]:
    store = DuckDBStore(":memory:")
    return store, ingest(store, discover(paths))


def failures(report: IngestReport) -> dict[str, str]:
    return {Path(f.path).name: f.error or "" for f in report.files if f.status is Status.FAILED}


def test_chess_real() -> None:
    store, report = run([require_testdata("chess", "real")])
    assert report.count(Status.INGESTED) == 25
    assert report.ok
    mismatches = {
        Path(f.path).name: sum("points of" in w for w in f.warnings) for f in report.files
    }
    # formats.md §1.10: byes written without a code while the points include them.
    assert mismatches["icu_bunratty_masters_2011.trf"] == 5
    assert mismatches["icu_bunratty_minor_2011.trf"] == 17
    assert mismatches["icu_bunratty_major_2011.trf"] == 11
    assert mismatches["icu_bunratty_challengers_2011.trf"] == 8
    for name, count in mismatches.items():
        if name.startswith(("chessresults_", "lichess_", "karl_mala", "torneo_san_viator")):
            assert count == 0, name
    store.close()


def test_go_h9() -> None:
    store, report = run([require_testdata("go", "h9")])
    assert failures(report) == {
        # DT[start,end] with the end before the start.
        "honte_mpk2025.h9": f"{require_testdata('go', 'h9', 'honte_mpk2025.h9')}:5:1: bad DT "
        "date (found '2025-07-19,2025-06-20', expected 'YYYY-MM-DD[,YYYY-MM-DD]')",
        # OpenGotha wrote a both-win game: h9 cells cannot say it.
        "opengotha351_TournoiChinois.h9": f"{require_testdata('go', 'h9')}/"
        "opengotha351_TournoiChinois.h9:20:68: asymmetric result of 9 v 10 in round 1 "
        "(found '10+/b0 / 9+/w0', expected + against -)",
    }
    assert report.count(Status.INGESTED) == 22
    store.close()


def test_go_other() -> None:
    store, report = run([require_testdata("go", "other")])
    failed = failures(report)
    # AGA files are no format arbiter reads; each fails at its first line.
    assert sorted(failed) == [
        "aga_register_fixture.tde",
        "aga_report_test_players.txt",
        "aga_round_fixture_N.tde",
    ]
    assert all(":1:1: unknown file format (found " in e for e in failed.values())
    assert report.count(Status.INGESTED) == 5
    store.close()


def test_go_opengotha_xml_folders() -> None:
    xml = sorted(require_testdata("go", "pairgoth").rglob("*.xml"))
    paths = [*xml, require_testdata("go", "opengotha"), require_testdata("go", "opengotha-rgf")]
    store, report = run(paths)
    assert failures(report) == {
        "sample-tournament.xml": f"{require_testdata('go', 'pairgoth', 'macmahon39')}/"
        "sample-tournament.xml:3:1: not an OpenGotha tournament (found '<TournamentData>', "
        "expected <Tournament>)"
    }
    assert report.count(Status.INGESTED) == len(xml) - 1 + 16
    store.close()


def test_elo_points_match_the_files_where_they_are_consistent() -> None:
    folder = require_testdata("othello", "elo", "2019")
    store, report = run([folder])
    assert report.ok
    checked = 0
    for f in report.files:
        if f.status is not Status.INGESTED:
            continue
        state = load(store, str(f.tournament)).state
        elo = parse_elo(Path(f.path))
        warned = {w.split(":")[1] for w in f.warnings if "points of" in w}
        for number, player in enumerate(elo.players, start=1):
            if player.score is None:
                continue
            agrees = Decimal(str(state.points(number))) == player.score
            assert agrees != (str(player.line) in warned), (f.path, player.line)
            checked += agrees
    assert checked > 7_000
    store.close()


def test_reingest_appends_nothing(tmp_path: Path) -> None:
    source = require_testdata("go", "h9", "honte_amp2006.h9")
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    (inbox / "a.h9").write_bytes(source.read_bytes())
    store = DuckDBStore(tmp_path / "s.duckdb")
    first = ingest(store, discover([inbox]))
    assert [f.status for f in first.files] == [Status.INGESTED]
    rows = store.read_frame().height
    (inbox / "renamed copy.h9").write_bytes(source.read_bytes())
    again = ingest(store, discover([inbox]))
    assert [f.status for f in again.files] == [Status.DUPLICATE, Status.DUPLICATE]
    assert {f.tournament for f in again.files} == {first.files[0].tournament}
    assert store.read_frame().height == rows
    store.close()


def test_a_second_file_of_the_same_name_gets_its_own_tournament_id(tmp_path: Path) -> None:
    """The reader names the tournament after its file; the job gives the second of two files
    with one name the id ``NAME-2``, in the stream name and in the created event alike."""
    for folder, source in (("a", "honte_amp2006.h9"), ("b", "honte_amp2009.h9")):
        (tmp_path / folder).mkdir()
        data = require_testdata("go", "h9", source).read_bytes()
        (tmp_path / folder / "Results.h9").write_bytes(data)
    store = DuckDBStore(":memory:")
    report = ingest(store, discover([tmp_path / "a", tmp_path / "b"]))
    assert [(f.status, f.tournament) for f in report.files] == [
        (Status.INGESTED, "results"),
        (Status.INGESTED, "results-2"),
    ]
    created = store.read_frame().filter(pl.col("event_type") == "TournamentCreated")
    assert sorted(
        zip(
            created["stream_id"],
            created["payload"].str.json_path_match("$.tournament_id"),
            strict=True,
        )
    ) == [
        ("tournament-results", "results"),
        ("tournament-results-2", "results-2"),
    ]
    # each file's own event (its EV[...] header) under its id
    assert load(store, "results").state.settings.name == "Polish Students Championship"
    assert load(store, "results-2").state.settings.name == "Polish Academic Championship"
    store.close()


def test_a_broken_file_appends_nothing_and_the_others_land(tmp_path: Path) -> None:
    good = require_testdata("go", "h9", "honte_amp2006.h9").read_bytes()
    (tmp_path / "good.h9").write_bytes(good)
    broken = good.replace(b"4+/w", b"4+/q", 1)
    (tmp_path / "broken.h9").write_bytes(broken)
    store = DuckDBStore(":memory:")
    report = ingest(store, discover([tmp_path]))
    statuses = {Path(f.path).name: f.status for f in report.files}
    assert statuses == {"good.h9": Status.INGESTED, "broken.h9": Status.FAILED}
    assert not report.ok
    streams = store.streams()
    assert [s for s in streams if s.startswith("tournament-")] == ["tournament-good"]
    assert len([s for s in streams if s.startswith("file-")]) == 1


@pytest.mark.parametrize("pack_rows", [0, 1_000_000])
def test_pack_size_does_not_change_the_log(pack_rows: int) -> None:
    from pipelines.jobs.ingest import IngestOptions

    folder = require_testdata("go", "h9")
    store = DuckDBStore(":memory:")
    report = ingest(store, discover([folder]), IngestOptions(pack_rows=pack_rows))
    frame = store.read_frame()
    assert report.count(Status.INGESTED) == 22
    assert frame.height == frame["event_id"].n_unique()
    assert frame.filter(frame["event_type"] == "FileIngested").height == 22


class _RefusesFirstPack(DuckDBStore):
    """A store whose first bulk append is refused, as when another writer got there first."""

    refused = False

    def append_frame(self, frame: pl.DataFrame) -> int:
        if not self.refused:
            self.refused = True
            raise WrongExpectedVersion("tournament-x", -1, 0)
        return super().append_frame(frame)


def test_a_refused_pack_is_retried_file_by_file() -> None:
    store = _RefusesFirstPack(":memory:")
    report = ingest(store, discover([require_testdata("go", "h9")]))
    assert store.refused
    assert report.count(Status.INGESTED) == 22
    assert len(store.streams("file-")) == 22
    store.close()


def test_a_refused_pack_also_redoes_the_pack_read_meanwhile() -> None:
    """Packs commit in the background while the next files are read: when one is refused, the
    next was prepared on what it would have committed, and is prepared again too."""
    store = _RefusesFirstPack(":memory:")
    files = discover([require_testdata("go", "h9")])
    report = ingest(store, files, IngestOptions(pack_rows=300))
    assert store.refused
    assert report.count(Status.INGESTED) == 22
    assert len(store.streams("file-")) == 22
    tournaments = store.streams("tournament-")
    assert len(tournaments) == 22
    assert not [t for t in tournaments if t.endswith("-2")]  # no file got a second id
    frame = store.read_frame()
    assert frame.height == frame["event_id"].n_unique()
    store.close()
