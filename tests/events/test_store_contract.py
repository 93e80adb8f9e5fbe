"""The store contract, run against every store backend: DuckDB file, DuckDB in memory and
PostgreSQL (a throwaway server, see tests/postgres.py), all opened through `open_store`.

``postgresql-steps`` is PostgreSQL with its one-statement append (``arbiter_append``) turned
off, so that the log's own append steps run there too: the same expectations hold for both
ways, which is what keeps the PL/pgSQL restatement of the append rule and of the hash chains
in step with `events.log` and `events.hashes`."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import polars as pl
import pytest

from events.chain import verify_scan
from events.domain import Game, System
from events.schema import PlayerRegistered, TournamentCreated
from events.store import (
    EVENT_COLUMNS,
    EventIdConflict,
    NewEvent,
    RestoreRefused,
    Store,
    WrongExpectedVersion,
)
from events.stores import init_store, open_store
from tests.events.bulk import bulk_frame

StoreFactory = Callable[[], Store]

BACKENDS = ["duckdb-file", "duckdb-memory", "postgresql", "postgresql-steps"]


def store_url(backend: str, request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if backend == "duckdb-file":
        return str(tmp_path / "log.duckdb")
    if backend == "duckdb-memory":
        return ":memory:"
    url: str = request.getfixturevalue("postgres_url")
    init_store(url)
    return url


@pytest.fixture(params=BACKENDS)
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    url = store_url(request.param, request, tmp_path)
    if request.param == "postgresql-steps":
        from events.postgres_store import PostgresStore

        s: Store = PostgresStore(url, one_statement_append=False)
    else:
        s = open_store(url)
    yield s
    s.close()


def created(tid: str = "t") -> NewEvent:
    return NewEvent(
        TournamentCreated(
            tournament_id=tid, name=tid, game=Game.CHESS, system=System.ROUNDROBIN, rounds=3
        )
    )


def player(i: int) -> NewEvent:
    return NewEvent(PlayerRegistered(player=i, name=f"Player {i}"))


def test_append_assigns_versions_and_positions(store: Store) -> None:
    a = store.append("tournament-a", [created("a")], -1)
    b = store.append("tournament-b", [created("b")], -1)
    c = store.append("tournament-a", [player(1), player(2)], 0)
    assert (a.first_version, a.last_version) == (0, 0)
    assert (c.first_version, c.last_version) == (1, 2)
    assert a.positions[0] < b.positions[0] < c.positions[0] < c.positions[1]
    assert [e.version for e in store.read_stream("tournament-a")] == [0, 1, 2]
    assert store.stream_version("tournament-a") == 2
    assert store.stream_version("tournament-missing") == -1


def test_stale_version_is_rejected_and_appends_nothing(store: Store) -> None:
    store.append("tournament-a", [created("a")], -1)
    store.append("tournament-a", [player(1)], 0)
    with pytest.raises(WrongExpectedVersion, match="expected version 0, found 1"):
        store.append("tournament-a", [player(2)], 0)
    with pytest.raises(WrongExpectedVersion):
        store.append("tournament-a", [created("a")], -1)
    assert store.stream_version("tournament-a") == 1


def test_duplicate_event_id_is_ignored(store: Store) -> None:
    store.append("tournament-a", [created("a")], -1)
    first = player(1)
    r1 = store.append("tournament-a", [first], 0)
    # The same event again (a retried command, a re-ingested file) is a no-op,
    # even with a stale expected version.
    r2 = store.append("tournament-a", [first], 0)
    assert r2.duplicate
    assert r2.positions == r1.positions
    assert len(store.read_stream("tournament-a")) == 2


def test_same_event_id_with_other_payload_conflicts(store: Store) -> None:
    store.append("tournament-a", [created("a")], -1)
    e = player(1)
    store.append("tournament-a", [e], 0)
    other = NewEvent(PlayerRegistered(player=1, name="Someone Else"), event_id=e.event_id)
    with pytest.raises(EventIdConflict):
        store.append("tournament-a", [other], 1)


def test_read_all_after_position(store: Store) -> None:
    store.append("tournament-a", [created("a")], -1)
    store.append("tournament-b", [created("b")], -1)
    store.append("tournament-a", [player(1)], 0)
    everything = store.read_all()
    assert [e.stream_id for e in everything] == ["tournament-a", "tournament-b", "tournament-a"]
    after = store.read_all(after_position=everything[0].position)
    assert [e.position for e in after] == [e.position for e in everything[1:]]
    frame = store.read_frame(stream_prefix="tournament-b")
    assert frame["stream_id"].to_list() == ["tournament-b"]


def test_bulk_append_frame(store: Store) -> None:
    store.append("tournament-a", [created("a")], -1)
    frame = pl.concat(
        [
            bulk_frame("tournament-a", 1, [player(i) for i in range(1, 101)]),
            bulk_frame("tournament-b", 0, [created("b"), player(1)]),
        ]
    )
    assert store.append_frame(frame) == 102
    assert store.stream_version("tournament-a") == 100
    assert store.stream_version("tournament-b") == 1
    positions = [e.position for e in store.read_all()]
    assert positions == sorted(set(positions))
    # the hash chains computed before the rows went in hold for the rows as stored (their
    # recording time included)
    with store.chain_scan(50) as scan:
        assert verify_scan(scan) is None


def test_bulk_append_is_all_or_nothing(store: Store) -> None:
    store.append("tournament-a", [created("a")], -1)
    good = bulk_frame("tournament-b", 0, [created("b")])
    stale = bulk_frame("tournament-a", 0, [player(1)])  # version 0 exists already
    with pytest.raises(WrongExpectedVersion):
        store.append_frame(pl.concat([good, stale]))
    assert store.stream_version("tournament-b") == -1
    dup = bulk_frame("tournament-c", 0, [created("c")])
    store.append_frame(dup)
    again = bulk_frame("tournament-d", 0, [NewEvent(created("d").event, event_id="x")])
    again = pl.concat([again, bulk_frame("tournament-e", 0, [created("e")])]).with_columns(
        pl.when(pl.col("stream_id") == "tournament-e")
        .then(pl.lit(dup["event_id"][0]))
        .otherwise(pl.col("event_id"))
        .alias("event_id")
    )
    with pytest.raises(EventIdConflict):
        store.append_frame(again)
    assert store.stream_version("tournament-d") == -1


def test_truncate_archives_and_restore_brings_back(store: Store) -> None:
    store.append("tournament-a", [created("a")], -1)
    store.append("tournament-a", [player(i) for i in range(1, 5)], 0)
    before = store.read_stream("tournament-a")
    epoch0 = store.log_epoch()
    t = store.truncate("tournament-a", 2, 4, actor="td", reason="test")
    assert (t.from_version, t.to_version, t.event_count) == (3, 4, 2)
    assert (t.from_position, t.to_position) == (before[3].position, before[4].position)
    assert store.stream_version("tournament-a") == 2
    assert [e.event_id for e in store.archived(t.truncation_id)] == [e.event_id for e in before[3:]]
    assert store.log_epoch() > epoch0
    restored = store.restore("tournament-a", actor="td")
    assert restored.restored_by == "td"
    after = store.read_stream("tournament-a")
    assert [(e.version, e.event_id, e.payload) for e in after] == [
        (e.version, e.event_id, e.payload) for e in before
    ]
    # Positions are never reused: the restored events got new, higher positions.
    assert after[3].position > before[4].position
    # The archive keeps its copy: nothing is ever deleted.
    assert len(store.archived(t.truncation_id)) == 2


def test_truncate_checks_expected_version(store: Store) -> None:
    store.append("tournament-a", [created("a")], -1)
    store.append("tournament-a", [player(1)], 0)
    with pytest.raises(WrongExpectedVersion):
        store.truncate("tournament-a", 0, 0, actor="td", reason="stale")


def test_restore_refused_after_new_appends(store: Store) -> None:
    store.append("tournament-a", [created("a")], -1)
    store.append("tournament-a", [player(1), player(2)], 0)
    store.truncate("tournament-a", 0, 2, actor="td", reason="undo")
    store.append("tournament-a", [player(3)], 0)
    with pytest.raises(RestoreRefused, match="appended since"):
        store.restore("tournament-a", actor="td")
    assert store.stream_version("tournament-a") == 1


def test_restore_without_truncation_is_refused(store: Store) -> None:
    store.append("tournament-a", [created("a")], -1)
    with pytest.raises(RestoreRefused, match="no truncated events"):
        store.restore("tournament-a", actor="td")


def test_positions_not_reused_after_truncation(store: Store) -> None:
    store.append("tournament-a", [created("a")], -1)
    r = store.append("tournament-a", [player(1)], 0)
    store.truncate("tournament-a", 0, 1, actor="td", reason="undo")
    r2 = store.append("tournament-a", [player(2)], 0)
    assert r2.positions[0] > r.positions[0]


def test_read_frame_has_the_same_columns_everywhere(store: Store) -> None:
    store.append("tournament-a", [created("a"), player(1)], -1)
    frame = store.read_frame()
    assert frame.schema == pl.Schema(EVENT_COLUMNS)
    assert frame["stream_version"].to_list() == [0, 1]
    recorded = store.read_stream("tournament-a")
    assert frame["recorded_at"].to_list() == [e.recorded_at for e in recorded]
    assert frame["payload"].to_list() == [e.payload for e in recorded]


def test_prefix_is_a_prefix_not_a_pattern(store: Store) -> None:
    store.append("tournament-a_b", [created("a_b")], -1)
    store.append("tournament-axb", [created("axb")], -1)
    store.append("tournament-a%", [created("a%")], -1)
    assert store.streams("tournament-a_") == ["tournament-a_b"]
    assert store.streams("tournament-a%") == ["tournament-a%"]
    assert store.read_frame(stream_prefix="tournament-a_")["stream_id"].to_list() == [
        "tournament-a_b"
    ]
    # Byte order, the same on every backend.
    assert store.streams() == sorted(["tournament-a_b", "tournament-axb", "tournament-a%"])


def test_type_counts_and_payloads_by_prefix(store: Store) -> None:
    """`tournament list`'s reads: counted by the database, the prefix literal (``_``, ``%``
    and a non-ASCII letter), payloads as stored, in log order."""
    store.append("tournament-a_b", [created("a_b")], -1)
    store.append("tournament-axb", [created("axb")], -1)
    name = 'Ünal "Tab\there" \\ back\nslash'
    players = [NewEvent(PlayerRegistered(player=k, name=f"{name} {k}")) for k in (1, 2)]
    store.append("tournament-a_b", players, 0)
    store.append("tournament-Ü", [created("Ü")], -1)
    store.append("other-a_b", [created("o")], -1)
    assert sorted(store.type_counts("tournament-a_")) == [
        ("tournament-a_b", "PlayerRegistered", 2),
        ("tournament-a_b", "TournamentCreated", 1),
    ]
    assert sorted(store.type_counts("tournament-")) == [
        ("tournament-a_b", "PlayerRegistered", 2),
        ("tournament-a_b", "TournamentCreated", 1),
        ("tournament-axb", "TournamentCreated", 1),
        ("tournament-Ü", "TournamentCreated", 1),
    ]
    assert [s for s, _, _ in store.payloads("tournament-Ü", ["TournamentCreated"])] == [
        "tournament-Ü"
    ]
    rows = store.payloads("tournament-", ["PlayerRegistered", "TournamentCreated"])
    stored = [
        (e.stream_id, e.event_type, e.payload)
        for e in store.read_all()
        if e.stream_id.startswith("tournament-")
    ]
    assert rows == stored
    assert store.payloads("tournament-", ["RoundPaired"]) == []


def test_payload_bytes_are_kept(store: Store) -> None:
    name = 'Ünal "Tab\there" \\ back\nslash'
    store.append("tournament-a", [created("a")], -1)
    store.append("tournament-a", [NewEvent(PlayerRegistered(player=1, name=name))], 0)
    frame = store.read_frame()
    (event,) = [e for e in store.read_all() if e.version == 1]
    assert event.event.name == name  # type: ignore[union-attr]
    assert frame["payload"][1] == event.payload
    again = NewEvent(PlayerRegistered(player=1, name=name))
    store.append_frame(bulk_frame("tournament-b", 0, [again]))
    assert store.read_stream("tournament-b")[0].event.name == name  # type: ignore[union-attr]


def test_head_position_and_wait_for_events(store: Store) -> None:
    assert store.head_position() == 0
    assert store.wait_for_events(0, timeout=0.05) is False
    r = store.append("tournament-a", [created("a")], -1)
    assert store.head_position() == r.positions[-1]
    assert store.wait_for_events(0, timeout=0.05) is True
    # A writer in another thread wakes the waiting follower.
    timer = threading.Timer(0.2, lambda: store.append("tournament-a", [player(1)], 0))
    timer.start()
    try:
        assert store.wait_for_events(r.positions[-1], timeout=20) is True
    finally:
        timer.join()
    assert store.head_position() == r.positions[-1] + 1


def test_image_round_trip_keeps_positions_archive_and_counters(
    store: Store, tmp_path: Path
) -> None:
    store.append("tournament-a", [created("a")], -1)
    store.append("tournament-a", [player(i) for i in range(1, 5)], 0)
    store.truncate("tournament-a", 2, 4, actor="td", reason="undo")
    store.append("tournament-b", [created("b")], -1)
    image = store.export_image()
    assert image.events.height == 4
    assert image.archive.height == 2
    assert image.counters == {"next_position": 7, "epoch": 1, "next_truncation": 2}
    with open_store(str(tmp_path / "copy.duckdb")) as copy:
        copy.import_image(image)
        again = copy.export_image()
        assert again.events.equals(image.events)
        assert again.archive.equals(image.archive)
        assert again.truncations.equals(image.truncations)
        assert again.counters == image.counters
        # The copy continues where the original would.
        assert copy.append("tournament-b", [player(1)], 0).positions == (7,)
        assert copy.restore("tournament-a", actor="td").event_count == 2
        with pytest.raises(Exception, match="not empty"):
            copy.import_image(image)


def test_caches_live_where_the_store_says(
    store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ARBITER_CACHE_DIR", str(tmp_path / "cache"))
    tables = {"t": {"stream": pl.Utf8(), "n": pl.Int64()}}
    with store.open_cache("test", tables) as cache:
        cache.write(inserts={"t": pl.DataFrame({"stream": ["a"], "n": [1]})}, meta={"k": 7})
        where = cache.path
    with store.open_cache("test", tables) as cache:
        assert cache.read("t")["n"].to_list() == ([] if where == ":memory:" else [1])
        assert cache.meta() == ({} if where == ":memory:" else {"k": 7})
    if store.url == ":memory:":
        assert where == ":memory:"
    elif store.url.endswith(".duckdb"):
        assert where == str(tmp_path / "log.test.duckdb")
    else:
        assert where.startswith(str(tmp_path / "cache" / "pg-"))


def test_a_duckdb_file_from_before_the_schema_table_is_adopted(tmp_path: Path) -> None:
    import duckdb

    path = str(tmp_path / "old.duckdb")
    with open_store(path) as s:
        s.append("tournament-a", [created("a")], -1)
    with duckdb.connect(path) as con:  # as the first release left its files
        con.execute("DROP TABLE schema_migrations")
        for table in ("events", "events_archive"):
            con.execute(f"ALTER TABLE {table} DROP COLUMN stream_hash")
            con.execute(f"ALTER TABLE {table} DROP COLUMN log_hash")
    assert init_store(path) == (1, 3)
    with open_store(path) as s:
        assert s.stream_version("tournament-a") == 0
    with duckdb.connect(path) as con:
        assert con.execute("SELECT version FROM schema_migrations").fetchall() == [
            (1,),
            (2,),
            (3,),
        ]
        assert con.execute("SELECT count(log_hash) FROM events").fetchall() == [(1,)]
