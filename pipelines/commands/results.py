"""Results: a board's result entered or corrected, one at a time or a round's worth at once.

The rule is written once (`result_event`): the board is paired and not a bye, the text is one
of the game's results (`events.results`), a result already entered needs ``correct``. Every
door enters results through `record` (`arbiter result`, `arbiter results --file`, the API, the
manage form).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from events.errors import UserError, braced
from events.results import Result, check_result
from events.schema import ResultCorrected, ResultRecorded
from events.store import Store
from events.validate import InvalidField
from pipelines.commands.base import CommandError, Snapshot, append, decided_again, snapshot
from pipelines.commands.inputs import ResultInput
from projections.game_terms import board_result
from projections.state import TournamentState

__all__ = ["board_number", "record", "record_one", "result_event"]

Entered = ResultRecorded | ResultCorrected


def board_number(state: TournamentState, board: int | str) -> int:
    """A board as entered: ``N``, or ``M.B`` (match M, board B) in a team tournament, as the
    round's board number."""
    if isinstance(board, int):
        return board
    match_text, _, board_text = board.partition(".")
    match_no, board_no = int(match_text), int(board_text)
    boards = state.settings.pairing_params.team.team_boards or 1
    if not state.system.is_team:
        raise CommandError(f"{state.id}: M.B boards are for team tournaments")
    if not 1 <= board_no <= boards or match_no < 1:
        raise InvalidField("board", f"'{board}': boards of a match are 1..{boards}", sep=" ")
    return (match_no - 1) * boards + board_no


def result_event(state: TournamentState, entry: ResultInput) -> Entered:
    """The event that enters ``entry`` on the state, or the reason it is refused (its
    message starts with the tournament, or names the board when the tournament is clear)."""
    tid = state.id
    number = board_number(state, entry.board)
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
    seen: dict[tuple[int, int | str], Any] = {}
    for raw, where in entries:
        try:
            entry = ResultInput.check(raw)
            key = (entry.round, entry.board)
            if key in seen:
                raise CommandError(f"board {entry.board} is also on {seen[key]}")
            seen[key] = where
            events.append(result_event(loaded.state, entry))
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
