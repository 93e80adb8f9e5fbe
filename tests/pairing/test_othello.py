"""Othello Swiss: points, then disc count; no rematches; byes and colours."""

from __future__ import annotations

from fractions import Fraction

import pytest

from pairing.othello import OthelloError, OthelloGame, OthelloInput, OthelloPlayer, pair, standings


def _players(n: int) -> tuple[OthelloPlayer, ...]:
    return tuple(OthelloPlayer(id=i, rating=2000 - i) for i in range(1, n + 1))


def test_standings_break_score_ties_by_discs() -> None:
    games = (
        OthelloGame(round=1, black=1, white=2, black_discs=33, white_discs=31),
        OthelloGame(round=1, black=3, white=4, black_discs=50, white_discs=14),
    )
    table = standings(OthelloInput(players=_players(4), games=games))
    one, zero = Fraction(1), Fraction(0)
    assert table == [(3, one, 50), (1, one, 33), (2, zero, 31), (4, zero, 14)]


def test_draw_gives_half_points() -> None:
    games = (OthelloGame(round=1, black=1, white=2, black_discs=32, white_discs=32),)
    table = {i: p for i, p, _ in standings(OthelloInput(players=_players(2), games=games))}
    assert table == {1: Fraction(1, 2), 2: Fraction(1, 2)}


def test_first_round_by_rating_and_alternating_colours() -> None:
    boards = pair(OthelloInput(players=_players(4)))
    assert [(b.black, b.white) for b in boards] == [(1, 2), (3, 4)]


def test_no_rematch_and_colour_balance() -> None:
    games = (
        OthelloGame(round=1, black=1, white=2, black_discs=40, white_discs=24),
        OthelloGame(round=1, black=3, white=4, black_discs=35, white_discs=29),
    )
    boards = pair(OthelloInput(players=_players(4), games=games))
    # 1 and 3 lead; 1 and 3 both had Black, so the better ranked (1) keeps Black
    assert {frozenset((b.black, b.white)) for b in boards} == {frozenset((1, 3)), frozenset((2, 4))}
    by_pair = {frozenset((b.black, b.white)): b for b in boards}
    assert by_pair[frozenset((2, 4))].black == 4  # both had White; 4 ranks higher on discs


def test_bye_to_the_lowest_without_a_bye() -> None:
    games = (
        OthelloGame(round=1, black=1, white=2, black_discs=40, white_discs=24),
        OthelloGame(round=1, black=3, white=None, black_discs=0),
    )
    boards = pair(OthelloInput(players=_players(3), games=games))
    assert boards[-1].black is None
    assert boards[-1].white == 2


def test_no_pairing_left() -> None:
    games = (OthelloGame(round=1, black=1, white=2, black_discs=40, white_discs=24),)
    with pytest.raises(OthelloError):
        pair(OthelloInput(players=_players(2), games=games))
