"""The results' deciders: a board's result entered, or corrected, one at a time or a round's
worth at once.

The rule is written once (`result`): the round is paired, the board is one of its boards and
not a bye, the text is one of the game's results (`events.results`), and a result already
entered needs ``correct`` (then the event is a `ResultCorrected`), which a board without one
refuses. A team match's board
``M.B`` is found among the match's boards (`TeamMatches`, which the service reads from the
team events: a required argument, `TeamMatches.none()` where there are no matches).
`results` decides a batch (a results file, several boards at once): all or none, a board given
twice refused. Every door enters results through these: `arbiter result` and
`arbiter results --file`, `batch`, the API, the manage form (the service
`pipelines.commands.results.record`).
"""

from __future__ import annotations

import abc
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from decide.errors import CommandError
from decide.inputs import ResultInput
from decide.state import BoardState, TournamentState
from events.domain import Outcome
from events.errors import UserError, braced
from events.results import Result, check_result, entered_result
from events.schema import ResultCorrected, ResultRecorded
from events.validate import InvalidField

__all__ = [
    "Entered",
    "TeamMatches",
    "already_entered",
    "board_number",
    "open_board",
    "result",
    "results",
]

Entered = ResultRecorded | ResultCorrected
W = TypeVar("W")


class TeamMatches(abc.ABC):
    """A team round's matches as a result entered ``M.B`` consults them."""

    @abc.abstractmethod
    def count(self, round_no: int) -> int | None:
        """How many matches round ``round_no`` has; None when it has no team pairing."""

    @abc.abstractmethod
    def boards(self, round_no: int, match_no: int) -> tuple[int, ...] | None:
        """The round's board numbers of match ``match_no``, its board 1 first; None when the
        round has no such match."""

    @staticmethod
    def none() -> TeamMatches:
        """No team pairing (an individual event, or none read): ``M.B`` is the number
        arbiter gives when it pairs, (M - 1) x boards + B."""
        return _NoMatches()


class _NoMatches(TeamMatches):
    def count(self, round_no: int) -> int | None:  # noqa: ARG002 (no matches at all)
        return None

    def boards(self, round_no: int, match_no: int) -> tuple[int, ...] | None:  # noqa: ARG002
        return None


def board_number(
    state: TournamentState, round_no: int, board: int | str, *, matches: TeamMatches
) -> int:
    """A board as entered: ``N``, or ``M.B`` (match M, board B) in a team tournament, as the
    round's board number: board B of match M among ``matches`` (when the round has no team
    pairing, the number arbiter gives it when it pairs, (M - 1) x boards + B)."""
    if isinstance(board, int):
        return board
    match_text, _, board_text = board.partition(".")
    match_no, board_no = int(match_text), int(board_text)
    boards = state.settings.pairing_params.team.team_boards or 1
    if not state.system.is_team:
        raise CommandError(f"{state.id}: M.B boards are for team tournaments")
    if not 1 <= board_no <= boards or match_no < 1:
        raise InvalidField("board", f"'{board}': boards of a match are 1..{boards}", sep=" ")
    count = matches.count(round_no)
    if round_no not in state.rounds or count is None:
        return (match_no - 1) * boards + board_no
    found = matches.boards(round_no, match_no)
    if found is None:
        raise CommandError(
            f"{state.id}: round {round_no} has no match {match_no} (matches 1..{count})"
        )
    if board_no > len(found):
        raise CommandError(
            f"{state.id}: round {round_no} match {match_no} has boards 1..{len(found)}"
        )
    return found[board_no - 1]


def open_board(state: TournamentState, round_no: int, number: int) -> BoardState:
    """Board ``number`` of round ``round_no``, where a result may be entered: the round is
    paired, the board is one of its boards and not a bye (else the refusal)."""
    tid = state.id
    rnd = state.rounds.get(round_no)
    if rnd is None:
        raise CommandError(
            f"{tid}: round {round_no} is not paired yet "
            f"(last paired round: {state.last_round or 'none'})"
        )
    board = rnd.board(number)
    if board is None:
        raise CommandError(
            f"{tid}: round {round_no} has no board {number} (boards 1..{len(rnd.boards)})"
        )
    if board.black is None:
        raise CommandError(f"{tid}: round {round_no} board {number} is a bye")
    return board


def already_entered(
    state: TournamentState, round_no: int, number: int, *, correct: bool
) -> Outcome | None:
    """The result board ``number`` already has (None for none): one entered needs
    ``correct``, and ``correct`` needs one entered (else the refusal)."""
    tid = state.id
    board = open_board(state, round_no, number)
    entered = board.outcome if board.outcome is not None and board.outcome.is_known else None
    if entered is not None and not correct:
        shown = entered_result(state.game, entered, board.white_score, board.black_score, board.how)
        raise CommandError.naming(
            f"{braced(tid)}: round {round_no} board {number} already has result "
            f"{braced(shown)}; use {{0}} to change it",
            "correct",
        )
    if entered is None and correct:
        raise CommandError.naming(
            f"{braced(tid)}: round {round_no} board {number} has no result to correct; "
            "enter it without {0}",
            "correct",
        )
    return entered


def result(
    state: TournamentState,
    command: ResultInput | Mapping[str, Any],
    *,
    matches: TeamMatches,
) -> list[Entered]:
    """The event that enters ``command`` on the state (a `ResultRecorded`, or with
    ``correct`` over a result entered, a `ResultCorrected`), or the refusal (its message
    starts with the tournament, or names the field)."""
    entry = ResultInput.check(command)
    tid = state.id
    number = board_number(state, entry.round, entry.board, matches=matches)
    board = open_board(state, entry.round, number)
    try:
        parsed = Result.parse(entry.result, state.game)
        check_result(state.game, parsed, board.komi, entry.result)
    except UserError as exc:
        raise exc.within(tid) from None
    entered = already_entered(state, entry.round, number, correct=entry.correct)
    kind = ResultRecorded if entered is None else ResultCorrected
    return [
        kind(
            round=entry.round,
            board=number,
            outcome=parsed.outcome,
            white_score=parsed.white_score,
            black_score=parsed.black_score,
            how=parsed.how,
        )
    ]


def results(
    state: TournamentState,
    commands: Sequence[tuple[ResultInput | Mapping[str, Any], W]],
    *,
    matches: TeamMatches,
    located: Callable[[W, UserError], UserError] | None,
) -> list[Entered]:
    """The events of several results entered at once, each decided by `result` on the same
    state (all or none). ``commands`` pairs each result with where it came from; a board
    given twice is refused, naming the other place. ``located(where, error)``: how a
    refusal names its place (a results file's line and column); None raises it as it is."""
    events: list[Entered] = []
    seen: dict[tuple[int, int], W] = {}
    for command, where in commands:
        try:
            (event,) = result(state, command, matches=matches)
            key = (event.round, event.board)
            if key in seen:
                board = ResultInput.check(command).board
                raise CommandError(f"board {board} is also on {seen[key]}")
            seen[key] = where
            events.append(event)
        except UserError as exc:
            if located is None:
                raise
            raise located(where, exc) from None
    return events
