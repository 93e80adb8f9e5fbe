"""The WOF list: worked examples from the rules (ratings.md §1) and properties."""

from __future__ import annotations

import datetime as dt
import math

import networkx as nx
import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from ratings.games import GameKind, games_frame
from ratings.wof import WofParams, age_weight, fit_wof, month_age

AS_OF = dt.date(2025, 11, 1)
RECENT = dt.date(2025, 10, 15)
PAIRS = WofParams(min_component_size=2)


def _listing(
    games: pl.DataFrame,
    as_of: dt.date,
    params: WofParams | None = None,
    *,
    game: GameKind | None = GameKind.OTHELLO,
) -> pl.DataFrame:
    """The published list of a fit (what `arbiter ratings run --method wof` writes)."""
    return fit_wof(games, as_of, params, game=game).listing


def _games(rows: list[tuple[str, str, float]], day: dt.date = RECENT) -> pl.DataFrame:
    return games_frame(
        date=[day] * len(rows),
        player_a=[a for a, _, _ in rows],
        player_b=[b for _, b, _ in rows],
        score_a=[s for _, _, s in rows],
        game="othello",
    )


def _rating(frame: pl.DataFrame, player: str) -> float:
    value = frame.filter(pl.col("player_id") == player).get_column("rating").item()
    assert value is not None
    return float(value)


def test_defaults_are_the_documented_model() -> None:
    p = WofParams()
    assert p.scale == pytest.approx(182.05, abs=0.01)
    assert p.weight_windows == ((7, 150.0), (14, 100.0), (26, 60.0), (38, 30.0))
    assert (p.old_weight, p.activity_months, p.min_component_size) == (1.0, 38, 10)
    assert (p.anchor, p.margin_limit) == (1800.0, 200.0)


def test_params_are_frozen_and_validated() -> None:
    with pytest.raises(ValidationError):
        WofParams(weight_windows=((14, 100.0), (7, 150.0)))
    with pytest.raises(ValidationError):
        WofParams(odds=1.0)
    with pytest.raises(ValidationError):
        PAIRS.anchor = 1500.0  # type: ignore[misc]


@pytest.mark.parametrize(
    ("day", "age", "weight"),
    [
        (dt.date(2025, 10, 31), 1, 150.0),
        (dt.date(2025, 5, 1), 6, 150.0),
        (dt.date(2025, 4, 30), 7, 100.0),
        (dt.date(2024, 10, 1), 13, 100.0),
        (dt.date(2024, 9, 1), 14, 60.0),
        (dt.date(2023, 9, 1), 26, 30.0),
        (dt.date(2022, 10, 1), 37, 30.0),
        (dt.date(2022, 9, 30), 38, 1.0),
    ],
)
def test_month_ages_and_weights(day: dt.date, age: int, weight: float) -> None:
    frame = pl.DataFrame({"date": [day]})
    ages = frame.select(month_age(pl.col("date"), AS_OF)).to_series()
    assert ages.item() == age
    assert frame.select(age_weight(month_age(pl.col("date"), AS_OF), WofParams())).item() == weight


def test_three_to_one_odds_is_200_points() -> None:
    games = _games([("A", "B", 1.0)] * 3 + [("A", "B", 0.0)])
    listing = _listing(games, AS_OF, PAIRS)
    assert _rating(listing, "A") == pytest.approx(1900.0, abs=1e-3)
    assert _rating(listing, "B") == pytest.approx(1700.0, abs=1e-3)


def test_anchor_is_the_games_weighted_mean() -> None:
    # A beats B 6-2 (3:1, so A = B + 200); B and C split 1-1 (B = C). Game counts 8, 10, 2:
    # (8·(x + 200) + 10·x + 2·x) / 20 = 1800 gives x = 1720 (a plain mean would give 1733.3).
    games = _games(
        [("A", "B", 1.0)] * 6 + [("A", "B", 0.0)] * 2 + [("B", "C", 1.0), ("B", "C", 0.0)]
    )
    listing = _listing(games, AS_OF, PAIRS)
    assert _rating(listing, "A") == pytest.approx(1920.0, abs=1e-3)
    assert _rating(listing, "B") == pytest.approx(1720.0, abs=1e-3)
    assert _rating(listing, "C") == pytest.approx(1720.0, abs=1e-3)


