"""The imported rating lists' rows (`events.imported_lists`), on every store backend: written
with their ``RatingListImported`` event, nothing on a duplicate, replaced only when asked, read
back whole or one player, carried by an image."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import polars as pl
import pytest

from events.imported_lists import (
    STREAM,
    Kind,
    imported_lists,
    latest_list,
    lookup,
    rows_digest,
    to_table,
    verify_rows,
)
from events.schema import RatingListImported
from events.store import NewEvent, Store, WrongExpectedVersion
from events.stores import open_store
from tests.events.test_store_contract import store  # noqa: F401 (the fixture)

NOV = dt.date(2025, 11, 1)


def fide_rows(ratings: dict[str, int]) -> pl.DataFrame:
    ids = sorted(ratings)
    return pl.DataFrame(
        {
            "player_id": ids,
            "name": [f"Player {i}" for i in ids],
            "federation": ["NOR"] * len(ids),
            "sex": ["M"] * len(ids),
            "title": [None] * len(ids),
            "birth_year": [1990] * len(ids),
            "rating": [ratings[i] for i in ids],
            "games": [0] * len(ids),
            "k": [20] * len(ids),
            "flag": [None] * len(ids),
        },
        schema_overrides={"title": pl.String, "flag": pl.String},
    )


def imported(
    table: pl.DataFrame, sha: str, date: dt.date = NOV, replaces: str | None = None
) -> NewEvent:
    return NewEvent(
        RatingListImported(
            list_name="fide-standard",
            kind="fide",
            list_date=date,
            source="list.xml",
            source_format="fide-xml",
            source_sha256=sha,
            players=table.height,
            rows_sha256=rows_digest(table),
            replaces=replaces,
        ),
        event_id=f"list-{sha[:8]}-{date}",
    )


def test_rows_are_written_with_their_event_and_read_back(store: Store, tmp_path: Path) -> None:  # noqa: F811
    table = to_table(Kind.FIDE, "fide-standard", NOV, fide_rows({"2": 2100, "1": 2839}))
    store.append_with_list_rows(STREAM, [imported(table, "a" * 64)], -1, table)
    # The same import again: the event is a duplicate, no row is written twice.
    store.append_with_list_rows(STREAM, [imported(table, "a" * 64)], -1, table)
    assert store.list_rows("fide-standard", NOV).height == 2
    assert len(imported_lists(store)) == 1
    found = latest_list(store, "fide-standard")
    assert found is not None
    assert found.rows.get_column("player_id").to_list() == ["1", "2"]
    player = lookup(store, "fide-standard", "1")
    assert player is not None
    assert (player.rating, player.federation, player.k) == (2839, "NOR", 20)
    assert lookup(store, "fide-standard", "3") is None
    assert lookup(store, "fide-standard", "1", at_or_before=dt.date(2025, 10, 1)) is None
    assert verify_rows(store) == []

    other = to_table(Kind.FIDE, "fide-standard", NOV, fide_rows({"1": 2840}))
    event = imported(other, "b" * 64, replaces="a" * 64)
    store.append_with_list_rows(STREAM, [event], 0, other, replace=[("fide-standard", NOV)])
    assert store.list_rows("fide-standard", NOV).height == 1
    assert [i.current for i in imported_lists(store)] == [False, True]
    assert verify_rows(store) == []

    image = store.export_image()
    assert image.list_rows is not None
    assert image.list_rows.height == 1
    with open_store(str(tmp_path / "copy.duckdb")) as copy:
        copy.import_image(image)
        listed = lookup(copy, "fide-standard", "1")
        assert listed is not None
        assert listed.rating == 2840


def test_a_refused_event_writes_no_row(store: Store) -> None:  # noqa: F811
    table = to_table(Kind.FIDE, "fide-standard", NOV, fide_rows({"1": 2839}))
    with pytest.raises(WrongExpectedVersion):
        store.append_with_list_rows(STREAM, [imported(table, "a" * 64)], 5, table)
    assert store.list_rows("fide-standard", NOV).height == 0
