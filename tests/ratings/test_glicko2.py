"""Glicko-2: Glickman's worked example, inactivity, and the period fold."""

from __future__ import annotations

import datetime as dt
import math

import polars as pl
import pytest

from ratings.games import games_frame
from ratings.glicko2 import (
    GLICKO2_SCALE,
    Glicko2Params,
    Glicko2Rating,
    Period,
    rate_periods,
    update,
)

ME = Glicko2Rating(1500, 200, 0.06)
OPPONENTS = [
    Glicko2Rating(1400, 30, 0.06),
    Glicko2Rating(1550, 100, 0.06),
    Glicko2Rating(1700, 300, 0.06),
]


def test_glickman_worked_example() -> None:
    # "Example of the Glicko-2 system" (τ = 0.5): 1464.05 / 151.52 / 0.05999.
    new = update(ME, list(zip(OPPONENTS, [1.0, 0.0, 0.0], strict=True)), Glicko2Params(tau=0.5))
    assert new.rating == pytest.approx(1464.05, abs=0.01)
    assert new.deviation == pytest.approx(151.52, abs=0.01)
    assert new.volatility == pytest.approx(0.05999, abs=1e-5)


def test_a_period_without_games_only_grows_the_deviation() -> None:
    new = update(ME, [])
    phi = math.sqrt((200 / GLICKO2_SCALE) ** 2 + 0.06**2)
    assert (new.rating, new.volatility) == (1500, 0.06)
    assert new.deviation == pytest.approx(phi * GLICKO2_SCALE)
    assert update(Glicko2Rating(1500, 350, 0.06), []).deviation == 350.0


def _games(rows: list[tuple[dt.date, str, str, str, float]]) -> pl.DataFrame:
    return games_frame(
        date=[r[0] for r in rows],
        event=[r[1] for r in rows],
        player_a=[r[2] for r in rows],
        player_b=[r[3] for r in rows],
        score_a=[r[4] for r in rows],
        game="carrom",
    )


def test_fold_reproduces_the_worked_example_in_one_month() -> None:
    day = dt.date(2024, 3, 2)
    games = _games(
        [(day, "E", "me", "o1", 1.0), (day, "E", "o2", "me", 1.0), (day, "F", "me", "o3", 0.0)]
    )
    initial = {"me": ME, "o1": OPPONENTS[0], "o2": OPPONENTS[1], "o3": OPPONENTS[2]}
    history = rate_periods(games, initial=initial)
    me = history.filter(pl.col("player_id") == "me").row(0, named=True)
    assert (me["period"], me["games"]) == ("2024-03-01", 3)
    assert me["rating"] == pytest.approx(1464.05, abs=0.01)
    assert me["deviation"] == pytest.approx(151.52, abs=0.01)


def test_event_periods_and_inactivity() -> None:
    day = dt.date(2024, 3, 2)
    games = _games([(day, "E1", "a", "b", 1.0), (day, "E2", "a", "c", 1.0)])
    by_event = rate_periods(games, Glicko2Params(period=Period.EVENT))
    assert by_event["period"].unique(maintain_order=True).to_list() == [
        "2024-03-02 E1",
        "2024-03-02 E2",
    ]
    b_rows = by_event.filter(pl.col("player_id") == "b")
    assert b_rows["games"].to_list() == [1, 0]  # b sat out E2: deviation grows
    assert b_rows["deviation"][1] > b_rows["deviation"][0]
    sol_style = rate_periods(games, Glicko2Params(period=Period.EVENT, grow_inactive=False))
    assert sol_style.filter(pl.col("player_id") == "b")["games"].to_list() == [1]