def test_time_weights_enter_the_likelihood() -> None:
    # A's recent win weighs 150, B's win at age 7 weighs 100: p(A) = 0.6, a gap of
    # 200·ln(1.5)/ln(3) points.
    recent = _games([("A", "B", 1.0)])
    older = _games([("B", "A", 1.0)], day=dt.date(2025, 4, 10))
    listing = _listing(pl.concat([recent, older]), AS_OF, PAIRS)
    gap = 200 * math.log(1.5) / math.log(3)
    assert _rating(listing, "A") - _rating(listing, "B") == pytest.approx(gap, abs=1e-3)
    assert _rating(listing, "A") + _rating(listing, "B") == pytest.approx(3600.0, abs=1e-3)


def test_margin_and_the_200_rule() -> None:
    # Four recent games at p = 3/4: Σc/150 = 4·0.1875 = 0.75, margin = 182.05/√0.75 ≈ 210.2.
    games = _games([("A", "B", 1.0)] * 3 + [("A", "B", 0.0)])
    listing = _listing(games, AS_OF, PAIRS)
    expected = (200 / math.log(3)) / math.sqrt(0.75)
    assert listing.get_column("margin").to_list() == pytest.approx([expected, expected])
    assert listing.get_column("official").to_list() == [False, False]
    assert listing.get_column("rank").to_list() == [None, None]
    assert listing.get_column("provisional_reason").to_list()[0] == (
        "margin ±210 is not below ±200"
    )
    assert _listing(games, AS_OF, PAIRS.model_copy(update={"margin_limit": 211.0})).get_column(
        "rank"
    ).to_list() == [1, 2]


def test_unrateable_players_and_reasons() -> None:
    ring = [(f"p{i}", f"p{(i + 1) % 10}", 1.0) for i in range(10)]  # a 10-cycle: one SCC
    extra = [("W", "p0", 1.0), ("W", "p1", 1.0), ("p2", "L", 1.0), ("X", "Y", 1.0), ("Y", "X", 1.0)]
    listing = _listing(_games(ring + extra), AS_OF).sort("player_id")
    reasons = dict(zip(listing["player_id"], listing["provisional_reason"], strict=True))
    assert reasons["W"] == "won every game"
    assert reasons["L"] == "lost every game"
    assert reasons["X"] == "component of 2 player(s), fewer than 10"
    rated = listing.filter(pl.col("rating").is_not_null()).get_column("player_id").to_list()
    assert sorted(rated) == sorted(f"p{i}" for i in range(10))
    # The ring is symmetric: everyone 1800.
    assert listing.filter(pl.col("rating").is_not_null())["rating"].to_list() == pytest.approx(
        [1800.0] * 10
    )


def test_as_of_and_activity_window() -> None:
    games = pl.concat(
        [
            _games([("A", "B", 1.0), ("B", "A", 1.0)]),
            _games([("C", "A", 1.0), ("A", "C", 1.0)], day=dt.date(2022, 9, 30)),  # age 38
            _games([("D", "A", 1.0), ("A", "D", 1.0)], day=AS_OF),  # not before as_of
        ]
    )
    fit = fit_wof(games, AS_OF, PAIRS)
    listed = set(fit.listing.get_column("player_id"))
    assert listed == {"A", "B"}
    assert "C" in set(fit.players.get_column("player_id"))
    assert "D" not in set(fit.players.get_column("player_id"))
    games_in_window = dict(zip(fit.listing["player_id"], fit.listing["games"], strict=True))
    assert games_in_window == {"A": 2, "B": 2}


def test_list_columns() -> None:
    listing = _listing(_games([("A", "B", 1.0), ("B", "A", 0.5)]), AS_OF, PAIRS)
    assert listing.columns == [
        "rank",
        "player_id",
        "rating",
        "margin",
        "games",
        "official",
        "provisional_reason",
    ]


# ---------------------------------------------------------------------------------------------
# Properties on random tournaments, checked against an independent networkx SCC computation.

