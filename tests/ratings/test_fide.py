"""FIDE Elo: tables 8.1a/8.1b, K rules, the 400-point rule, initial ratings, a rated period."""

from __future__ import annotations

import datetime as dt

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ratings.fide import (
    FideParams,
    PlayerState,
    capped_difference,
    expected_score,
    fide_list,
    initial_rating,
    k_factor,
    march_2024_adjustment,
    performance_difference,
    performance_rating,
    rate_months,
    rate_period,
)
from ratings.games import games_frame
from tests.ratings.players_frame import players_frame

P = FideParams()
MARCH_2024 = dt.date(2024, 3, 1)
NOV_2025 = dt.date(2025, 11, 1)


@pytest.mark.parametrize(
    ("difference", "pd"),
    [(0, 0.50), (3, 0.50), (4, 0.51), (92, 0.63), (98, 0.63), (99, 0.64), (106, 0.64),
     (392, 0.92), (411, 0.92), (412, 0.93), (735, 0.99), (736, 1.0), (-100, 0.36)],
)  # fmt: skip
def test_table_8_1b(difference: int, pd: float) -> None:
    assert expected_score(difference) == pd


@given(st.integers(-1000, 1000))
def test_expectations_are_complementary(difference: int) -> None:
    assert expected_score(difference) + expected_score(-difference) == pytest.approx(1.0)


@pytest.mark.parametrize(
    ("p", "dp"),
    [(1.0, 800), (0.99, 677), (0.92, 401), (0.75, 193), (0.5, 0), (0.51, 7), (0.25, -193),
     (0.0, -800)],
)  # fmt: skip
def test_table_8_1a(p: float, dp: int) -> None:
    assert performance_difference(p) == dp


def test_performance_rating_uses_the_whole_table() -> None:
    # 7 of 9 (p = .78 → 220) against an average of 2500.
    assert performance_rating([2500.0] * 9, 7.0) == 2720.0
    with pytest.raises(ValueError, match="expected at least one"):
        performance_rating([], 0.0)


def test_400_point_rule_and_its_2025_amendment() -> None:
    assert capped_difference(2000, 2500, P, MARCH_2024) == -400
    assert capped_difference(2700, 2200, P, MARCH_2024) == 400
    # From 1 October 2025 a player rated 2650 or more uses the real difference …
    assert capped_difference(2700, 2200, P, NOV_2025) == 500
    assert expected_score(capped_difference(2700, 2200, P, NOV_2025)) == 0.96
    # … while the lower-rated opponent keeps the cap.
    assert capped_difference(2200, 2700, P, NOV_2025) == -400
    assert capped_difference(2600, 2100, P, NOV_2025) == 400


@pytest.mark.parametrize(
    ("state", "n", "k"),
    [
        (PlayerState(1800, games=10, birth_year=1990), 9, 40),  # new: under 30 games
        (PlayerState(2250, games=100, birth_year=2006), 9, 40),  # 18 in 2024: still junior
        (PlayerState(2250, games=100, birth_year=2005), 9, 20),  # 19 in 2024
        (PlayerState(2310, games=100, birth_year=2008), 9, 20),  # junior rated 2300+
        (PlayerState(2100, games=100, birth_year=1990), 9, 20),
        (PlayerState(2350, games=100, reached_top=True), 9, 10),  # once 2400, always 10
        (PlayerState(2400, games=100), 9, 10),
        (PlayerState(1800, games=10), 20, 35),  # 700 cap: 40·20 > 700
        (PlayerState(2100, games=100), 40, 17),
    ],
)
def test_k_factor(state: PlayerState, n: int, k: int) -> None:
    assert k_factor(state, MARCH_2024, n, P) == k


def test_initial_rating_worked_examples() -> None:
    # Average with two hypothetical 1800 draws: 1800; p = (3 + 1)/7 = .57 → dp 50.
    assert initial_rating([1600, 1700, 1800, 1900, 2000], 3.0, P) == 1850.0
    # Capped at 2200: avg (5·2400 + 2·1800)/7 = 2228.6, p = 6/7 = .86 → +309.
    assert initial_rating([2400] * 5, 5.0, P) == 2200.0
    # Below the 1400 floor: avg 1514.3, p = 1.5/7 = .21 → -230 → 1284, not published.
    assert initial_rating([1400] * 5, 0.5, P) is None
    assert initial_rating([1800] * 4, 2.0, P) is None  # fewer than 5 games
    assert initial_rating([1800] * 6, 0.0, P) is None  # a zero score is disregarded


def test_march_2024_adjustment() -> None:
    assert march_2024_adjustment(1500) == 1700.0
    assert march_2024_adjustment(1000) == 1400.0
    assert march_2024_adjustment(1999) == 1999.0
    assert march_2024_adjustment(2000) == 2000.0
    assert march_2024_adjustment(999) == 999.0


