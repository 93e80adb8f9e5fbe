"""The go pairing report on a small hand-made round."""

from __future__ import annotations

from decide.state import project
from events.domain import Board, Game, Outcome, System
from events.params import PairingParams
from events.schema import (
    Event,
    PlayerRegistered,
    ResultRecorded,
    RoundPaired,
    TournamentCreated,
)
from projections.pairing_report import pairing_report


def events() -> list[Event]:
    players = [
        ("A", "3d", "Paris", "FR"),
        ("B", "2d", "Paris", "FR"),
        ("C", "1k", "Lyon", "FR"),
        ("D", "5k", "Berlin", "DE"),
    ]
    out: list[Event] = [
        TournamentCreated(
            tournament_id="g",
            name="G",
            game=Game.GO,
            system=System.MACMAHON,
            rounds=3,
            pairing_params=PairingParams.model_validate({"mm_bar": 3, "mm_floor": -20}),
        )
    ]
    out += [
        PlayerRegistered(player=i, name=n, rank=r, club=c, federation=f)
        for i, (n, r, c, f) in enumerate(players, start=1)
    ]
    out += [
        RoundPaired(
            round=1,
            boards=(Board(board=1, white=1, black=2), Board(board=2, white=3, black=4, handicap=3)),
        ),
        ResultRecorded(round=1, board=1, outcome=Outcome.WHITE_WINS),
        ResultRecorded(round=1, board=2, outcome=Outcome.WHITE_WINS),
        RoundPaired(
            round=2, boards=(Board(board=1, white=1, black=3), Board(board=2, white=2, black=4))
        ),
    ]
    return out


def test_report_of_round_two() -> None:
    report = pairing_report(project(events()), 2, handicap_threshold=2)
    # Start MMS = 30 + rank (1d = 30): A 32, B 31, C 29, D 25; round 1 winners A and C +1.
    by_board = {g.board: g for g in report.games}
    assert (by_board[1].white_mms, by_board[1].black_mms) == (33.0, 30.0)
    assert (by_board[2].white_mms, by_board[2].black_mms) == (31.0, 25.0)
    assert report.mms_gaps == {3.0: 1, 6.0: 1}
    assert report.same_club == ()
    assert [g.board for g in report.same_country] == [1]
    # Only even games count for colour: A was White once, B Black once in round 1,
    # then A White again in round 2.
    assert report.colour_imbalance == {1: 2}
    assert report.handicap_above == ()


def test_round_one_same_club_and_handicap() -> None:
    report = pairing_report(project(events()), 1, handicap_threshold=2)
    assert [g.board for g in report.same_club] == [1]
    assert [g.board for g in report.handicap_above] == [2]
    text = report.lines({1: "A", 2: "B", 3: "C", 4: "D"})
    assert "board 2: C - D (3 stones)" in text[-1]
