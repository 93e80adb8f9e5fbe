"""The FIDE list run (ratings/fide_run.py): each rule on a small hand-made period.

The published cases are in test_fide_published.py; here every expected number is worked out
by hand from table 8.1b (ratings.md §3.3) in the test's comment.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from decimal import Decimal
from fractions import Fraction

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ratings.fide_run import (
    GAME_AUDIT_SCHEMA,
    LIST_SCHEMA,
    TOURNAMENT_AUDIT_SCHEMA,
    initial_rating_exact,
    list_in_force,
    lists_needed,
    official_list,
    rated_on,
    run_fide_list,
    run_fide_lists,
)
from ratings.fide_tables import expected_percent
from ratings.games import SchemaError, games_frame
from tests.ratings.players_frame import players_frame

OCT, NOV, DEC = dt.date(2025, 10, 1), dt.date(2025, 11, 1), dt.date(2025, 12, 1)

Row = tuple[str, int | None, int | None]


def _list(rows: Sequence[Row], flags: dict[str, str] | None = None) -> pl.DataFrame:
    """A list as FIDE prints it: (id digits, rating, K), adults, flags by id."""
    return pl.DataFrame(
        {
            "player_id": [r[0] for r in rows],
            "rating": [r[1] for r in rows],
            "k": [r[2] for r in rows],
            "games": [0] * len(rows),
            "birth_year": [1990] * len(rows),
            "sex": [None] * len(rows),
            "flag": [(flags or {}).get(r[0]) for r in rows],
        },
        schema=dict(LIST_SCHEMA),
    )


def _games(
    rows: Sequence[tuple[str, str, float]],
    start: dt.date,
    end: dt.date | None = None,
    event: str = "E",
) -> pl.DataFrame:
    return games_frame(
        date=[start] * len(rows),
        player_a=[f"fide:{a}" if a.isdigit() else a for a, _, _ in rows],
        player_b=[f"fide:{b}" if b.isdigit() else b for _, b, _ in rows],
        score_a=[s for _, _, s in rows],
        game="chess",
        event=event,
        event_start=start,
        event_end=end or start,
    )


def _rating(run_list: pl.DataFrame, player: str) -> int | None:
    value = run_list.filter(pl.col("player_id") == f"fide:{player}")["rating"].item()
    return None if value is None else int(value)


def test_a_period_worked_by_hand() -> None:
    # 1 (2000, K 20) beats 2 (1900, K 20) and draws 3 (2100, K 20).
    # 1: D +100 → .64, D −100 → .36: 20·((1 − .64) + (.5 − .36)) = 20·.50 = +10.00.
    # 2: 20·(0 − .36) = −7.20 → −7. 3: 20·(.5 − .64) = −2.80 → −3.
    lists = {NOV: _list([("1", 2000, 20), ("2", 1900, 20), ("3", 2100, 20)])}
    games = _games([("1", "2", 1.0), ("3", "1", 0.5)], dt.date(2025, 11, 8))
    run = run_fide_list(games, lists, list_date=DEC)
    assert run.previous_date == NOV
    assert [_rating(run.new_list, p) for p in "123"] == [2010, 1893, 2097]
    one = run.changes.filter(pl.col("player_id") == "fide:1").row(0, named=True)
    assert (one["K"], one["games"], one["K_chg"], one["change"]) == (20, 2, Decimal("10.00"), 10)
    assert run.new_list["games"].to_list() == [2, 1, 1]
    assert dict(run.games.schema) == dict(GAME_AUDIT_SCHEMA)
    assert dict(run.tournaments.schema) == dict(TOURNAMENT_AUDIT_SCHEMA)


def test_ratings_come_from_the_list_in_force_at_the_start() -> None:
    """An event of 31 October-2 November, rated on the December list, reads the October list
    for both players; the new rating adds the change to the November list's rating."""
    lists = {
        OCT: _list([("1", 2000, 20), ("2", 2000, 20)]),
        NOV: _list([("1", 2100, 20), ("2", 1900, 20)]),
    }
    games = _games([("1", "2", 1.0)], dt.date(2025, 10, 31), dt.date(2025, 11, 2))
    run = run_fide_list(games, lists, list_date=DEC)
    one = run.games.filter(pl.col("player_id") == "fide:1").row(0, named=True)
    # October: D 0 → .50: 20·(1 − .50) = +10 on November's 2100.
    assert (one["Ro"], one["opponent_rating"], one["K_chg"]) == (2000, 2000, Decimal("10.00"))
    assert run.tournaments["list_date"].to_list() == [OCT, OCT]
    assert _rating(run.new_list, "1") == 2110
    assert list_in_force([OCT, NOV], dt.date(2025, 10, 31)) == OCT
    assert list_in_force([OCT, NOV], dt.date(2025, 9, 30)) is None


