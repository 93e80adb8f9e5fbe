"""The columnar decoder: column types from the event models, old payloads upcast first."""

from __future__ import annotations

import datetime as dt
from typing import Any

import polars as pl
import pytest

from events import schema
from events.frames import decode_frame, payload_dtype
from events.store import EVENT_COLUMNS

NOW = dt.datetime(2026, 1, 1, tzinfo=dt.UTC).replace(tzinfo=None)


def frame(rows: list[tuple[str, int, str]]) -> pl.DataFrame:
    return pl.DataFrame(
        [
            (i + 1, "tournament-t", i, f"e{i}", t, v, p, "{}", NOW)
            for i, (t, v, p) in enumerate(rows)
        ],
        schema=EVENT_COLUMNS,
        orient="row",
    )


def test_types_come_from_the_models() -> None:
    boards = payload_dtype("RoundPaired", ["round", "boards"])
    assert boards == pl.Struct(
        {
            "round": pl.Int64,
            "boards": pl.List(
                pl.Struct(
                    {
                        "board": pl.Int64,
                        "white": pl.Int64,
                        "black": pl.Int64,
                        "handicap": pl.Int64,
                        "komi": pl.Float64,
                    }
                )
            ),
        }
    )
    assert payload_dtype("TournamentCreated", ["start_date", "game"]) == pl.Struct(
        {"start_date": pl.Date, "game": pl.Utf8}
    )
    with pytest.raises(TypeError, match="open mapping"):
        payload_dtype("PlayerRegistered", ["ids"])
    with pytest.raises(KeyError, match="no field 'colour'"):
        payload_dtype("ResultRecorded", ["colour"])


def test_old_schema_versions_are_upcast(monkeypatch: pytest.MonkeyPatch) -> None:
    """A ResultRecorded written by an imagined schema 1 that called the outcome 'score' reads
    as the current schema 2, through the same upcaster `RecordedEvent.event` uses."""

    def rename(data: dict[str, Any]) -> dict[str, Any]:
        data = dict(data)
        data["outcome"] = data.pop("score")
        return data

    monkeypatch.setattr(schema.ResultRecorded, "SCHEMA_VERSION", 2)
    monkeypatch.setitem(schema.UPCASTERS, ("ResultRecorded", 1), rename)
    events = frame(
        [
            ("ResultRecorded", 1, '{"type":"ResultRecorded","round":1,"board":1,"score":"1-0"}'),
            ("ResultRecorded", 2, '{"type":"ResultRecorded","round":1,"board":2,"outcome":"0-1"}'),
            (
                "ResultCorrected",
                1,
                '{"type":"ResultCorrected","round":1,"board":1,"outcome":"1/2-1/2"}',
            ),
        ]
    )
    decoded = decode_frame(events, ["ResultRecorded", "ResultCorrected"], ["board", "outcome"])
    assert decoded.select("global_position", "board", "outcome").rows() == [
        (1, 1, "1-0"),
        (2, 2, "0-1"),
        (3, 1, "1/2-1/2"),
    ]


def test_a_newer_schema_version_is_refused() -> None:
    events = frame(
        [("ResultRecorded", 9, '{"type":"ResultRecorded","round":1,"board":1,"outcome":"1-0"}')]
    )
    with pytest.raises(ValueError, match="newer than this program's 1; upgrade arbiter"):
        decode_frame(events, "ResultRecorded", ["outcome"])