_results = st.lists(
    st.tuples(st.integers(0, 11), st.integers(0, 11), st.sampled_from([0.0, 0.5, 1.0]),
              st.integers(0, 50)),
    min_size=1,
    max_size=80,
).map(lambda rows: [r for r in rows if r[0] != r[1]]).filter(bool)  # fmt: skip


def _random_games(rows: list[tuple[int, int, float, int]]) -> pl.DataFrame:
    return games_frame(
        date=[dt.date(2025, 10, 1) - dt.timedelta(days=30 * m) for *_, m in rows],
        player_a=[f"p{a}" for a, *_ in rows],
        player_b=[f"p{b}" for _, b, *_ in rows],
        score_a=[s for _, _, s, _ in rows],
        game="othello",
    )


def _components(games: pl.DataFrame) -> list[set[str]]:
    graph: nx.DiGraph[str] = nx.DiGraph()
    for a, b, s in games.select("player_a", "player_b", "score_a").iter_rows():
        graph.add_nodes_from([a, b])
        if s > 0:
            graph.add_edge(a, b)
        if s < 1:
            graph.add_edge(b, a)
    return [set(c) for c in nx.strongly_connected_components(graph)]


@settings(max_examples=60, deadline=None)
@given(_results, st.integers(2, 4))
def test_properties_of_random_lists(rows: list[tuple[int, int, float, int]], minimum: int) -> None:
    games = _random_games(rows)
    params = WofParams(min_component_size=minimum)
    fit = fit_wof(games, AS_OF, params)
    players = fit.players
    rating = dict(zip(players["player_id"], players["rating"], strict=True))
    count = dict(zip(players["player_id"], players["games_total"], strict=True))
    for component in _components(games):
        rated = [rating[p] is not None for p in component]
        assert all(rated) == (len(component) >= minimum)
        assert any(rated) == all(rated)
        if not all(rated) or len(component) < 2:
            continue
        # The games-weighted mean is the anchor in every component.
        total = sum(count[p] for p in component)
        mean = sum(count[p] * rating[p] for p in component) / total
        assert mean == pytest.approx(params.anchor, abs=1e-6)
        # Stationarity: every player's weighted score equals its expectation.
        weights = games.with_columns(w=_time_weights(games))
        residual = dict.fromkeys(component, 0.0)
        for a, b, s, w in weights.select("player_a", "player_b", "score_a", "w").iter_rows():
            if a in component and b in component:
                diff = (rating[a] - rating[b]) / params.scale
                expected = 1.0 / (1.0 + math.exp(-diff))
                residual[a] += w * (s - expected)
                residual[b] -= w * (s - expected)
        assert max(abs(v) for v in residual.values()) < 1e-3


def _time_weights(games: pl.DataFrame) -> pl.Series:
    return games.select(age_weight(month_age(pl.col("date"), AS_OF), WofParams())).to_series()


@settings(max_examples=30, deadline=None)
@given(_results, st.integers(0, 1000))
def test_order_and_side_invariance(rows: list[tuple[int, int, float, int]], seed: int) -> None:
    games = _random_games(rows)
    flipped = games.select(
        "date",
        "event",
        pl.col("player_b").alias("player_a"),
        pl.col("player_a").alias("player_b"),
        (1.0 - pl.col("score_a")).alias("score_a"),
        "weight",
        "game",
        "color_a",
        "handicap",
        "komi",
    )
    shuffled = flipped.sample(fraction=1.0, shuffle=True, seed=seed)
    first = fit_wof(games, AS_OF, PAIRS).players.sort("player_id")
    second = fit_wof(shuffled, AS_OF, PAIRS).players.sort("player_id")
    a = first.get_column("rating").fill_null(np.nan).to_numpy()
    b = second.get_column("rating").fill_null(np.nan).to_numpy()
    np.testing.assert_allclose(a, b, atol=1e-5)


def test_other_games_are_ignored_by_default() -> None:
    othello = _games([("A", "B", 1.0), ("B", "A", 1.0)])
    chess = games_frame(date=[RECENT], player_a=["A"], player_b=["C"], score_a=[1.0], game="chess")
    both = pl.concat([othello, chess])
    assert set(_listing(both, AS_OF, PAIRS)["player_id"]) == {"A", "B"}
    assert set(_listing(both, AS_OF, PAIRS, game=None)["player_id"]) == {"A", "B", "C"}
