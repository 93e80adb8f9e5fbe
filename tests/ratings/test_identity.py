"""One person per player: the cases of the rule in ratings.identity, and the player search."""

from __future__ import annotations

import datetime as dt

import polars as pl
import pytest

from ratings.games import games_frame
from ratings.identity import find_players, people

Row = tuple[str, str, str, int | None]


def _players(rows: list[Row]) -> pl.DataFrame:
    return pl.DataFrame(
        rows,
        schema={"player_id": pl.Utf8, "name": pl.Utf8, "country": pl.Utf8, "birth_year": pl.Int64},
        orient="row",
    )


def _games(pairs: list[tuple[str, str, str]]) -> pl.DataFrame:
    return games_frame(
        date=[dt.date(2025, 1, 4)] * len(pairs),
        player_a=[a for a, _, _ in pairs],
        player_b=[b for _, b, _ in pairs],
        score_a=[1.0] * len(pairs),
        event=[e for _, _, e in pairs],
        game="chess",
    )


GAMES = _games([("local:a#1", "x", "a"), ("local:b#1", "y", "b"), ("fide:9", "z", "c")])


@pytest.mark.parametrize(
    ("rows", "merged", "ambiguous"),
    [
        # Two registrations without id, same name (any case, accents), federation and year.
        (
            [("local:a#1", "Müller, Jan", "GER", 1990), ("local:b#1", "JAN MULLER", "ger", 1990)],
            {"local:b#1": "local:a#1"},
            set(),
        ),
        # One of them has a FIDE id: that is the person.
        (
            [("local:a#1", "Müller, Jan", "GER", 1990), ("fide:9", "Muller, Jan", "GER", 1990)],
            {"local:a#1": "fide:9"},
            set(),
        ),
        # Two FIDE ids fit: cannot tell.
        (
            [("local:a#1", "Müller, Jan", "GER", 1990), ("fide:9", "Muller, Jan", "GER", 1990),
             ("fide:8", "Muller, Jan", "GER", 1990)],
            {},
            {"local:a#1"},
        ),
        # Another birth year: another person, nothing to report.
        (
            [("local:a#1", "Müller, Jan", "GER", 1990), ("fide:9", "Muller, Jan", "GER", 2001)],
            {},
            set(),
        ),
        # A birth year unknown on either side: cannot tell, both id-less ones reported.
        (
            [("local:a#1", "Müller, Jan", "GER", None), ("local:b#1", "Muller, Jan", "GER", 1990)],
            {},
            {"local:a#1", "local:b#1"},
        ),
        # Another federation: another person.
        (
            [("local:a#1", "Müller, Jan", "GER", 1990), ("local:b#1", "Muller, Jan", "AUT", 1990)],
            {},
            set(),
        ),
    ],
)  # fmt: skip
def test_the_cases_of_the_rule(
    rows: list[Row], merged: dict[str, str], ambiguous: set[str]
) -> None:
    placed = people(GAMES, _players(rows))
    assert dict(placed.alias) == merged
    report = placed.report
    assert set(report.filter(pl.col("status") == "ambiguous")["player_id"]) == ambiguous
    assert dict(
        report.filter(pl.col("status") == "merged").select("player_id", "person").rows()
    ) == (merged)


def test_two_of_them_in_one_tournament_are_two_people() -> None:
    games = _games([("local:a#1", "local:a#2", "a")])
    rows: list[Row] = [
        ("local:a#1", "Lee, Kim", "KOR", 2000),
        ("local:a#2", "Lee, Kim", "KOR", 2000),
    ]
    placed = people(games, _players(rows))
    assert placed.alias == {}
    assert set(placed.report["reason"]) == {"two of them played in one tournament"}


def test_merged_games_and_players() -> None:
    rows: list[Row] = [
        ("local:a#1", "Lee, Kim", "KOR", 2000),
        ("local:b#1", "Lee, Kim", "KOR", 2000),
    ]
    placed = people(GAMES, _players(rows).with_columns(rating=pl.Series([None, 2100.0])))
    assert placed.games(GAMES)["player_a"].to_list() == ["local:a#1", "local:a#1", "fide:9"]
    kept = placed.players(_players(rows).with_columns(rating=pl.Series([None, 2100.0])))
    assert kept.select("player_id", "rating").rows() == [("local:a#1", 2100.0)]


PLAYERS = _players(
    [
        ("fide:1503014", "Carlsen, Magnus", "NOR", 1990),
        ("wof:1503014", "Someone, Else", "FRA", 1970),
        ("fide:2", "Müller-Lüdenscheidt, Jan", "GER", 1980),
        ("fide:3", "Muller, Anna", "AUT", 1985),
    ]
)


@pytest.mark.parametrize(
    ("query", "scheme", "ids"),
    [
        ("fide:1503014", None, ["fide:1503014"]),
        ("FIDE:1503014", None, ["fide:1503014"]),
        ("1503014", "fide", ["fide:1503014"]),
        ("1503014", "wof", ["wof:1503014"]),
        ("1503014", None, ["fide:1503014", "wof:1503014"]),
        ("carlsen", "fide", ["fide:1503014"]),
        ("MULLER", "fide", ["fide:3", "fide:2"]),  # sorted by name
        ("lüdensch jan", "fide", ["fide:2"]),
        ("nobody", "fide", []),
    ],
)
def test_find_players(query: str, scheme: str | None, ids: list[str]) -> None:
    assert find_players(PLAYERS, query, scheme)["player_id"].to_list() == ids