def test_a_player_rated_after_the_start_counts_as_unrated_for_the_opponents() -> None:
    """8.2.4: unrated on the list in force, rated on the previous list: rated with that rating,
    unrated for the opponent, whose game is not rated."""
    lists = {
        OCT: _list([("1", None, None), ("2", 2000, 20)]),
        NOV: _list([("1", 1800, 40), ("2", 2000, 20)]),
    }
    games = _games([("1", "2", 1.0)], dt.date(2025, 10, 25), dt.date(2025, 11, 3))
    run = run_fide_list(games, lists, list_date=DEC)
    # 1: D −200 → .24: 40·(1 − .24) = +30.40 → +30. 2: no rated game.
    assert _rating(run.new_list, "1") == 1830
    assert _rating(run.new_list, "2") == 2000
    assert run.games["player_id"].to_list() == ["fide:1"]


def test_k_is_the_printed_k_capped_at_700_over_the_period() -> None:
    """39 games with K 20: 780 > 700, K = ⌊700/39⌋ = 17 (F-P05); the new list prints 20."""
    opponents = [(str(100 + i), 2000, 20) for i in range(39)]
    lists = {NOV: _list([("1", 2000, 20), *opponents])}
    games = _games([("1", o, 1.0) for o, _, _ in opponents], dt.date(2025, 11, 3))
    run = run_fide_list(games, lists, list_date=DEC)
    one = run.changes.filter(pl.col("player_id") == "fide:1").row(0, named=True)
    # 39·17·(1 − .50) = 331.50 → +332 (half away from zero).
    assert (one["K"], one["K_chg"], one["change"]) == (17, Decimal("331.50"), 332)
    row = run.new_list.filter(pl.col("player_id") == "fide:1").row(0, named=True)
    assert (row["rating"], row["k"], row["games"]) == (2332, 20, 39)


def test_a_player_no_imported_list_carries_is_unrated() -> None:
    """Lists imported: a player on none of them is FIDE-unrated whatever rating arbiter holds
    for him (2000 typed, 100 games): his game is not rated for his listed opponent (8.3.1,
    "for each game played against a rated player") and counts toward his own first rating
    (7.1.4: one game of the five)."""
    players = players_frame([("local:x", "X", 2000.0, 100, 1980)])
    lists = {NOV: _list([("2", 2000, 10)])}
    games = _games([("local:x", "2", 1.0)], dt.date(2025, 11, 3))
    run = run_fide_list(games, lists, list_date=DEC, players=players)
    x = run.changes.filter(pl.col("player_id") == "local:x").row(0, named=True)
    assert (x["status"], x["K"], x["change"], x["rating_after"]) == ("not rated", None, None, None)
    two = run.changes.filter(pl.col("player_id") == "fide:2").row(0, named=True)
    assert (two["games"], two["change"], two["rating_after"]) == (0, 0, 2000)
    assert run.games.filter(pl.col("player_id") == "fide:2").height == 0


def test_a_rating_of_zero_is_no_rating() -> None:
    """Without lists arbiter's history stands in; a rating of 0 there is unrated, never Ro 0."""
    players = players_frame([("a", "A", 2000.0, 100, 1980), ("z", "Z", 0.0, 0, 1980)])
    run = run_fide_list(_games([("a", "z", 1.0)], NOV), {}, list_date=DEC, players=players)
    a = run.changes.filter(pl.col("player_id") == "a").row(0, named=True)
    assert (a["games"], a["change"], a["rating_after"]) == (0, 0, 2000)
    # z: unrated, a zero score in his first event is disregarded (8.2.1).
    assert run.changes.filter(pl.col("player_id") == "z")["status"].item() == "disregarded"


@pytest.mark.parametrize(("score", "change"), [(0.0, -3), (1.0, 3)])
def test_half_hundredths_round_away_from_zero(score: float, change: int) -> None:
    # K 5, D 0 → .50: 5·(W − .50) = ±2.50 → ±3 (8.3.4; F-P01: −2.50 → −3).
    lists = {NOV: _list([("1", 2000, 5), ("2", 2000, 5)])}
    run = run_fide_list(_games([("1", "2", score)], dt.date(2025, 11, 3)), lists, list_date=DEC)
    one = run.changes.filter(pl.col("player_id") == "fide:1").row(0, named=True)
    assert one["K_chg"] == Decimal("2.50") * (1 if score else -1)
    assert one["change"] == change


