"""EGF GoR: the published check value, worked examples of both formulas, event folding."""

from __future__ import annotations

import datetime as dt
import math

import polars as pl
import pytest

from ratings.egf import (
    EgfParams,
    Formula,
    UnknownPlayerError,
    con_1998,
    con_2021,
    game_change,
    rate_events,
    rating_from_grade,
)
from ratings.games import games_frame

OLD = EgfParams(formula=Formula.EGF_1998)


def test_2021_check_value() -> None:
    # ratings.md §4.3: a 2100 player beating a 2100 player: con 17.58, bonus 0.516, 2109.306.
    assert con_2021(2100) == pytest.approx(17.58, abs=0.005)
    assert round(2100 + game_change(2100, 2100, 1.0, EgfParams()), 3) == 2109.306


def test_1998_worked_example() -> None:
    # A = 2000 beats B = 2100: a = (4100 - 2000)/20 = 105, SE(A) = 1/(e^(100/105) + 1),
    # SE(B) = 1 - 0.016 - SE(A); con 27 and 24 from the table.
    se_a = 1 / (math.exp(100 / 105) + 1)
    assert game_change(2000, 2100, 1.0, OLD) == pytest.approx(27 * (1 - se_a))
    assert game_change(2100, 2000, 0.0, OLD) == pytest.approx(-24 * (1 - 0.016 - se_a))
    assert game_change(2000, 2100, 1.0, OLD) == pytest.approx(19.483, abs=1e-3)


def test_1998_handicap_adjusts_the_weaker_rating() -> None:
    # 1900 takes 2 stones from 2100: 1900 + 100·(2 - ½) = 2050, D' = 50, a = (4100 - 2050)/20.
    se = 1 / (math.exp(50 / 102.5) + 1)
    change = game_change(1900, 2100, 1.0, OLD, own_handicap=150.0)
    assert change == pytest.approx(31 * (1 - se))


@pytest.mark.parametrize(
    ("rating", "con"), [(50, 116), (100, 116), (1950, 29), (2700, 10), (3000, 10)]
)
def test_1998_con_interpolation(rating: float, con: float) -> None:
    assert con_1998(rating) == pytest.approx(con)


@pytest.mark.parametrize(
    ("grade", "rating"), [("20k", 100), ("1k", 2000), ("1d", 2100), ("6d", 2600), ("7d", 2700),
                          ("1p", 2700), ("9p", 2940), ("30k", -900)],
)  # fmt: skip
def test_grades(grade: str, rating: float) -> None:
    assert rating_from_grade(grade) == rating


def _players(ratings: dict[str, float]) -> pl.DataFrame:
    return pl.DataFrame(
        {"player_id": list(ratings), "rating": list(ratings.values())},
        schema={"player_id": pl.Utf8, "rating": pl.Float64},
    )


def _games(
    rows: list[tuple[str, str, str, float]], day: dt.date, weight: float = 1.0
) -> pl.DataFrame:
    return games_frame(
        date=[day] * len(rows),
        event=[e for e, _, _, _ in rows],
        player_a=[a for _, a, _, _ in rows],
        player_b=[b for _, _, b, _ in rows],
        score_a=[s for *_, s in rows],
        weight=weight,
        game="go",
    )


def test_events_are_folded_in_date_order() -> None:
    day1, day2 = dt.date(2024, 5, 1), dt.date(2024, 6, 1)
    games = pl.concat(
        [_games([("Later", "B", "A", 1.0)], day2), _games([("First", "A", "B", 1.0)], day1)]
    )
    result = rate_events(_players({"A": 2100.0, "B": 2100.0}), games)
    changes = result.changes
    assert changes["event"].to_list() == ["First", "First", "Later", "Later"]
    first_a = changes.filter((pl.col("event") == "First") & (pl.col("player_id") == "A"))
    later_a = changes.filter((pl.col("event") == "Later") & (pl.col("player_id") == "A"))
    assert first_a["rating_after"].item() == pytest.approx(2109.306, abs=1e-3)
    assert later_a["rating_before"].item() == first_a["rating_after"].item()


def test_games_of_one_event_use_the_ratings_before_it() -> None:
    day = dt.date(2024, 5, 1)
    games = _games([("E", "A", "B", 1.0), ("E", "A", "B", 1.0)], day)
    result = rate_events(_players({"A": 2100.0, "B": 2100.0}), games)
    a = result.changes.filter(pl.col("player_id") == "A").row(0, named=True)
    assert a["games"] == 2
    assert a["change"] == pytest.approx(2 * 9.306, abs=2e-3)


def test_class_weight_scales_the_change() -> None:
    day = dt.date(2024, 5, 1)
    full = rate_events(_players({"A": 2100.0, "B": 2100.0}), _games([("E", "A", "B", 1.0)], day))
    half = rate_events(
        _players({"A": 2100.0, "B": 2100.0}), _games([("E", "A", "B", 1.0)], day, weight=0.5)
    )
    assert half.changes["change"].to_list() == pytest.approx(
        [0.5 * c for c in full.changes["change"].to_list()]
    )


def test_floor_and_unknown_players() -> None:
    day = dt.date(2024, 5, 1)
    games = _games([("E", "A", "B", 0.0)] * 3, day)
    result = rate_events(_players({"A": -890.0, "B": -890.0}), games)
    assert (
        dict(zip(result.ratings["player_id"], result.ratings["rating"], strict=True))["A"] == -900.0
    )
    with pytest.raises(UnknownPlayerError, match=r"E:C: found a player without a starting rating"):
        rate_events(_players({"A": 2000.0}), _games([("E", "A", "C", 1.0)], day))
    started = rate_events(
        _players({"A": 2000.0}),
        _games([("E", "A", "C", 1.0)], day),
        EgfParams(start_rating=rating_from_grade("20k")),
    )
    assert started.changes.filter(pl.col("player_id") == "C")["rating_before"].item() == 100.0
