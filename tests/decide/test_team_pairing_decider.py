"""The team pairing decider (`decide.teams.pair_round`) as a pure function: the test gives the
engine's proposal itself and sees the decider check it, choose each team's players and number
the boards as docs/validation.md's rule says (a team event's round: at least two teams; each
team of a match plays its line-up for the round, else its members in roster order, with a
player for every board; the team with the pairing-allocated bye needs none; match ``m``'s
board ``i`` is the round's board ``(m - 1) x boards + i``, in the colours the engine gives
the first-named team)."""

from __future__ import annotations

import pytest

from decide.errors import CommandError
from decide.state import TournamentState, project
from decide.team_state import TeamsState, team_state
from decide.teams import TeamEngine, TeamProposal, pair_round
from events.domain import Board, Colour, Game, System
from events.errors import PairingError
from events.params import PairingParams, TeamSettings
from events.schema import (
    Event,
    LineupSet,
    PlayerRegistered,
    PlayerWithdrawn,
    RoundPaired,
    TeamMatch,
    TeamMemberAdded,
    TeamRegistered,
    TeamRoundPaired,
    TournamentCreated,
)

W, B = Colour.WHITE, Colour.BLACK


def _cup(*later: Event, teams: int = 3) -> tuple[TournamentState, TeamsState]:
    """A team Swiss of two boards: team 1 `Aker` (players 1, 2, 3), team 2 `Berg` (4, 5),
    team 3 `Dal` (6 only); the first ``teams`` of them, then ``later``."""
    events: list[Event] = [
        TournamentCreated(
            tournament_id="c",
            name="C",
            game=Game.CHESS,
            system=System.TEAM_SWISS,
            rounds=3,
            pairing_params=PairingParams(team=TeamSettings(team_boards=2)),
        ),
        *(PlayerRegistered(player=n, name=f"P{n}, A") for n in range(1, 7)),
    ]
    rosters = {1: ("Aker", (1, 2, 3)), 2: ("Berg", (4, 5)), 3: ("Dal", (6,))}
    for number in range(1, teams + 1):
        name, members = rosters[number]
        events.append(TeamRegistered(team=number, name=name, members=members))
    events.extend(later)
    return project(events), team_state(events)


def _proposing(*pairs: tuple[int, int], pab: int | None, colours: tuple[Colour, ...]) -> TeamEngine:
    def engine(state: TournamentState, teams: TeamsState, round_no: int) -> TeamProposal:
        return TeamProposal(pairs=pairs, pab=pab, colours=colours)

    return engine


def test_the_boards_follow_the_line_ups_and_the_engine_s_colours() -> None:
    state, teams = _cup(LineupSet(team=1, round=1, players=(3, 1), out_of_order=True))
    events = pair_round(state, teams, engine=_proposing((2, 1), pab=3, colours=(W, B)), bye=None)
    assert events == [
        # board 1: Berg's first player has White; board 2: Aker's second player has White
        RoundPaired(
            round=1, boards=(Board(board=1, white=4, black=3), Board(board=2, white=1, black=5))
        ),
        TeamRoundPaired(
            round=1,
            matches=(
                TeamMatch(match=1, white=2, black=1, white_players=(4, 5), black_players=(3, 1)),
            ),
            pab=3,  # Dal has one player for two boards, and plays no match
            boards=2,
        ),
    ]


def test_the_second_match_s_boards_follow_the_first_s_and_withdrawn_members_sit_out() -> None:
    state, teams = _cup(
        *(PlayerRegistered(player=n, name=f"P{n}, A") for n in (7, 8, 9)),
        TeamMemberAdded(team=3, player=9),
        TeamRegistered(team=4, name="Eid", members=(7, 8)),
        PlayerWithdrawn(player=1, from_round=1),
    )
    events = pair_round(
        state, teams, engine=_proposing((1, 2), (4, 3), pab=None, colours=(W, B)), bye=None
    )
    assert events[0] == RoundPaired(
        round=1,
        boards=(
            Board(board=1, white=2, black=4),  # Aker without its withdrawn player 1: 2, 3
            Board(board=2, white=5, black=3),
            Board(board=3, white=7, black=6),  # match 2 from board (2 - 1) x 2 + 1
            Board(board=4, white=9, black=8),
        ),
    )
    team_round = events[1]
    assert isinstance(team_round, TeamRoundPaired)
    assert [(m.match, m.white_players, m.black_players) for m in team_round.matches] == [
        (1, (2, 3), (4, 5)),
        (2, (7, 8), (6, 9)),
    ]


def test_fewer_than_two_teams_is_refused_before_the_engine() -> None:
    state, teams = _cup(teams=1)

    def engine(state: TournamentState, teams: TeamsState, round_no: int) -> TeamProposal:
        raise AssertionError("the engine is not asked")

    with pytest.raises(CommandError) as refused:
        pair_round(state, teams, engine=engine, bye=None)
    assert str(refused.value) == "c: register at least two teams before pairing"


def test_a_team_short_of_players_for_its_boards_is_refused() -> None:
    state, teams = _cup()
    with pytest.raises(CommandError) as refused:
        pair_round(state, teams, engine=_proposing((1, 3), pab=2, colours=(W, B)), bye=None)
    assert str(refused.value) == (
        "c: Dal has 1 player(s) for 2 boards in round 1; add members or set a line-up"
    )


@pytest.mark.parametrize(
    ("pairs", "pab", "colours", "message"),
    [
        (((1, 9),), None, (W, B), "c: the engine paired team 9, which is not in it"),
        (((1, 2),), 1, (W, B), "c: the engine put team 1 in two matches"),
        (((1, 2),), 3, (W,), "c: the engine gave 1 board colours for 2 boards"),
    ],
)
def test_a_proposal_that_misplaces_a_team_is_refused(
    pairs: tuple[tuple[int, int], ...], pab: int | None, colours: tuple[Colour, ...], message: str
) -> None:
    state, teams = _cup()
    with pytest.raises(CommandError) as refused:
        pair_round(state, teams, engine=_proposing(*pairs, pab=pab, colours=colours), bye=None)
    assert str(refused.value) == message


def test_an_engine_that_cannot_pair_is_a_refusal_naming_the_tournament() -> None:
    state, teams = _cup()

    def engine(state: TournamentState, teams: TeamsState, round_no: int) -> TeamProposal:
        raise PairingError("no pairing satisfies the absolute criteria")

    with pytest.raises(CommandError) as refused:
        pair_round(state, teams, engine=engine, bye=None)
    assert str(refused.value) == "c: no pairing satisfies the absolute criteria"


def test_a_player_s_bye_is_refused_in_a_team_event() -> None:
    state, teams = _cup()
    with pytest.raises(CommandError) as refused:
        pair_round(state, teams, engine=_proposing((1, 2), pab=3, colours=(W, B)), bye=6)
    assert refused.value.render(lambda f: "--" + f) == (
        "c: --bye gives a player the bye; a team event's byes are its teams' (arbiter team bye)"
    )


def test_an_individual_event_is_refused() -> None:
    state = project(
        [
            TournamentCreated(
                tournament_id="d", name="D", game=Game.CHESS, system=System.DUTCH, rounds=3
            ),
            *(PlayerRegistered(player=n, name=f"P{n}, A") for n in range(1, 3)),
        ]
    )
    with pytest.raises(CommandError, match=r"^d: not a team tournament"):
        pair_round(state, TeamsState(), engine=_proposing((1, 2), pab=None, colours=(W,)), bye=None)
