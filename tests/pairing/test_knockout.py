"""Knockout brackets: standard seeding, byes to the top seeds, winners of consecutive boards."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pairing.knockout import KnockoutError, bracket, first_round, next_round


def test_standard_bracket_for_eight() -> None:
    pairs = list(zip(bracket(8)[0::2], bracket(8)[1::2], strict=True))
    assert pairs == [(1, 8), (4, 5), (2, 7), (3, 6)]


def test_byes_go_to_the_top_seeds() -> None:
    seeded = [11, 12, 13, 14, 15, 16]  # six players in an eight bracket
    boards = first_round(seeded)
    assert [(b.white, b.black) for b in boards] == [(11, None), (14, 15), (12, None), (13, 16)]


def test_next_round_pairs_winners_of_consecutive_boards() -> None:
    boards = first_round([1, 2, 3, 4, 5, 6, 7, 8])
    winners = {1: 1, 2: 5, 3: 7, 4: 3}
    second = next_round(boards, winners)
    assert [(b.board, b.white, b.black) for b in second] == [(1, 1, 5), (2, 7, 3)]
    final = next_round(second, {1: 5, 2: 3})
    assert [(b.white, b.black) for b in final] == [(5, 3)]
    with pytest.raises(KnockoutError, match="over"):
        next_round(final, {1: 5})


def test_a_bye_advances_and_a_missing_winner_is_refused() -> None:
    boards = first_round([1, 2, 3, 4, 5, 6])
    with pytest.raises(KnockoutError, match="cannot be drawn"):
        next_round(boards, {2: 4})
    second = next_round(boards, {2: 5, 4: 3})
    assert [(b.white, b.black) for b in second] == [(1, 5), (2, 3)]


def test_invalid_fields() -> None:
    with pytest.raises(KnockoutError):
        first_round([1])
    with pytest.raises(KnockoutError, match="twice"):
        first_round([1, 2, 2])
    with pytest.raises(KnockoutError, match="power of two"):
        bracket(6)


@given(st.integers(min_value=1, max_value=7))
def test_seeds_one_and_two_meet_only_in_the_final(power: int) -> None:
    size = 1 << power
    seeds = bracket(size)
    assert sorted(seeds) == list(range(1, size + 1))
    assert all(a + b == size + 1 for a, b in zip(seeds[0::2], seeds[1::2], strict=True))
    half = size // 2
    assert (1 in seeds[:half]) != (2 in seeds[:half])


@given(st.integers(min_value=2, max_value=100))
def test_every_player_once_with_byes_only_for_the_top(n: int) -> None:
    boards = first_round(list(range(1, n + 1)))
    seen = [p for b in boards for p in (b.white, b.black) if p is not None]
    assert sorted(seen) == list(range(1, n + 1))
    byes = sorted(b.white for b in boards if b.black is None)
    assert byes == list(range(1, len(byes) + 1))
