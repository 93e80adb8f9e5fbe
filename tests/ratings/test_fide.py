"""FIDE Elo from arbiter's own history (no imported list): the one arithmetic of
:mod:`ratings.fide_run` folded month by month (:func:`ratings.fide_run.history_runs`), the K
rule, the initial rating and the March 2024 adjustment. Every expectation is worked by hand from
the regulations (tables 8.1.1/8.1.2, ratings.md §3)."""

from __future__ import annotations

import datetime as dt

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ratings.fide import FideParams, PlayerState, k_factor
from ratings.fide_run import HistoryRun, history_list, history_runs, initial_rating_exact
from ratings.fide_tables import expected_percent
from ratings.games import games_frame
from tests.ratings.players_frame import players_frame

P = FideParams()
MARCH_2024 = dt.date(2024, 3, 1)
NOV_2025 = dt.date(2025, 11, 1)


@pytest.mark.parametrize(
    ("difference", "pd"),
    [(0, 50), (3, 50), (4, 51), (92, 63), (98, 63), (99, 64), (106, 64), (392, 92), (411, 92),
     (412, 93), (735, 99), (736, 100)],
)  # fmt: skip
def test_table_8_1_2(difference: int, pd: int) -> None:
    assert expected_percent(difference) == pd


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
    assert initial_rating_exact([1600, 1700, 1800, 1900, 2000], 6) == 1850
    # Capped at 2200: avg (5·2400 + 2·1800)/7 = 2228.6, p = 6/7 = .86 → +309.
    assert initial_rating_exact([2400] * 5, 10) == 2200
    # Below the 1400 floor: avg 1514.3, p = 1.5/7 = .21 → -230 → 1284, not published.
    assert initial_rating_exact([1400] * 5, 1) is None
    assert initial_rating_exact([1800] * 4, 4) is None  # fewer than 5 games
    assert initial_rating_exact([1800] * 6, 0) is None  # a zero score


def _players(rows: list[tuple[str, float | None, int, int | None]]) -> pl.DataFrame:
    return players_frame([(pid, pid, rating, games, birth) for pid, rating, games, birth in rows])


def _games(rows: list[tuple[str, str, float]], day: dt.date = MARCH_2024) -> pl.DataFrame:
    return games_frame(
        date=[day] * len(rows),
        event=[f"e{day}"] * len(rows),
        player_a=[a for a, _, _ in rows],
        player_b=[b for _, b, _ in rows],
        score_a=[s for _, _, s in rows],
        game="chess",
    )


def _fold(players: pl.DataFrame, games: pl.DataFrame) -> HistoryRun:
    last = games.get_column("date").max()
    assert isinstance(last, dt.date)
    return history_runs(games, players, last + dt.timedelta(days=1))


def _changes(history: HistoryRun) -> pl.DataFrame:
    return pl.concat([r.changes.with_columns(list_date=pl.lit(r.list_date)) for r in history.runs])


def _ratings(history: HistoryRun) -> dict[str, float | None]:
    return dict(zip(history.players["player_id"], history.players["rating"], strict=True))


def test_a_rated_period_worked_example() -> None:
    players = _players(
        [
            ("P", 2000, 100, 1980),
            ("Q", 1900, 100, 1980),
            ("R", 2100, 100, 1980),
            ("S", None, 0, None),
        ]
    )
    history = _fold(players, _games([("P", "Q", 1.0), ("R", "P", 0.5), ("S", "P", 1.0)]))
    changes = {row["player_id"]: row for row in _changes(history).iter_rows(named=True)}
    # P: 20·((1 - .64) + (.5 - .36)) = +10; the game against unrated S is not rated (8.3.1).
    assert (changes["P"]["K"], changes["P"]["games"], changes["P"]["change"]) == (20, 2, 10)
    assert changes["Q"]["change"] == -7  # 20·(0 - .36) = -7.20
    assert changes["R"]["change"] == -3  # 20·(.5 - .64) = -2.80
    assert changes["S"]["status"] == "not rated"
    assert _ratings(history) == {"P": 2010.0, "Q": 1893.0, "R": 2097.0, "S": None}


def test_an_unrated_player_gets_an_initial_rating() -> None:
    opponents = [("O1", 1600.0), ("O2", 1700.0), ("O3", 1800.0), ("O4", 1900.0), ("O5", 2000.0)]
    players = _players([(pid, r, 100, 1980) for pid, r in opponents])
    games = _games(
        [("U", "O1", 1.0), ("U", "O2", 1.0), ("U", "O3", 0.5), ("U", "O4", 0.5), ("O5", "U", 1.0)]
    )
    history = _fold(players, games)
    u = _changes(history).filter(pl.col("player_id") == "U").row(0, named=True)
    assert (u["status"], u["rating_after"], u["games"]) == ("initial", 1850, 5)
    o1 = _changes(history).filter(pl.col("player_id") == "O1").row(0, named=True)
    assert (o1["games"], o1["change"]) == (0, 0)
    new = history.players.filter(pl.col("player_id") == "U").row(0, named=True)
    assert (new["rating"], new["games"]) == (1850.0, 5)


def test_falling_below_the_floor_unlists_the_player() -> None:
    players = _players([("A", 1405, 100, 1980), ("B", 1405, 100, 1980), ("C", 1405, 100, 1980)])
    history = _fold(players, _games([("B", "A", 1.0), ("C", "A", 1.0)]))
    a = _changes(history).filter(pl.col("player_id") == "A").row(0, named=True)
    assert (a["change"], a["rating_after"], a["status"]) == (-20, None, "below floor")
    assert _ratings(history)["A"] is None


