"""The Brightwell quotient on a hand-worked example of the WOC rule.

BQ = discs scored + 6 x the opponents' points; a bye (or a game against a withdrawn player)
counts 32 + 6 x the player's own points.
"""

from __future__ import annotations

from decide.state import project
from events.domain import Board, Game, Outcome, System
from events.schema import (
    Event,
    PlayerRegistered,
    PlayerWithdrawn,
    ResultRecorded,
    RoundPaired,
    TournamentCreated,
)
from projections.standings import standings


def tournament(withdraw_b: bool = False) -> list[Event]:
    events: list[Event] = [
        TournamentCreated(
            tournament_id="o", name="O", game=Game.OTHELLO, system=System.SWISS, rounds=2
        ),
        PlayerRegistered(player=1, name="A"),
        PlayerRegistered(player=2, name="B"),
        PlayerRegistered(player=3, name="C"),
        RoundPaired(round=1, boards=(Board(board=1, white=1, black=2), Board(board=2, white=3))),
        ResultRecorded(
            round=1, board=1, outcome=Outcome.WHITE_WINS, white_score=40, black_score=24
        ),
        RoundPaired(round=2, boards=(Board(board=1, white=3, black=1), Board(board=2, white=2))),
        ResultRecorded(
            round=2, board=1, outcome=Outcome.WHITE_WINS, white_score=33, black_score=31
        ),
    ]
    if withdraw_b:
        events.append(PlayerWithdrawn(player=2, from_round=2))
    return events


def bq(events: list[Event]) -> dict[str, float | None]:
    state = project(events)
    return {r.name: r.tiebreaks["BQ"] for r in standings(state, ["BQ", "DISCS"])}


def test_brightwell_worked_example() -> None:
    # A: 40 + 6*1 (B) + 31 + 6*2 (C) = 89; B: 24 + 6*1 (A) + bye 32 + 6*1 = 68;
    # C: bye 32 + 6*2 + 33 + 6*1 (A) = 83.
    assert bq(tournament()) == {"C": 83.0, "A": 89.0, "B": 68.0}


def test_games_against_a_withdrawn_player_count_as_byes() -> None:
    # B withdrew: A's game against B counts 32 + 6*1 (A's own points) = 38 instead of 46.
    values = bq(tournament(withdraw_b=True))
    assert values["A"] == 38 + 31 + 12
    assert values["C"] == 83.0


def test_othello_swiss_ranks_by_points_then_bq() -> None:
    state = project(tournament())
    rows = standings(state, ["BQ", "DISCS"])
    assert [r.name for r in rows] == ["C", "A", "B"]
    assert rows[1].tiebreaks == {"BQ": 89.0, "DISCS": 71.0}
