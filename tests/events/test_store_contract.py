"""The store contract, run against every store backend."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import polars as pl
import pytest

from events.domain import Game, System
from events.duckdb_store import DuckDBStore
from events.schema import PlayerRegistered, TournamentCreated
from events.store import (
    EventIdConflict,
    NewEvent,
    RestoreRefused,
    Store,
    WrongExpectedVersion,
    bulk_frame,
)

StoreFactory = Callable[[], Store]


@pytest.fixture(params=["duckdb-file", "duckdb-memory"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    path = str(tmp_path / "log.duckdb") if request.param == "duckdb-file" else ":memory:"
    s = DuckDBStore(path)
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