def test_amendment_breaks_the_symmetry_for_top_players() -> None:
    players = _players([("T", 2700, 500, 1990), ("L", 2200, 500, 1990)])
    history = _fold(players, _games([("T", "L", 1.0)], day=NOV_2025))
    changes = _changes(history)
    # L: 20·(0 - .08) = -1.60 → -2; T (2650+ since 1 October 2025): D 500 → .96, 10·.04 → 0.
    assert dict(zip(changes["player_id"], changes["change"], strict=True)) == {"L": -2, "T": 0}


@settings(max_examples=25, deadline=None)
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
    day = NOV_2025 if after_amendment else dt.date(2024, 4, 1)
    history = _fold(players, _games([("A", "B", score)], day=day))
    audit = history.runs[-1].games
    assert audit["K"].to_list() == [20, 20]
    assert sum(audit["K_chg"].to_list()) == 0


def test_months_are_folded_in_order() -> None:
    players = _players([("A", 2000, 100, 1980), ("B", 2000, 100, 1980)])
    games = pl.concat(
        [_games([("A", "B", 1.0)], day=dt.date(2024, 4, 20)), _games([("A", "B", 1.0)])]
    )
    history = _fold(players, games)
    a = _changes(history).filter(pl.col("player_id") == "A")
    # March: 20·(1 - .50) = +10 → 2010; April: D = 20 → .53, 20·(1 - .53) = 9.40 → +9.
    assert a["change"].to_list() == [10, 9]
    assert a["list_date"].to_list() == [dt.date(2024, 4, 1), dt.date(2024, 5, 1)]
    assert _ratings(history)["A"] == 2019.0


def test_unrated_results_are_pooled_across_months() -> None:
    players = _players([(f"O{i}", 1800.0, 100, 1980) for i in range(5)])
    march = _games([("U", "O0", 1.0), ("U", "O1", 1.0), ("O2", "U", 1.0)])
    april = _games([("U", "O3", 1.0), ("O4", "U", 1.0)], day=dt.date(2024, 4, 5))
    history = _fold(players, pl.concat([march, april]))
    u = _changes(history).filter(pl.col("player_id") == "U")
    assert u["status"].to_list() == ["not rated", "initial"]
    # Pooled: 3 of 5 against 1800s, plus two 1800 draws: p = 4/7 = .57 → +50.
    assert u["rating_after"].to_list() == [None, 1850]
    assert history.runs[-1].pending == {}


def test_the_published_list_pools_a_newcomer_over_months() -> None:
    """7.1.4: results pooled over events within 26 months; the list folds months with the
    pooled results carried (3 games in March, 2 in April)."""
    players = _players([(f"O{i}", 1800.0, 100, 1980) for i in range(5)])
    march = _games([("U", "O0", 1.0), ("U", "O1", 1.0), ("O2", "U", 1.0)])
    april = _games([("U", "O3", 1.0), ("O4", "U", 1.0)], day=dt.date(2024, 4, 5))
    listing = history_list(pl.concat([march, april]), players, dt.date(2024, 5, 1))
    u = listing.filter(pl.col("player_id") == "U").row(0, named=True)
    # 3 of 5 against 1800s plus two hypothetical 1800 draws: p = 4/7 = .57, dp 50 → 1850.
    assert (u["rating"], u["official"], u["games"]) == (1850.0, True, 5)


def test_zero_first_score_and_the_pooling_window() -> None:
    players = _players([(f"O{i}", 1800.0, 100, 1980) for i in range(5)])
    first = _fold(players, _games([("O0", "U", 1.0), ("O1", "U", 1.0)]))
    u = _changes(first).filter(pl.col("player_id") == "U")
    assert u["status"].item() == "disregarded"  # 8.2.1
    assert first.runs[-1].pending == {}
    old = _games([("U", "O0", 1.0)] * 3, day=dt.date(2021, 11, 10))
    later = _games([("U", "O1", 1.0), ("U", "O2", 0.0)], day=dt.date(2024, 3, 5))
    history = _fold(players, pl.concat([old, later]))
    # November 2021 is more than 26 months before March 2024: only 2 games remain.
    last = history.runs[-1].changes.filter(pl.col("player_id") == "U").row(0, named=True)
    assert (last["status"], last["games"]) == ("not rated", 2)
    assert len(history.runs[-1].pending["U"]) == 2


def test_a_fold_across_march_2024_applies_the_adjustment() -> None:
    """The list of 1 March 2024 adjusts every rating R + 0.4·(2000 − R) (1500 → 1700); a fold
    that starts after it does not."""
    players = _players([("A", 1500, 100, 1980), ("B", 1500, 100, 1980), ("C", 2100, 100, 1980)])
    february = _games([("A", "B", 0.5)], day=dt.date(2024, 2, 10))
    march = _games([("A", "C", 0.5)], day=dt.date(2024, 3, 9))
    history = _fold(players, pl.concat([february, march]))
    # February: draws at D 0 change nothing; the March list adjusts A and B to 1700. March:
    # A 1700 against C 2100: D −400 → .08, 20·(.5 − .08) = +8.40 → 1708; C: 20·(.5 − .92)
    # = −8.40 → 2092; B 1700 without a game.
    assert _ratings(history) == {"A": 1708.0, "B": 1700.0, "C": 2092.0}
    alone = _fold(players, march)
    assert _ratings(alone)["B"] == 1500.0