def test_the_400_point_rule_before_and_after_october_2025() -> None:
    # 2700 beats 2200. Period of September 2025 (October list): capped for everyone, D 400 →
    # .92: 10·.08 = +.80 → +1. Period of October 2025 (November list): the 2650+ player uses
    # D 500 → .96: 10·.04 = +.40 → 0; the 2200 player is capped either way: 20·(0 − .08).
    sep, october = dt.date(2025, 9, 1), dt.date(2025, 10, 6)
    before = run_fide_list(
        _games([("1", "2", 1.0)], dt.date(2025, 9, 6)),
        {sep: _list([("1", 2700, 10), ("2", 2200, 20)])},
        list_date=OCT,
    )
    after = run_fide_list(
        _games([("1", "2", 1.0)], october),
        {OCT: _list([("1", 2700, 10), ("2", 2200, 20)])},
        list_date=NOV,
    )
    assert [_rating(before.new_list, p) for p in "12"] == [2701, 2198]
    assert [_rating(after.new_list, p) for p in "12"] == [2700, 2198]
    top = after.games.filter(pl.col("player_id") == "fide:1").row(0, named=True)
    low = after.games.filter(pl.col("player_id") == "fide:2").row(0, named=True)
    assert (top["capped"], top["opponent_rating_used"], top["We"]) == (False, 2200, Decimal("0.96"))
    assert (low["capped"], low["opponent_rating_used"], low["We"]) == (True, 2600, Decimal("0.08"))


@settings(max_examples=100, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(1400, 2900), st.integers(1400, 2900), st.sampled_from([0, 1, 2])),
        min_size=1,
        max_size=12,
    ),
    st.sampled_from([10, 15, 20, 40]),
)
def test_changes_are_exact_hundredths(games: list[tuple[int, int, int]], k: int) -> None:
    """Every K·chg is K·(W − We) exactly (W, We from the scalar table), the total is their sum,
    and the change is that sum rounded half away from zero."""
    entries: list[Row] = [("1", 2000, k)]
    rows = []
    for i, (_, opponent, halves) in enumerate(games):
        entries.append((str(100 + i), opponent, k))
        rows.append(("1", str(100 + i), halves / 2))
    run = run_fide_list(_games(rows, dt.date(2025, 11, 3)), {NOV: _list(entries)}, list_date=DEC)
    mine = run.games.filter(pl.col("player_id") == "fide:1")
    expected_total = Fraction(0)
    for row, (_, opponent, halves) in zip(mine.to_dicts(), games, strict=True):
        used = max(-400, min(400, 2000 - opponent))
        higher = expected_percent(abs(used))  # table 8.1.2, the higher-rated side's PD
        we = Fraction(higher if used >= 0 else 100 - higher, 100)
        chg = Fraction(halves, 2) - we
        assert Fraction(row["K_chg"]) == k * chg
        expected_total += k * chg
    change = run.changes.filter(pl.col("player_id") == "fide:1").row(0, named=True)
    assert Fraction(change["K_chg"]) == expected_total
    magnitude = int(abs(expected_total) + Fraction(1, 2))
    assert change["change"] == (magnitude if expected_total >= 0 else -magnitude)


def test_two_sides_cancel_with_equal_k_below_2650() -> None:
    lists = {NOV: _list([("1", 2300, 20), ("2", 1850, 20)])}
    run = run_fide_list(_games([("1", "2", 0.5)], dt.date(2025, 11, 3)), lists, list_date=DEC)
    assert sum(run.games["K_chg"].to_list()) == 0


def test_march_2024_adjustment_when_a_run_crosses_it() -> None:
    """The March 2024 list from the February one: R + 0.4·(2000 − R) for 1000 ≤ R < 2000, after
    the period's change; a run that does not cross 1 March 2024 leaves ratings alone."""
    feb, mar, apr = dt.date(2024, 2, 1), dt.date(2024, 3, 1), dt.date(2024, 4, 1)
    lists = {feb: _list([("1", 1500, 20), ("2", 1500, 20), ("3", 1200, 20), ("4", 2100, 20)])}
    games = _games([("1", "2", 1.0)], dt.date(2024, 2, 10))
    march = run_fide_list(games, lists, list_date=mar)
    # 1: 1500 + 20·.50 = 1510 → 1510 + 0.4·490 = 1706; 2: 1490 → 1694; 3 did not play: 1200 →
    # 1520; 4 (2100) is not adjusted.
    assert [_rating(march.new_list, p) for p in "1234"] == [1706, 1694, 1520, 2100]
    april = run_fide_list(games.clear(), {**lists, mar: march.new_list}, list_date=apr)
    assert april.new_list["rating"].to_list() == march.new_list["rating"].to_list()


