"""Rules of pairing.macmahon on small hand-made tournaments and pairing.md's worked values."""

from __future__ import annotations

from fractions import Fraction

import pytest
from pydantic import ValidationError

from events.go import format_rank, parse_rank
from pairing.macmahon import (
    CostBreakdown,
    GoBye,
    GoGame,
    GoPlayer,
    GoResult,
    GoTournament,
    MacMahonParams,
    pair,
    prepare_round,
)
from pairing.macmahon.cost import det_random, java_div, nx1
from pairing.macmahon.engine import CHUNK_MAX


def _player(key: str, rank: str, club: str = "", rating: int = 0) -> GoPlayer:
    return GoPlayer(
        key=key,
        name=key.title(),
        first_name="",
        rank=parse_rank(rank),
        club=club,
        country="FR",
        rating=rating,
    )


def test_ranks() -> None:
    assert [parse_rank(t) for t in ("30k", "1k", "1d", "9D")] == [-30, -1, 0, 8]
    assert format_rank(parse_rank("20k")) == "20K"
    with pytest.raises(ValueError, match="go rank"):
        parse_rank("10p")


def test_score_difference_worked_value() -> None:
    # pairing.md §4.3: with 28 groups, groups one apart cost 98 150 510 204.
    assert nx1(100_000_000_000, Fraction(1, 28), Fraction(1, 2)) == 98_150_510_204


def test_java_division_truncates_toward_zero() -> None:
    assert java_div(-7, 2) == -3
    assert java_div(7, -2) == -3
    assert java_div(7, 2) == 3


def test_det_random_is_mirrored_by_swapping() -> None:
    a, b = _player("ALPHA", "1k"), _player("BRAVO", "1k")
    for maximum in (1, 1_000_000):
        assert det_random(maximum, a, b) + det_random(maximum, b, a) == maximum
        assert 0 <= det_random(maximum, a, b) <= maximum


def test_handicap_from_mms_with_correction_and_threshold() -> None:
    players = (
        _player("STRONG", "2d"),
        _player("MIDDLE", "3k"),
        _player("WEAK", "15k"),
        _player("TOP", "4d"),
    )
    tournament = GoTournament(number_of_rounds=3, players=players)
    setup = prepare_round(tournament, MacMahonParams(), 1)
    # 2d is capped at the no-handicap threshold 1d (0); 3k = -3: 3 - correction 1 = 2 stones.
    game = setup.context.game_between("MIDDLE", "STRONG")
    assert (game.white, game.black, game.stones) == ("STRONG", "MIDDLE", 2)
    # 15k against a capped 4d: 15 - 1 = 14 stones, cut to the ceiling of 9.
    game = setup.context.game_between("WEAK", "TOP")
    assert (game.white, game.black, game.stones) == ("TOP", "WEAK", 9)
    # Both at or above 1d: no handicap.
    assert setup.context.game_between("TOP", "STRONG").stones == 0


def test_pairs_everyone_once_and_avoids_rematches() -> None:
    players = tuple(_player(f"P{i}", f"{i + 1}k", club=f"C{i % 3}") for i in range(8))
    first = GoTournament(number_of_rounds=3, players=players)
    one = pair(first, MacMahonParams(), 1)
    assert one.bye is None
    paired = [k for g in one.games for k in (g.white, g.black)]
    assert sorted(paired) == sorted(p.key for p in players)
    played = tuple(
        GoGame(
            round=1, white=g.white, black=g.black, handicap=g.handicap, result=GoResult.WHITE_WINS
        )
        for g in one.games
    )
    two = pair(first.model_copy(update={"games": played}), MacMahonParams(), 2)
    before = {frozenset((g.white, g.black)) for g in one.games}
    assert not before & {frozenset((g.white, g.black)) for g in two.games}


def test_bye_goes_to_the_weakest_without_a_previous_bye() -> None:
    players = (
        _player("A", "1d"),
        _player("B", "5k"),
        _player("C", "10k"),
        _player("D", "10k"),
        _player("E", "12k"),
    )
    tournament = GoTournament(number_of_rounds=3, players=players)
    assert pair(tournament, MacMahonParams(), 1).bye == "E"
    with_bye = tournament.model_copy(update={"byes": (GoBye(round=1, player="E"),)})
    # E already had a bye (+1000): the next weakest, C and D tie, goes to the last listed.
    result = pair(with_bye, MacMahonParams(), 2)
    assert result.bye in {"C", "D"}
    assert result.bye == "D"


def test_absent_players_are_not_paired() -> None:
    players = (
        *(_player(f"P{i}", "5k") for i in range(4)),
        GoPlayer(key="AWAY", name="Away", rank=-5, participating=(False, True)),
    )
    result = pair(GoTournament(number_of_rounds=2, players=players), MacMahonParams(), 1)
    assert result.bye is None
    assert "AWAY" not in {k for g in result.games for k in (g.white, g.black)}


def test_explain_hook_records_every_pair() -> None:
    players = tuple(_player(f"P{i}", f"{i + 1}k") for i in range(6))
    seen: dict[frozenset[str], CostBreakdown] = {}
    pair(
        GoTournament(number_of_rounds=3, players=players),
        MacMahonParams(),
        1,
        explain=lambda a, b, cost: seen.__setitem__(frozenset((a, b)), cost),
    )
    assert len(seen) == 15
    cost = next(iter(seen.values()))
    assert cost.duplicate == 500_000_000_000_000
    assert cost.total > cost.duplicate


def test_more_than_600_players_are_paired_in_chunks() -> None:
    count = CHUNK_MAX + 20
    players = tuple(_player(f"P{i:04d}", f"{i % 25 + 1}k", rating=i) for i in range(count))
    result = pair(GoTournament(number_of_rounds=3, players=players), MacMahonParams(), 1)
    paired = [k for g in result.games for k in (g.white, g.black)]
    assert len(paired) == len(set(paired)) == count


def test_parameters_are_validated() -> None:
    with pytest.raises(ValidationError):
        MacMahonParams(mm_floor=5, mm_bar=0)
    with pytest.raises(ValidationError):
        MacMahonParams(nx1_factor=Fraction(3, 2))
    with pytest.raises(ValidationError):
        MacMahonParams(avoid_duplicate_game=10**15)
    params = MacMahonParams()
    with pytest.raises(ValidationError):
        params.model_copy(update={"mm_bar": 1}).__class__.model_validate({"unknown": 1})
    assert MacMahonParams.swiss().main_criterion.value == "NBW"
