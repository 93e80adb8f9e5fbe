"""The whole WOF .ELO archive (7,938 files) in one ingest: what lands, what is refused."""

from __future__ import annotations

from events.duckdb_store import DuckDBStore
from pipelines.jobs.ingest import Status, discover, ingest
from tests.conftest import require_testdata

# Files whose result lines pair an id with itself: no game to rate, so the reader rejects them.
SELF_PAIRED = {
    "19911110_52_Kyoto_meeting.ELO",
    "19990711_ITAL7.ELO",
    "20000219_CZ_2.ELO",
    "20010915_1_Sea_of_Japan_Open.ELO",
    "20020825_2_anti_resistance_game.ELO",
    "20051009_GPO1_06_CZ.ELO",
    "20061216_8_King_State_Cup_B.ELO",
    "20070723_96_MEETING.ELO",
    "20070916_2_Ouza_sen.ELO",
    "20110402_CH_THAILAND.ELO",
    "20110813_Rinkai_CC_Beg_B72.ELO",
    "20121216_Grand_Prix_Warsaw.ELO",
    "20130217_Milano_open.ELO",
    "20130907_CH_Poland.ELO",
    "20170604_CH_Poland.ELO",
    "20260531_99_Tatebayashi_open.ELO",
    "20260720_100_Tatebayashi_open.ELO",
}


def test_whole_elo_archive() -> None:
    files = discover([require_testdata("othello", "elo")])
    assert len(files) == 7938
    store = DuckDBStore(":memory:")
    report = ingest(store, files)
    failed = {
        f.path.rsplit("/", 1)[-1]: f.error or "" for f in report.files if f.status is Status.FAILED
    }
    assert set(failed) == SELF_PAIRED
    assert all("a player is paired with himself (found '" in e for e in failed.values())
    # Byte-identical files under two names: the second one is recognised, not loaded again.
    duplicates = [f for f in report.files if f.status is Status.DUPLICATE]
    assert len(duplicates) == 3
    assert all(f.tournament for f in duplicates)
    summary = report.summary()
    assert summary["ingested"] == 7918
    assert summary["games"] == 429_149
    frame = store.read_frame(stream_prefix="file-")
    assert frame.height == 7918
    assert len(store.streams("player-wof-")) > 10_000
    store.close()