def _players(rows: list[tuple[str, float | None, int, int | None]]) -> pl.DataFrame:
    return players_frame([(pid, pid, rating, games, birth) for pid, rating, games, birth in rows])


def _games(rows: list[tuple[str, str, float]], day: dt.date = MARCH_2024) -> pl.DataFrame:
    return games_frame(
        date=[day] * len(rows),
        player_a=[a for a, _, _ in rows],
        player_b=[b for _, b, _ in rows],
        score_a=[s for _, _, s in rows],
        game="chess",
    )


def test_a_rated_period_worked_example() -> None:
    players = _players(
        [
            ("P", 2000, 100, 1980),
            ("Q", 1900, 100, 1980),
            ("R", 2100, 100, 1980),
            ("S", None, 0, None),
        ]
    )
    games = _games([("P", "Q", 1.0), ("R", "P", 0.5), ("S", "P", 1.0)])
    period = rate_period(players, games, period_start=MARCH_2024)
    changes = {row["player_id"]: row for row in period.changes.iter_rows(named=True)}
    # P: 20·((1 - .64) + (.5 - .36)) = +10; the game against unrated S is not rated.
    assert (changes["P"]["k"], changes["P"]["games"], changes["P"]["change"]) == (20, 2, 10)
    assert changes["P"]["rating_after"] == 2010.0
    assert changes["Q"]["change"] == -7  # 20·(0 - .36) = -7.2
    assert changes["R"]["change"] == -3  # 20·(.5 - .64) = -2.8
    assert changes["S"]["status"] == "not rated"
    after = dict(zip(period.players["player_id"], period.players["rating"], strict=True))
    assert after == {"P": 2010.0, "Q": 1893.0, "R": 2097.0, "S": None}
    assert period.game_deltas.filter(pl.col("player_id") == "P")["delta"].sum() == pytest.approx(
        10.0
    )


def test_an_unrated_player_gets_an_initial_rating() -> None:
    opponents = [("O1", 1600.0), ("O2", 1700.0), ("O3", 1800.0), ("O4", 1900.0), ("O5", 2000.0)]
    players = _players([(pid, r, 100, 1980) for pid, r in opponents])
    games = _games(
        [("U", "O1", 1.0), ("U", "O2", 1.0), ("U", "O3", 0.5), ("U", "O4", 0.5), ("O5", "U", 1.0)]
    )
    period = rate_period(players, games, period_start=MARCH_2024)
    u = period.changes.filter(pl.col("player_id") == "U").row(0, named=True)
    assert (u["status"], u["rating_after"], u["games"]) == ("initial", 1850.0, 5)
    o1 = period.changes.filter(pl.col("player_id") == "O1").row(0, named=True)
    assert (o1["games"], o1["change"]) == (0, 0)
    new = period.players.filter(pl.col("player_id") == "U").row(0, named=True)
    assert (new["rating"], new["games"]) == (1850.0, 5)


def test_falling_below_the_floor_unlists_the_player() -> None:
    players = _players([("A", 1405, 100, 1980), ("B", 1405, 100, 1980), ("C", 1405, 100, 1980)])
    period = rate_period(
        players, _games([("B", "A", 1.0), ("C", "A", 1.0)]), period_start=MARCH_2024
    )
    a = period.changes.filter(pl.col("player_id") == "A").row(0, named=True)
    assert (a["change"], a["rating_after"], a["status"]) == (-20, None, "below floor")


def test_amendment_breaks_the_symmetry_for_top_players() -> None:
    players = _players([("T", 2700, 500, 1990), ("L", 2200, 500, 1990)])
    games = _games([("T", "L", 1.0)], day=NOV_2025)
    period = rate_period(players, games, period_start=NOV_2025)
    changes = dict(zip(period.changes["player_id"], period.changes["change"], strict=True))
    assert changes == {"L": -2, "T": 0}  # L: 20·(0 - .08) = -1.6; T: 10·(1 - .96) = 0.4


@settings(max_examples=100, deadline=None)
@given(
    st.integers(1400, 2399),
    st.integers(1400, 2399),
    st.sampled_from([0.0, 0.5, 1.0]),
    st.booleans(),
)
def test_changes_of_a_game_cancel_with_equal_k(
    rating_a: int, rating_b: int, score: float, after_amendment: bool
) -> None:
    players = _players([("A", rating_a, 100, 1970), ("B", rating_b, 100, 1970)])
    day = NOV_2025 if after_amendment else MARCH_2024
    period = rate_period(players, _games([("A", "B", score)], day=day), period_start=day)
    deltas = period.game_deltas
    assert deltas["k"].to_list() == [20, 20]
    assert deltas["delta"].sum() == pytest.approx(0.0, abs=1e-9)


