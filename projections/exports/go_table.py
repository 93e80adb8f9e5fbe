"""A go tournament stream → the rows of a go table, shared by the h9 and .tou writers.

Rows in start order, one cell per round from the state: the opponent's row number, the result
from the row's side, colour and handicap. The import's ``go_cells`` flags say which of these a
cell showed; a live tournament writes them all. Placement columns (MMS, SOS ...) are not
written: they are the standings' job.
"""

from __future__ import annotations

from decide.state import PlayerState
from events.domain import ByeKind, Colour, Outcome
from ingest.conversion import split_name
from ingest.go_table.records import GameResult, GoCell
from projections.exports.log_view import LogView

__all__ = ["go_cells", "name_tokens"]

_WHITE_RESULT: dict[Outcome, GameResult] = {
    Outcome.WHITE_WINS: GameResult.WIN,
    Outcome.WHITE_WINS_FORFEIT: GameResult.WIN,
    Outcome.BLACK_WINS: GameResult.LOSS,
    Outcome.BLACK_WINS_FORFEIT: GameResult.LOSS,
    Outcome.DRAW: GameResult.DRAW,
    Outcome.BOTH_WIN: GameResult.WIN,
    Outcome.BOTH_LOSE: GameResult.LOSS,
    Outcome.DOUBLE_FORFEIT: GameResult.LOSS,
    Outcome.UNKNOWN: GameResult.UNKNOWN,
}
_BYE_RESULT = {ByeKind.FULL: GameResult.WIN, ByeKind.PAIRING: GameResult.WIN}
_BYE_RESULT[ByeKind.HALF] = GameResult.DRAW


def go_cells(view: LogView, player: PlayerState, rows: dict[int, int]) -> tuple[GoCell, ...]:
    state = view.state
    cells: list[GoCell] = []
    for r in range(1, state.total_rounds + 1):
        rnd = state.rounds.get(r)
        board = rnd.by_player.get(player.id) if rnd is not None else None
        if board is None or board.black is None:
            kind = ByeKind.PAIRING if board is not None else state.byes.get(r, {}).get(player.id)
            result = _BYE_RESULT.get(kind, GameResult.LOSS) if kind is not None else GameResult.LOSS
            cells.append(GoCell(0, result))
            continue
        assert rnd is not None
        white = board.white == player.id
        result = GameResult.UNKNOWN
        if board.outcome is not None:
            result = _WHITE_RESULT[board.outcome]
            if not white and board.outcome not in {Outcome.BOTH_WIN, Outcome.BOTH_LOSE}:
                result = result.mirror
        index = rnd.boards.index(board)
        stated = view.round_meta.get(r, {}).get("go_cells")
        flags = str(stated[index][0 if white else 1]) if stated else "chs"
        cells.append(
            GoCell(
                rows[board.black if white else board.white],
                result,
                (Colour.WHITE if white else Colour.BLACK) if "c" in flags else None,
                board.handicap if "h" in flags else None,
                board.outcome is not None and board.outcome.is_forfeit,
                "s" in flags,
            )
        )
    return tuple(cells)


def name_tokens(name: str) -> tuple[str, ...]:
    surname, first_name = split_name(name)
    return (surname.replace(" ", "_") or "?", *first_name.split())
