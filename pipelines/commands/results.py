"""Results: a board's result entered or corrected, one at a time or a round's worth at once.

The rule is written once (`result_event`): the board is paired and not a bye, the text is one
of the game's results (`events.results`), a result already entered needs ``correct``. Every
door enters results through `record` (`arbiter result`, `arbiter results --file`, the API, the
manage form).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from decide.inputs import ResultInput
from decide.state import TournamentState
from events.errors import UserError, braced
from events.results import Result, check_result
from events.schema import ResultCorrected, ResultRecorded
from events.store import Store
from events.validate import InvalidField
from pipelines.commands.base import (
    CommandError,
    Loaded,
    Snapshot,
    append,
    decided_again,
    snapshot,
)
from projections.game_terms import board_result
from projections.teams import TeamsState, match_boards, team_state

__all__ = ["board_number", "record", "record_one", "result_event"]

Entered = ResultRecorded | ResultCorrected


def board_number(
    state: TournamentState, round_no: int, board: int | str, teams: TeamsState | None = None
) -> int:
    """A board as entered: ``N``, or ``M.B`` (match M, board B) in a team tournament, as the
    round's board number: board B of match M as `projections.teams.match_boards` finds it
    (``teams``: the event's teams; without them, or before the round is paired, the number
    arbiter gives it when it pairs, (M - 1) x boards + B)."""
    if isinstance(board, int):
        return board
    match_text, _, board_text = board.partition(".")
    match_no, board_no = int(match_text), int(board_text)
    boards = state.settings.pairing_params.team.team_boards or 1
    if not state.system.is_team:
        raise CommandError(f"{state.id}: M.B boards are for team tournaments")
    if not 1 <= board_no <= boards or match_no < 1:
        raise InvalidField("board", f"'{board}': boards of a match are 1..{boards}", sep=" ")
    if teams is None or round_no not in state.rounds or round_no not in teams.rounds:
        return (match_no - 1) * boards + board_no
    found = match_boards(state, teams, round_no, match_no)
    if found is None:
        raise CommandError(
            f"{state.id}: round {round_no} has no match {match_no} "
            f"(matches 1..{len(teams.rounds[round_no].matches)})"
        )
    if board_no > len(found):
        raise CommandError(
            f"{state.id}: round {round_no} match {match_no} has boards 1..{len(found)}"
        )
    return found[board_no - 1].board


def result_event(
    state: TournamentState, entry: ResultInput, teams: TeamsState | None = None
) -> Entered:
    """The event that enters ``entry`` on the state, or the reason it is refused (its
    message starts with the tournament, or names the board when the tournament is clear).
    ``teams``: a team event's teams, for a board entered as ``M.B`` (`board_number`)."""
    tid = state.id
    number = board_number(state, entry.round, entry.board, teams)
    rnd = state.rounds.get(entry.round)
    if rnd is None:
        raise CommandError(
            f"{tid}: round {entry.round} is not paired yet "
            f"(last paired round: {state.last_round or 'none'})"
        )
    board = rnd.board(number)
    if board is None:
        raise CommandError(
            f"{tid}: round {entry.round} has no board {number} (boards 1..{len(rnd.boards)})"
        )
    if board.black is None:
        raise CommandError(f"{tid}: round {entry.round} board {number} is a bye")
    try:
        parsed = Result.parse(entry.result, state.game)
        check_result(state.game, parsed, board.komi, entry.result)
    except UserError as exc:
        raise exc.within(tid) from None
    entered = board.outcome if board.outcome is not None and board.outcome.is_known else None
    if entered is not None and not entry.correct:
        raise CommandError.naming(
            f"{braced(tid)}: round {entry.round} board {number} already has result "
            f"{braced(board_result(state.game, board) or entered.value)}; use {{0}} to change it",
            "correct",
        )
    kind = ResultRecorded if entered is None else ResultCorrected
    return kind(
        round=entry.round,
        board=number,
        outcome=parsed.outcome,
        white_score=parsed.white_score,
        black_score=parsed.black_score,
        how=parsed.how,
    )


@decided_again
def record(
    store: Store,
    tournament_id: str,
    entries: Sequence[tuple[ResultInput | Mapping[str, Any], Any]],
    *,
    known: Snapshot | None = None,
    command: str | None = None,
    located: Callable[[Any, UserError], UserError] | None = None,
) -> list[Entered]:
    """Enter results in one append (all or none). ``entries`` pairs each result with where it
    came from; ``located(where, error)`` turns a refusal into one naming that place (a results
    file's line and column). A board given twice is refused."""
    loaded = snapshot(store, tournament_id, known)
    events: list[Entered] = []
    seen: dict[tuple[int, int], Any] = {}
    teams: TeamsState | None = None
    for raw, where in entries:
        try:
            entry = ResultInput.check(raw)
            if isinstance(entry.board, str) and teams is None and loaded.state.system.is_team:
                stream = (  # a state the caller held (the server's) comes without its events
                    loaded.events
                    if isinstance(loaded, Loaded)
                    else store.read_stream(loaded.stream_id, loaded.version)
                )
                teams = team_state(e.event for e in stream)
            event = result_event(loaded.state, entry, teams)
            key = (event.round, event.board)
            if key in seen:
                raise CommandError(f"board {entry.board} is also on {seen[key]}")
            seen[key] = where
            events.append(event)
        except UserError as exc:
            if located is None:
                raise
            raise located(where, exc) from None
    if events:
        meta = {} if command is None else {"command": command}
        append(store, loaded, events, **meta)
    return events


def record_one(
    store: Store,
    tournament_id: str,
    entry: ResultInput | Mapping[str, Any],
    *,
    known: Snapshot | None = None,
) -> Entered:
    """Enter (or correct) one board's result."""
    (event,) = record(store, tournament_id, [(entry, None)], known=known)
    return event
