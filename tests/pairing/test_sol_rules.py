"""SoL's orderings pinned from its documented behaviour (pairing.md §6)."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from pairing.sol import (
    Couplings,
    FinalKind,
    SolCompetitor,
    SolError,
    SolMatch,
    SolParams,
    SolSystem,
    SolTourney,
    pair,
    pair_final,
    ranking,
)
from pairing.sol.boards import assign_boards
from pairing.sol.knockout import sol_bracket
from pairing.sol.roundrobin import circle_round
from pairing.sol.visitors import delay_compatriots, visit_order


def _field(n: int, nationality: str = "ITA") -> tuple[SolCompetitor, ...]:
    return tuple(
        SolCompetitor(id=i, name=f"P{i:03d}", nationality=nationality, rate=3000 - i)
        for i in range(1, n + 1)
    )


def _first_round(n: int, couplings: Couplings) -> list[tuple[int, int | None]]:
    params = SolParams(couplings=couplings, rated=True, delaytoppairing=0)
    got = pair(SolTourney(competitors=_field(n)), params)
    return [(p.competitor1, p.competitor2) for p in got.pairings]


def test_serial_pairs_in_ranking_order() -> None:
    assert _first_round(8, Couplings.SERIAL) == [(1, 2), (3, 4), (5, 6), (7, 8)]


def test_dazed_crosses_the_score_group() -> None:
    assert _first_round(8, Couplings.DAZED) == [(1, 5), (2, 6), (3, 7), (4, 8)]


def test_staggered_uses_offset_25_from_50_players() -> None:
    # SoL's docstring promises 1v26, 2v27, ...; it recomputes the offset on the players left,
    # so the second pivot meets the 26th of the remaining list: 2v28, 3v30 (as staggered_64)
    pairs = _first_round(60, Couplings.STAGGERED)
    assert pairs[:3] == [(1, 26), (2, 28), (3, 30)]
    assert _first_round(20, Couplings.STAGGERED)[:2] == [(1, 11), (2, 12)]


def test_phantom_is_competitor_2_on_the_last_board() -> None:
    got = pair(SolTourney(competitors=_field(7)), SolParams(rated=True, delaytoppairing=0))
    last = got.by_board()[-1]
    assert (last.board, last.competitor1, last.competitor2) == (4, 7, None)


def test_dazed_odd_group_pulls_up_the_next_player() -> None:
    field = _field(6)
    points = {1: 2, 2: 2, 3: 2, 4: 0, 5: 0, 6: 0}
    # three with equal points + one pulled up: [2, 4), [0, 2), rest
    assert visit_order(Couplings.DAZED, field, points, first_round=False) == [2, 3, 0, 1, 4, 5]
    # a run of two behaves like serial
    two = {1: 2, 2: 2, 3: 0, 4: 0, 5: 0, 6: 0}
    assert visit_order(Couplings.DAZED, field, two, first_round=False) == list(range(6))


def test_compatriots_go_last_within_their_score_group_only() -> None:
    field = [
        SolCompetitor(id=1, name="a", nationality="ITA"),
        SolCompetitor(id=2, name="b", nationality="ITA"),
        SolCompetitor(id=3, name="c", nationality="FRA"),
        SolCompetitor(id=4, name="d", nationality="ITA"),
        SolCompetitor(id=5, name="e", nationality="FRA"),
        None,
    ]
    points = {1: 2, 2: 2, 3: 2, 4: 0, 5: 0}
    order = delay_compatriots(range(6), field, points)
    # group of 2 points: FRA first, then ITA; group of 0: FRA then ITA; phantom last
    assert order == [2, 0, 1, 4, 3, 5]


def test_rematches_are_skipped_and_backtracking_completes() -> None:
    field = _field(4)
    matches = (
        SolMatch(round=1, board=1, competitor1=1, competitor2=2, score1=25, score2=0),
        SolMatch(round=1, board=2, competitor1=3, competitor2=4, score1=25, score2=0),
    )
    params = SolParams(rated=True, delaytoppairing=0)
    got = pair(SolTourney(competitors=field, matches=matches), params)
    assert [(p.competitor1, p.competitor2) for p in got.pairings] == [(1, 3), (2, 4)]


def test_boards_least_used_by_both() -> None:
    history = [(1, 1), (2, 1), (3, 2), (4, 2)]
    # two games: 1 used board 1, 3 board 2 -> (uses by 1, uses by 3) is (1, 0) v (0, 1)
    assert assign_boards([(1, 3), (2, 4), (5, None)], history) == [2, 1, 3]


def test_round_robin_circle_rotates_all_but_the_first() -> None:
    field = _field(4)
    rounds = [[(a.id, b.id) for a, b in circle_round(field, r) if a and b] for r in range(3)]
    assert rounds == [[(1, 4), (2, 3)], [(1, 3), (4, 2)], [(1, 2), (3, 4)]]
    met = {frozenset(p) for r in rounds for p in r}
    assert len(met) == 6


def test_round_robin_seeds_pairs_farthest_first() -> None:
    params = SolParams(system=SolSystem.ROUNDROBIN, couplings=Couplings.SEEDS)
    field = tuple(SolCompetitor(id=i, name=f"P{i}", position=i) for i in range(1, 7))
    got = pair(SolTourney(competitors=field), params)
    assert [(p.competitor1, p.competitor2) for p in got.pairings] == [(1, 6), (2, 5), (3, 4)]


def test_sol_knockout_bracket_and_power_of_two() -> None:
    assert sol_bracket(8) == [1, 8, 5, 4, 3, 6, 7, 2]
    params = SolParams(system=SolSystem.KNOCKOUT, couplings=Couplings.SEEDS)
    field = tuple(SolCompetitor(id=i, name=f"P{i}", position=i) for i in range(1, 7))
    with pytest.raises(SolError, match="power of two"):
        pair(SolTourney(competitors=field), params)


def test_knockout_draw_is_refused() -> None:
    params = SolParams(system=SolSystem.KNOCKOUT, couplings=Couplings.SEEDS)
    field = tuple(SolCompetitor(id=i, name=f"P{i}", position=i) for i in range(1, 5))
    matches = (
        SolMatch(round=1, board=1, competitor1=1, competitor2=4, score1=12, score2=12),
        SolMatch(round=1, board=2, competitor1=2, competitor2=3, score1=25, score2=3),
    )
    with pytest.raises(SolError, match="cannot be drawn"):
        pair(SolTourney(competitors=field, matches=matches), params)


def test_all_possible_matches_can_be_incomplete() -> None:
    params = SolParams(couplings=Couplings.ALL)
    field = _field(4)
    matches = (
        SolMatch(round=1, board=1, competitor1=1, competitor2=2, score1=25, score2=0),
        SolMatch(round=1, board=2, competitor1=3, competitor2=4, score1=25, score2=0),
        SolMatch(round=2, board=1, competitor1=1, competitor2=3, score1=25, score2=0),
    )
    got = pair(SolTourney(competitors=field, matches=matches), params)
    # greedy in list order: 1-4 first, then 2-3 (3 ranks above 2, so listed first)
    assert [(p.competitor1, p.competitor2) for p in got.pairings] == [(1, 4), (3, 2)]


def test_delay_top_players_orders_by_rate_after_bucholz() -> None:
    field = _field(6)  # rates: 1 strongest ... 6 weakest
    matches = (
        SolMatch(round=1, board=1, competitor1=1, competitor2=2, score1=25, score2=0),
        SolMatch(round=1, board=2, competitor1=3, competitor2=4, score1=15, score2=14),
        SolMatch(round=1, board=3, competitor1=5, competitor2=6, score1=20, score2=10),
    )
    t = SolTourney(competitors=field, matches=matches)
    assert ranking(t, SolParams(rated=True)) == [1, 5, 3, 4, 6, 2]

    def pairs(params: SolParams) -> list[tuple[int, int | None]]:
        return [(p.competitor1, p.competitor2) for p in pair(t, params).pairings]

    # delay for 2 rounds (1 ranked round < 2): winners and losers each in rate order
    assert pairs(SolParams(rated=True, delaytoppairing=2)) == [(1, 3), (5, 2), (4, 6)]
    # delay for 1 round is over after round 1: plain ranking (net score before rate)
    assert pairs(SolParams(rated=True, delaytoppairing=1)) == [(1, 5), (3, 6), (4, 2)]


def test_finals_single_and_best_of_three() -> None:
    field = _field(4)
    matches = (
        SolMatch(round=1, board=1, competitor1=1, competitor2=2, score1=25, score2=0),
        SolMatch(round=1, board=2, competitor1=3, competitor2=4, score1=15, score2=14),
    )
    t = SolTourney(competitors=field, matches=matches)
    params = SolParams(rated=True, finals=1, finalkind=FinalKind.BEST_OF_THREE)
    final = pair_final(t, params)
    assert final.final
    assert [(p.competitor1, p.competitor2) for p in final.pairings] == [(1, 3)]
    two_wins = (
        *matches,
        SolMatch(round=2, board=1, competitor1=1, competitor2=3, score1=5, score2=25, final=True),
        SolMatch(round=3, board=1, competitor1=1, competitor2=3, score1=4, score2=25, final=True),
    )
    with pytest.raises(SolError, match="No further final"):
        pair_final(SolTourney(competitors=field, matches=two_wins), params)
    with pytest.raises(SolError, match="not considered"):
        pair_final(t, SolParams(rated=True))


def test_params_are_validated() -> None:
    with pytest.raises(ValidationError, match="not a swiss method"):
        SolParams(couplings=Couplings.CIRCLE)
    with pytest.raises(ValidationError):
        SolParams(phantomscore=26)
