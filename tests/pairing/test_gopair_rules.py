"""gopair's rules pinned from its documentation and printed score breakdowns (pairs1, stdout)."""

from __future__ import annotations

from decimal import Decimal

import pytest
from pydantic import ValidationError

from pairing.gopair import (
    GopairGame,
    GopairInput,
    GopairParams,
    GopairPlayer,
    HandicapMode,
    pair,
    pair_score,
)
from pairing.gopair.best import pick, sorted_candidates
from pairing.gopair.bye import ByeFacts, bye_candidates
from pairing.gopair.engine import early_round_shift
from pairing.gopair.handicap import handicap
from pairing.gopair.score import PlayerFacts


def _facts(
    pid: int, rating: str, club: str = "", wins: int = 0, opp: tuple[int, ...] = ()
) -> PlayerFacts:
    return PlayerFacts(pid, Decimal(rating), club, wins, opp)


def test_score_terms_as_gopair_prints_them() -> None:
    # p10_r4_max round 1 board 1: "S: -4.0 = -2.0r+ 0p+-0.0w+-2c" (3.5 v 1.5, both BOST)
    s = pair_score(_facts(6, "3.5", "BOST"), _facts(3, "1.5", "BOST"), HandicapMode.MAX)
    assert (s.rating, s.played, s.wins, s.club, s.total) == (
        Decimal("-2.0"),
        Decimal(0),
        Decimal(0),
        Decimal(-2),
        Decimal("-4.0"),
    )
    # round 2 board 1: "S: -5.0 = -3.5r+ 0p+-1.5w+0c" (3.5 with 0 wins v -2.0 with 1 win)
    s = pair_score(_facts(6, "3.5", "BOST"), _facts(9, "-2.0", "SEAT", 1), HandicapMode.MAX)
    assert s.total == Decimal("-5.0")
    # p16_r5_max round 5 board 1: "-18.8 = -1.3r+-16p+-1.5w+0c"
    s = pair_score(_facts(5, "4.0", "", 3, (11,)), _facts(11, "2.7", "", 2), HandicapMode.MAX)
    assert (s.rating, s.played, s.wins) == (Decimal("-1.3"), Decimal(-16), Decimal("-1.5"))


def test_even_events_ignore_rating_and_club() -> None:
    s = pair_score(_facts(1, "5.0", "X", 2), _facts(2, "-20.0", "X", 1), HandicapMode.MIN)
    assert (s.rating, s.club, s.total) == (Decimal(0), Decimal(0), Decimal("-1.5"))


@pytest.mark.parametrize(
    ("first", "second", "expected"),
    [
        ("3.5", "1.5", (0, -6)),  # 2.0 collapsed stones: reverse komi
        ("-2.0", "-4.2", (0, -6)),  # 2.2: still reverse komi
        ("-2.8", "-6.1", (2, 0)),  # 3.3 / 1.1 is 2.999... in binary: two stones, as gopair
        ("-11.2", "-20.7", (8, 0)),
        ("5.5", "5.3", (0, 6)),
        ("1.5", "3.5", (-1, -6)),  # weaker first: swap
        ("-3.3", "-17.0", (12, 0)),
    ],
)
def test_aga_handicap_table(first: str, second: str, expected: tuple[int, int]) -> None:
    assert handicap(Decimal(first), Decimal(second)) == expected


def test_early_round_adjustment_strength() -> None:
    # gopair prints "early round adjustment (by 2)" for round 1 of 4, "(by 1)" for round 2
    assert [early_round_shift(4, r) for r in (1, 2, 3, 4)] == [2, 1, 0, 0]
    assert early_round_shift(5, 1) == 3


def test_window_search_keeps_first_best_and_tries_2d_minus_1_candidates() -> None:
    # four items; 0-1 and 2-3 (total -2) beat 0-2 and 1-3 (total -3)
    scores = [
        [0.0, -1.0, -1.0, -9.0],
        [-1.0, 0.0, -9.0, -2.0],
        [-1.0, -9.0, 0.0, -1.0],
        [-9.0, -2.0, -1.0, 0.0],
    ]
    assert pick(scores, sorted_candidates(scores), 7) == [(0, 1), (2, 3)]
    # window 1: greedy, the first item takes its best candidate
    assert pick(scores, sorted_candidates(scores), 1)[0] == (0, 1)


def test_bye_rules_relax_one_by_one() -> None:
    field = [ByeFacts(i, False, 2, 2, False) for i in range(1, 11)]  # nobody lost yet
    # rules go in the order drop, missed, extremes, wins: with no loser, everybody qualifies
    assert bye_candidates(field, 2) == list(range(1, 11))
    field[4] = ByeFacts(5, False, 2, 1, False)
    assert bye_candidates(field, 2) == [5]
    field[0] = ByeFacts(1, False, 2, 1, False)  # lost, but in the top 10 %
    assert bye_candidates(field, 2) == [5]
    field[6] = ByeFacts(7, True, 2, 2, False)
    assert bye_candidates(field, 2) == [7]  # explicit BYE flag wins


def test_pair_round_with_forced_bye_and_no_rematch() -> None:
    players = tuple(
        GopairPlayer(id=i, rating=Decimal(r))
        for i, r in enumerate(["5.5", "4.5", "3.5", "2.5", "1.5"], 1)
    )
    games = (
        GopairGame(round=1, white=1, black=2, winner=1),
        GopairGame(round=1, white=3, black=4, winner=4),
    )
    got = pair(
        GopairInput(players=players, games=games, rounds=3, round=2, bye=5),
        GopairParams(early_adjustment=False),
    )
    assert got.bye == 5
    assert {frozenset((b.white, b.black)) for b in got.boards} == {
        frozenset((1, 4)),
        frozenset((2, 3)),
    }


def test_invalid_inputs_are_rejected() -> None:
    with pytest.raises(ValidationError, match="gap"):
        GopairPlayer(id=1, rating=Decimal("0.5"))
    with pytest.raises(ValidationError, match="not registered"):
        GopairInput(players=(GopairPlayer(id=1, rating=Decimal(2)),), rounds=2, round=1, bye=9)