def test_below_the_floor_the_player_is_unrated() -> None:
    lists = {NOV: _list([("1", 1405, 20), ("2", 1405, 20), ("3", 1405, 20)])}
    games = _games([("2", "1", 1.0), ("3", "1", 1.0)], dt.date(2025, 11, 3))
    run = run_fide_list(games, lists, list_date=DEC)
    one = run.changes.filter(pl.col("player_id") == "fide:1").row(0, named=True)
    assert (one["change"], one["rating_after"], one["status"]) == (-20, None, "below floor")


def test_a_newcomer_is_pooled_over_runs() -> None:
    """Three games in November, two in December against 1800s: 3 of 5 plus two 1800 draws,
    p = 4/7 = .57 → dp 50: 1850 on the January list, K 40."""
    opponents: list[Row] = [(str(100 + i), 1800, 20) for i in range(5)]
    lists = {NOV: _list(opponents), DEC: _list(opponents)}
    november = _games([("new", "100", 1.0), ("new", "101", 1.0), ("102", "new", 1.0)], NOV)
    first = run_fide_list(november, lists, list_date=DEC)
    assert first.changes.filter(pl.col("player_id") == "new")["status"].item() == "not rated"
    assert len(first.pending["new"]) == 3
    december = _games([("new", "103", 1.0), ("104", "new", 1.0)], DEC)
    second = run_fide_list(december, lists, list_date=dt.date(2026, 1, 1), pending=first.pending)
    row = second.new_list.filter(pl.col("player_id") == "new").row(0, named=True)
    assert (row["rating"], row["k"], row["games"]) == (1850, 40, 2)
    assert second.pending == {}


def test_a_zero_first_event_is_disregarded() -> None:
    opponents: list[Row] = [(str(100 + i), 1800, 20) for i in range(6)]
    lists = {NOV: _list(opponents)}
    first = _games([("100", "new", 1.0), ("101", "new", 1.0)], NOV, event="first")
    second = _games(
        [("new", o, 0.5) for o in ("102", "103", "104", "105", "100")],
        dt.date(2025, 11, 20),
        event="second",
    )
    run = run_fide_list(pl.concat([second, first]), lists, list_date=DEC)
    change = run.changes.filter(pl.col("player_id") == "new").row(0, named=True)
    # The second event alone: 2.5 of 5 against 1800 plus two 1800 draws → 1800.
    assert (change["status"], change["rating_after"], change["games"]) == ("initial", 1800, 5)
    assert initial_rating_exact([1800] * 5, 5) == 1800
    assert initial_rating_exact([1800] * 4, 5) is None
    assert initial_rating_exact([2400] * 5, 10) == 2200


def test_without_lists_ratings_come_from_arbiter_history() -> None:
    players = players_frame([("a", "A", 2000.0, 100, 1980), ("b", "B", 1900.0, 100, 1980)])
    run = run_fide_list(_games([("a", "b", 1.0)], NOV), {}, list_date=DEC, players=players)
    # K 20 by rule; D +100 → .64: a +7.20 → +7, b −7.
    assert run.previous_date is None
    assert dict(zip(run.new_list["player_id"], run.new_list["rating"], strict=True)) == {
        "a": 2007,
        "b": 1893,
    }
    assert run.tournaments["list_date"].to_list() == [None, None]


def test_flags_k_and_who_is_listed() -> None:
    """A rated game clears the inactivity flag (``wi`` → ``w``, ``i`` → none), a game against
    an unrated player does not; a rating reaching 2400 prints K 10; everyone on the previous
    list stays on the new one."""
    # 1 (2390) beats 2 (2390): 20·(1 − .50) = +10 → 2400.
    entries: list[Row] = [("1", 2390, 20), ("2", 2390, 20), ("3", 2100, 20), ("4", None, None)]
    lists = {NOV: _list(entries, flags={"1": "wi", "2": "i", "3": "wi"})}
    games = _games([("1", "2", 1.0), ("3", "4", 1.0)], NOV)
    run = run_fide_list(games, lists, list_date=DEC)
    rows = {r["player_id"]: r for r in run.new_list.to_dicts()}
    assert set(rows) == {"fide:1", "fide:2", "fide:3", "fide:4"}
    assert (rows["fide:1"]["rating"], rows["fide:1"]["k"], rows["fide:1"]["flag"]) == (
        2400,
        10,
        "w",
    )
    assert rows["fide:2"]["flag"] is None
    assert (rows["fide:3"]["rating"], rows["fide:3"]["flag"], rows["fide:3"]["games"]) == (
        2100,
        "wi",
        0,
    )
    assert rows["fide:4"]["rating"] is None


