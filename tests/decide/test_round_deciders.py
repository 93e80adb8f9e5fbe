"""The pairing and results deciders as pure functions: what they consult is an argument, so a
test gives the engine's proposal and a team round's matches itself, and sees the decider
check them (the doors' refusals are tests/cli/test_validation_table.py and friends)."""

from __future__ import annotations

import pytest

from decide.errors import CommandError
from decide.pairing import RoundEngine, pair, pair_by_hand
from decide.results import TeamMatches, result
from decide.state import TournamentState, project
from events.domain import Board, Game, Outcome, System
from events.errors import PairingError
from events.params import PairingParams, TeamSettings
from events.schema import (
    Event,
    EventBase,
    PlayerRegistered,
    ResultRecorded,
    RoundPaired,
    TournamentCreated,
)


def _swiss(*later: Event) -> TournamentState:
    """A chess Dutch of four players, and ``later`` events."""
    created = TournamentCreated(
        tournament_id="d", name="D", game=Game.CHESS, system=System.DUTCH, rounds=3
    )
    players = [PlayerRegistered(player=n, name=f"P{n}, A") for n in range(1, 5)]
    return project([created, *players, *later])


def _proposing(*boards: Board) -> RoundEngine:
    def engine(state: TournamentState, round_no: int, bye: int | None) -> list[EventBase]:
        return [RoundPaired(round=round_no, boards=boards)]

    return engine


def test_pair_appends_what_the_engine_proposes() -> None:
    proposal = (Board(board=1, white=1, black=3), Board(board=2, white=4, black=2))
    events = pair(_swiss(), engine=_proposing(*proposal), bye=None)
    assert events == [RoundPaired(round=1, boards=proposal)]


@pytest.mark.parametrize(
    ("boards", "message"),
    [
        (
            (Board(board=1, white=1, black=2), Board(board=2, white=1, black=3)),
            "d: the engine put player No. 1 (P1, A) on two boards",
        ),
        ((Board(board=1, white=1, black=9),), "d: the engine paired player id:9, who is not in it"),
    ],
)
def test_pair_refuses_a_proposal_that_misplaces_a_player(
    boards: tuple[Board, ...], message: str
) -> None:
    with pytest.raises(CommandError) as refused:
        pair(_swiss(), engine=_proposing(*boards), bye=None)
    assert str(refused.value) == message


def test_an_engine_that_cannot_pair_is_a_refusal_naming_the_tournament() -> None:
    def engine(state: TournamentState, round_no: int, bye: int | None) -> list[EventBase]:
        raise PairingError("no pairing satisfies the absolute criteria")

    with pytest.raises(CommandError) as refused:
        pair(_swiss(), engine=engine, bye=None)
    assert str(refused.value) == "d: no pairing satisfies the absolute criteria"


def test_pair_asks_no_engine_before_the_last_round_is_complete() -> None:
    state = _swiss(
        RoundPaired(
            round=1, boards=(Board(board=1, white=1, black=2), Board(board=2, white=3, black=4))
        ),
        ResultRecorded(round=1, board=2, outcome=Outcome.DRAW),
    )

    def engine(state: TournamentState, round_no: int, bye: int | None) -> list[EventBase]:
        raise AssertionError("the engine was asked")

    with pytest.raises(CommandError, match=r"^d: round 1 still lacks results on board\(s\) 1$"):
        pair(state, engine=engine, bye=None)
    with pytest.raises(CommandError, match=r"^d: round 1 still lacks results on board\(s\) 1$"):
        pair_by_hand(state, [(1, 3), (2, 4)], force=True)


class _Cup(TeamMatches):
    """Round 1 of a two-board team event read from a file: match 1 on boards 3 and 4, match 2
    on boards 1 and 2 (a file keeps its own board numbers)."""

    def count(self, round_no: int) -> int | None:
        return 2 if round_no == 1 else None

    def boards(self, round_no: int, match_no: int) -> tuple[int, ...] | None:
        return {1: (3, 4), 2: (1, 2)}.get(match_no) if round_no == 1 else None


def _team_round() -> TournamentState:
    return project(
        [
            TournamentCreated(
                tournament_id="c",
                name="C",
                game=Game.CHESS,
                system=System.TEAM_SWISS,
                rounds=3,
                pairing_params=PairingParams(team=TeamSettings(team_boards=2)),
            ),
            *(PlayerRegistered(player=n, name=f"P{n}, A") for n in range(1, 9)),
            RoundPaired(
                round=1,
                boards=tuple(Board(board=b, white=2 * b - 1, black=2 * b) for b in range(1, 5)),
            ),
        ]
    )


def test_a_team_board_is_found_among_its_match_s_boards() -> None:
    state = _team_round()
    (entered,) = result(state, {"round": 1, "board": "1.2", "result": "1-0"}, matches=_Cup())
    assert entered.board == 4
    with pytest.raises(CommandError, match=r"^c: round 1 has no match 3 \(matches 1\.\.2\)$"):
        result(state, {"round": 1, "board": "3.1", "result": "1-0"}, matches=_Cup())
    # without the team pairing, M.B is the number arbiter gives: (M - 1) x boards + B
    (numbered,) = result(
        state, {"round": 1, "board": "1.2", "result": "1-0"}, matches=TeamMatches.none()
    )
    assert numbered.board == 2
