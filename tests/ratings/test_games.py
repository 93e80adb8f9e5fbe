"""The games/players schema and its validation errors."""

from __future__ import annotations

import datetime as dt

import polars as pl
import pytest

from ratings.games import (
    GAMES_SCHEMA,
    SchemaError,
    games_frame,
    validate_games,
    validate_players,
)


def _games() -> pl.DataFrame:
    return games_frame(
        date=[dt.date(2024, 1, 6), dt.date(2024, 1, 7)],
        player_a=["A", "B"],
        player_b=["B", "C"],
        score_a=[1.0, 0.5],
        game="go",
        event="Paris 2024",
        handicap=[None, 2],
        color_a=["black", None],
    )


def test_games_frame_has_exactly_the_schema() -> None:
    frame = _games()
    assert dict(frame.schema) == dict(GAMES_SCHEMA)
    assert frame.get_column("weight").to_list() == [1.0, 1.0]
    assert validate_games(frame) is frame


def test_missing_column_names_it() -> None:
    with pytest.raises(SchemaError, match=r"games:komi: column missing; expected Float64"):
        validate_games(_games().drop("komi"))


def test_wrong_dtype_says_found_and_expected() -> None:
    frame = _games().with_columns(pl.col("score_a").cast(pl.Int64))
    with pytest.raises(SchemaError, match=r"games:score_a: found dtype Int64, expected Float64"):
        validate_games(frame)


@pytest.mark.parametrize(
    ("column", "value", "message"),
    [
        ("score_a", 0.25, r"games:score_a:row 1: found 0.25, expected one of 0, 0.5, 1"),
        ("weight", 0.0, r"games:weight:row 1: found 0.0, expected a positive weight"),
        ("game", "chequers", r"games:game:row 1: found 'chequers'"),
        ("color_a", "red", r"games:color_a:row 1: found 'red', expected null, white or black"),
        ("player_b", "B", r"games:player_b:row 1: found 'B', expected an opponent"),
    ],
)
def test_bad_values_name_column_and_row(column: str, value: object, message: str) -> None:
    frame = _games()
    values = frame.get_column(column).to_list()
    values[1] = value
    frame = frame.with_columns(pl.Series(column, values, dtype=GAMES_SCHEMA[column]))
    with pytest.raises(SchemaError, match=message):
        validate_games(frame)


def test_null_in_required_column() -> None:
    frame = _games().with_columns(pl.Series("event", ["x", None], dtype=pl.Utf8))
    with pytest.raises(SchemaError, match=r"games:event:row 1: found null"):
        validate_games(frame)


def test_schema_error_is_a_value_error() -> None:
    assert issubclass(SchemaError, ValueError)


def test_players_validation() -> None:
    players = pl.DataFrame(
        {
            "player_id": ["A", "B"],
            "name": ["a", "b"],
            "country": [None, "FR"],
            "birth_year": [None, 1990],
        },
        schema={"player_id": pl.Utf8, "name": pl.Utf8, "country": pl.Utf8, "birth_year": pl.Int64},
    )
    assert validate_players(players) is players
    with pytest.raises(SchemaError, match=r"players:player_id:row 1: found duplicate id 'A'"):
        validate_players(players.with_columns(player_id=pl.lit("A")))
    with pytest.raises(SchemaError, match=r"players:rating: found dtype Utf8|String"):
        validate_players(players.with_columns(rating=pl.lit("x")))


def test_tournament_days_are_optional_and_checked() -> None:
    day = dt.date(2024, 1, 6)
    frame = games_frame(
        date=[day], player_a=["A"], player_b=["B"], score_a=[1.0], game="chess",
        event_start=day, event_end=dt.date(2024, 1, 9),
    )  # fmt: skip
    assert frame.schema["event_start"] == pl.Date
    assert (
        validate_games(frame.with_columns(pl.lit(None, dtype=pl.Date).alias("event_end"))).height
        == 1
    )
    with pytest.raises(SchemaError, match=r"games:event_end:row 0: found .*, expected a day ≥"):
        validate_games(frame.with_columns(pl.lit(dt.date(2024, 1, 5)).alias("event_end")))
    with pytest.raises(SchemaError, match=r"games:event_start: found dtype String"):
        validate_games(frame.with_columns(pl.lit("2024-01-06").alias("event_start")))
