"""The snapshot archive-state rules of the reference harness, on a hand-made archive."""

from __future__ import annotations

import datetime as dt

import polars as pl
import pytest

from ratings.games import GAMES_SCHEMA
from tests.ratings.wof_reference import ArchiveState, archive_state, debutants, reporting_lag

D = dt.date


def _games(rows: list[tuple[dt.date, str, str, str]]) -> pl.DataFrame:
    return pl.DataFrame(
        {
            "date": [r[0] for r in rows],
            "event": [r[1] for r in rows],
            "player_a": [r[2] for r in rows],
            "player_b": [r[3] for r in rows],
            "score_a": [1.0] * len(rows),
            "weight": [1.0] * len(rows),
            "game": ["othello"] * len(rows),
            "color_a": [None] * len(rows),
            "handicap": [None] * len(rows),
            "komi": [None] * len(rows),
        },
        schema=dict(GAMES_SCHEMA),
    )


# Country X: e1 (debuts a, b), e2 (debuts c; no one else new), e3 (no debutant), e4 (debuts d, e).
# Country Y: f1 (debuts f, g), f2 (no debutant, dated after Y's last recorded event).
GAMES = _games(
    [
        (D(2020, 1, 5), "e1", "a", "b"),
        (D(2020, 2, 5), "e2", "c", "a"),
        (D(2020, 3, 5), "e3", "a", "b"),
        (D(2020, 4, 5), "e4", "d", "e"),
        (D(2020, 1, 20), "f1", "f", "g"),
        (D(2020, 3, 20), "f2", "f", "g"),
    ]
)
EVENTS = pl.DataFrame(
    {
        "event": ["e1", "e2", "e3", "e4", "f1", "f2"],
        "country": ["X", "X", "X", "X", "Y", "Y"],
        "date": [D(2020, m, 5) for m in (1, 2, 3, 4)] + [D(2020, m, 20) for m in (1, 3)],
    }
)


def _official(ratings: dict[str, int | None]) -> pl.DataFrame:
    return pl.DataFrame(
        {"player_id": list(ratings), "rating": list(ratings.values())},
        schema={"player_id": pl.Utf8, "rating": pl.Int64},
    )


def test_debutants_are_first_event_players() -> None:
    found = set(debutants(GAMES).iter_rows())
    assert found == {
        ("e1", "a"),
        ("e1", "b"),
        ("e2", "c"),
        ("e4", "d"),
        ("e4", "e"),
        ("f1", "f"),
        ("f1", "g"),
    }


def test_state_reads_listed_and_rated_debutants() -> None:
    # c is listed (e2 recorded) and rated; d and e are not listed (e4 not recorded yet); e3 has
    # no debutant and is dated after X's newest recorded event (e2): out. Y: f1 recorded; f2
    # has no debutant and is dated after f1: out.
    official = _official({"a": 1800, "b": 1700, "c": 1600, "f": None, "g": None})
    state = archive_state(GAMES, EVENTS, official, D(2020, 6, 1))
    assert state == ArchiveState(frozenset({"e1", "e2", "f1"}), D(2020, 2, 5))
    assert state.as_of == D(2020, 2, 6)


def test_debutant_less_event_before_a_recorded_one_is_in() -> None:
    # With e4's debutants listed, X is recorded through April: e3 (no debutant) is in.
    official = _official({"a": 1800, "b": 1700, "c": None, "d": 1500, "e": None})
    state = archive_state(GAMES, EVENTS, official, D(2020, 6, 1))
    assert state.events == frozenset({"e1", "e2", "e3", "e4"})
    assert state.calculation_date == D(2020, 4, 5)


def test_events_after_the_snapshot_are_out() -> None:
    # d and e were given IDs before the snapshot, but their event is dated after it.
    official = _official({"a": 1800, "b": 1700, "c": 1600, "d": 1500, "e": 1400, "f": None})
    state = archive_state(GAMES, EVENTS, official, D(2020, 3, 1))
    assert state.events == frozenset({"e1", "e2", "f1"})
    assert state.calculation_date == D(2020, 2, 5)


def test_state_without_rated_debutant_is_an_error() -> None:
    with pytest.raises(ValueError, match="no rated debutant"):
        archive_state(GAMES, EVENTS, _official({"a": None, "b": None}), D(2020, 6, 1))


def test_reporting_lag_by_country() -> None:
    cut = D(2020, 4, 10)
    kept = reporting_lag(GAMES, EVENTS, cut, dt.timedelta(days=40), ("X",))
    assert sorted(set(kept.get_column("event"))) == ["e1", "e2", "f1", "f2"]
    everyone = reporting_lag(GAMES, EVENTS, cut, dt.timedelta(days=40))
    assert sorted(set(everyone.get_column("event"))) == ["e1", "e2", "f1"]