def test_months_are_folded_in_order() -> None:
    players = _players([("A", 2000, 100, 1980), ("B", 2000, 100, 1980)])
    games = pl.concat(
        [_games([("A", "B", 1.0)], day=dt.date(2024, 4, 20)), _games([("A", "B", 1.0)])]
    )
    history = rate_months(players, games)
    a = history.changes.filter(pl.col("player_id") == "A")
    # March: 20·(1 - .50) = +10 → 2010; April: D = 20 → .53, 20·(1 - .53) = 9.4 → +9.
    assert a["change"].to_list() == [10, 9]
    assert a["period_start"].to_list() == [dt.date(2024, 3, 1), dt.date(2024, 4, 1)]
    assert history.players.filter(pl.col("player_id") == "A")["rating"].item() == 2019.0


def test_unrated_results_are_pooled_across_months() -> None:
    opponents: list[tuple[str, float | None, int, int | None]] = [
        (f"O{i}", 1800.0, 100, 1980) for i in range(5)
    ]
    players = _players(opponents)
    march = _games([("U", "O0", 1.0), ("U", "O1", 1.0), ("O2", "U", 1.0)])
    april = _games([("U", "O3", 1.0), ("O4", "U", 1.0)], day=dt.date(2024, 4, 5))
    history = rate_months(players, pl.concat([march, april]))
    u = history.changes.filter(pl.col("player_id") == "U")
    assert u["status"].to_list() == ["not rated", "initial"]
    # Pooled: 3 of 5 against 1800s, plus two 1800 draws: p = 4/7 = .57 → +50.
    assert u["rating_after"].to_list() == [None, 1850.0]
    assert history.pending == {}


def test_the_published_list_pools_a_newcomer_over_months() -> None:
    """Rule 8.2 (ratings.md §3.4): results pooled over events within 26 months; the list
    folds months with the pooled results carried (3 games in March, 2 in April)."""
    players = _players([(f"O{i}", 1800.0, 100, 1980) for i in range(5)])
    march = _games([("U", "O0", 1.0), ("U", "O1", 1.0), ("O2", "U", 1.0)])
    april = _games([("U", "O3", 1.0), ("O4", "U", 1.0)], day=dt.date(2024, 4, 5))
    listing = fide_list(pl.concat([march, april]), players, dt.date(2024, 5, 1))
    u = listing.filter(pl.col("player_id") == "U").row(0, named=True)
    # 3 of 5 against 1800s plus two hypothetical 1800 draws: p = 4/7 = .57, dp 50 → 1850.
    assert (u["rating"], u["official"], u["games"]) == (1850.0, True, 5)


def test_zero_first_score_and_the_pooling_window() -> None:
    players = _players([(f"O{i}", 1800.0, 100, 1980) for i in range(5)])
    first = rate_period(
        players, _games([("O0", "U", 1.0), ("O1", "U", 1.0)]), period_start=MARCH_2024
    )
    assert first.changes.filter(pl.col("player_id") == "U")["status"].item() == "disregarded"
    assert first.pending == {}
    old = rate_period(
        players,
        _games([("U", "O0", 1.0)] * 3, day=dt.date(2021, 1, 10)),
        period_start=dt.date(2021, 1, 1),
    )
    assert len(old.pending["U"]) == 3
    later = rate_period(
        players,
        _games([("U", "O1", 1.0), ("U", "O2", 0.0)]),
        period_start=MARCH_2024,
        pending=old.pending,
    )
    # January 2021 is more than 26 months before March 2024: only 2 games remain.
    u = later.changes.filter(pl.col("player_id") == "U").row(0, named=True)
    assert (u["status"], u["games"]) == ("not rated", 2)


def test_a_fold_across_march_2024_applies_the_adjustment() -> None:
    """Ratings between February's and March's games get R + 0.4·(2000 − R) (1500 → 1700);
    a fold that starts in March 2024 does not."""
    players = _players([("A", 1500, 100, 1980), ("B", 1500, 100, 1980), ("C", 2100, 100, 1980)])
    february = _games([("A", "B", 0.5)], day=dt.date(2024, 2, 10))
    march = _games([("A", "C", 0.5)], day=dt.date(2024, 3, 9))
    history = rate_months(players, pl.concat([february, march]))
    ratings = dict(zip(history.players["player_id"], history.players["rating"], strict=True))
    # February: draws at D 0 change nothing. March: A 1700 against C 2100: D −400 → .08,
    # 20·(.5 − .08) = +8.4 → 1708; C: 20·(.5 − .92) = −8.4 → 2092; B 1700 without a game.
    assert ratings == {"A": 1708.0, "B": 1700.0, "C": 2092.0}
    alone = rate_months(players, march)
    assert alone.players.filter(pl.col("player_id") == "B")["rating"].item() == 1500.0
