"""Tie-break rules on small hand-worked events: codes, options, Kallithea, carrom scores."""

from __future__ import annotations

import pytest

from decide.state import TournamentState, project
from events.domain import Board, Game, Outcome, System
from events.schema import (
    Event,
    PlayerRegistered,
    PlayerWithdrawn,
    ResultRecorded,
    RoundPaired,
    TournamentCreated,
)
from events.scoring import Scoring
from projections.tiebreaks import TiebreakOptions, UnknownTiebreak, lookup
from projections.tiebreaks.context import CarromParams

Game_ = tuple[int, int | None, Outcome | None, tuple[float, float] | None]


def _tournament(
    game: Game, rounds: list[list[Game_]], ratings: list[int | None], **created: object
) -> list[Event]:
    events: list[Event] = [
        TournamentCreated(
            tournament_id="t",
            name="t",
            game=game,
            system=System.DUTCH,
            rounds=len(rounds),
            scoring=Scoring.for_game_kind(game),
            **created,  # type: ignore[arg-type]
        )
    ]
    events += [
        PlayerRegistered(player=i, name=f"P{i}", rating=r, pairing_number=i)
        for i, r in enumerate(ratings, start=1)
    ]
    for r, games in enumerate(rounds, start=1):
        boards = tuple(Board(board=i, white=w, black=b) for i, (w, b, _, _) in enumerate(games, 1))
        events.append(RoundPaired(round=r, boards=boards))
        for i, (_, b, outcome, scores) in enumerate(games, 1):
            if b is None or outcome is None:
                continue
            ws, bs = scores if scores else (None, None)
            events.append(
                ResultRecorded(round=r, board=i, outcome=outcome, white_score=ws, black_score=bs)
            )
    return events


def _chess() -> TournamentState:
    # R1: 1-2 1-0, 3-4 1-0;  R2: 1-3 forfeit won by 1, 2-4 ½;  R3: 1-4 1-0, 2-3 0-1.
    # Points 1: 3, 2: ½, 3: 2, 4: ½.  Player 4 is unrated.
    rounds: list[list[Game_]] = [
        [(1, 2, Outcome.WHITE_WINS, None), (3, 4, Outcome.WHITE_WINS, None)],
        [(1, 3, Outcome.WHITE_WINS_FORFEIT, None), (2, 4, Outcome.DRAW, None)],
        [(1, 4, Outcome.WHITE_WINS, None), (2, 3, Outcome.BLACK_WINS, None)],
    ]
    return project(_tournament(Game.CHESS, rounds, [2000, 1900, 1800, None]))


def test_codes_are_parsed_and_canonical() -> None:
    assert lookup("bh/c1").code == "BH/C1"
    assert lookup("BH/M1").code == "BH/M1"
    assert lookup("ARO/C1/U1400").code == "ARO/C1/U1400"
    assert lookup("GE").name.startswith("Rounds one elected")
    with pytest.raises(UnknownTiebreak, match="unknown tie-break 'XYZ'"):
        lookup("XYZ")
    with pytest.raises(UnknownTiebreak):
        lookup("BH/U1400")  # Buchholz takes no rating modifier
    with pytest.raises(UnknownTiebreak):
        lookup("SB/Q2")


def test_c07_dummy_opponent_for_an_unplayed_round() -> None:
    bh = lookup("BH").compute(_chess(), 3)
    # Player 1: 2 scored ½, the forfeit win counts his own 3, 4 scored ½.
    assert bh[1] == 4.0
    # Player 3 lost by forfeit (with an opponent): his 0 stays; dummy = own 2.
    assert bh[3] == 0.5 + 2.0 + 0.5


def test_kallithea_virtual_opponent() -> None:
    bh = lookup("BH").compute(_chess(), 3, TiebreakOptions(virtual_opponent="kallithea"))
    # Round 2 for player 1: 1 point before it, the reverse of a win (0), then a draw: 1.5.
    assert bh[1] == 0.5 + 1.5 + 0.5


def test_unrated_players_need_a_configured_rating() -> None:
    state = _chess()
    assert set(lookup("ARO").compute(state, 3).values()) == {None}
    aro = lookup("ARO").compute(state, 3, TiebreakOptions(unrated_rating=1400))
    assert aro[1] == round((1900 + 1400) / 2)  # the forfeit does not count
    assert lookup("ARO/U1000").compute(state, 3)[1] == (1900 + 1000) / 2


def test_carrom_bucholz_with_retirements_net_and_total_score() -> None:
    # R1: 1-2 10-25, 3-4 20-20;  2 retires from round 2;  R2: 1-3 15-25, 4 phantom;
    # R3: 1-4 25-5, 3 phantom.  Points (2/1/0): 1: 2, 2: 2, 3: 5, 4: 3.
    rounds: list[list[Game_]] = [
        [(1, 2, Outcome.BLACK_WINS, (10, 25)), (3, 4, Outcome.DRAW, (20, 20))],
        [(1, 3, Outcome.BLACK_WINS, (15, 25)), (4, None, None, None)],
        [(1, 4, Outcome.WHITE_WINS, (25, 5)), (3, None, None, None)],
    ]
    events = _tournament(Game.CARROM, rounds, [None] * 4)
    events.append(PlayerWithdrawn(player=2, from_round=2))
    state = project(events)

    def bucholz(policy: str) -> float | None:
        options = TiebreakOptions(carrom=CarromParams(retirements=policy))  # type: ignore[arg-type]
        return lookup("BUCHOLZ").compute(state, 3, options)[1]

    assert bucholz("none") == 2 + 5 + 3
    assert bucholz("trend") == 2 + 4 + 5 + 3  # int(2 / 1 * 1.0 * (3 - 1)) = 4
    assert bucholz("trend70") == 2 + 2 + 5 + 3  # int(2 / 1 * 0.7 * 2) = 2
    net = lookup("NETSCORE").compute(state, 3)
    assert net[1] == -15 - 10 + 20
    assert net[4] == 0 + 25 - 20  # the phantom win counts 25
    assert lookup("TOTSCORE").compute(state, 3)[1] == 10 + 15 + 25
    # SoL's rankings (carrom/sol/cases) count the phantom match's 25 in the total score.
    assert lookup("TOTSCORE").compute(state, 3)[3] == 20 + 25 + 25