def test_runs_chain_and_an_imported_list_wins() -> None:
    lists = {OCT: _list([("1", 2000, 20), ("2", 2000, 20)])}
    games = pl.concat(
        [
            _games([("1", "2", 1.0)], dt.date(2025, 10, 5), event="october"),
            _games([("1", "2", 1.0)], dt.date(2025, 11, 5), event="november"),
        ]
    )
    runs = run_fide_lists(games, lists, first=NOV, last=DEC)
    # November: +10 / −10. December from the computed November list: D +20 → .53: +9.40 → +9.
    assert [_rating(r.new_list, "1") for r in runs] == [2010, 2019]
    assert rated_on(games, DEC)["event"].unique().to_list() == ["november"]
    official = {**lists, NOV: _list([("1", 2050, 20), ("2", 1950, 20)])}
    runs = run_fide_lists(games, official, first=NOV, last=DEC)
    # The imported November list is the base of December: D +100 → .64: +7.20 → +7.
    assert _rating(runs[1].new_list, "1") == 2057


def test_inputs_are_checked() -> None:
    lists = {NOV: _list([("1", 2000, 20), ("2", 2000, 20)])}
    with pytest.raises(SchemaError, match=r"expected a day before the list of 2025-12-01"):
        run_fide_list(_games([("1", "2", 1.0)], NOV, DEC), lists, list_date=DEC)
    with pytest.raises(SchemaError, match=r"before the earliest imported list .* \(2025-10-01\)"):
        run_fide_list(_games([("1", "2", 1.0)], dt.date(2025, 10, 30)), lists, list_date=DEC)
    with pytest.raises(SchemaError, match=r"list_date: found 2025-12-02"):
        run_fide_list(_games([], NOV), lists, list_date=dt.date(2025, 12, 2))
    with pytest.raises(SchemaError, match=r"list:player_id:row 1: found '1', expected unique"):
        official_list(_list([("1", 2000, 20), ("1", 2100, 20)]))
    with pytest.raises(SchemaError, match=r"list:rating: found dtype Float64, expected Int64"):
        official_list(pl.DataFrame({"player_id": ["1"], "rating": [2000.0]}))
    assert official_list(pl.DataFrame({"player_id": ["egd:1"], "rating": [None]}))[
        "player_id"
    ].to_list() == ["egd:1"]


def test_a_late_report_is_rated_on_the_first_list_of_the_run() -> None:
    """An event that ended in October is rated on the December list when named late (FIDE
    rated F-P05's August tournament on the October list), from the list in force at its
    start; an event of the run's own period cannot be late, nor one the games lack."""
    sep = dt.date(2025, 9, 1)
    both = _list([("1", 2000, 20), ("2", 2000, 20)])
    lists = {sep: both, NOV: both}
    games = pl.concat(
        [
            _games([("1", "2", 1.0)], dt.date(2025, 9, 28), dt.date(2025, 10, 3), event="late"),
            _games([("1", "2", 1.0)], dt.date(2025, 11, 8), event="on-time"),
        ]
    )
    assert rated_on(games, DEC).get_column("event").to_list() == ["on-time"]
    assert sorted(rated_on(games, DEC, ["late"]).get_column("event")) == ["late", "on-time"]
    assert lists_needed(games, [sep, NOV], first=DEC, last=DEC) == {NOV}
    assert lists_needed(games, [sep, NOV], first=DEC, last=DEC, late=["late"]) == {sep, NOV}
    (run,) = run_fide_lists(games, lists, first=DEC, last=DEC, late=["late"])
    assert run.changes.filter(pl.col("player_id") == "fide:1")["games"].item() == 2
    with pytest.raises(SchemaError, match="late: event 'on-time' ends on 2025-11-08"):
        run_fide_lists(games, lists, first=DEC, last=DEC, late=["on-time"])
    with pytest.raises(SchemaError, match="late: found event 'nowhere'"):
        run_fide_lists(games, lists, first=DEC, last=DEC, late=["nowhere"])
