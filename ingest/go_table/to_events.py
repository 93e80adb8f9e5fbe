"""Go cross tables (h9, .tou) → the events of a go tournament.

Both formats give one row per player and one cell per round (``12+/w3``: opponent, result,
colour, handicap). Each game is taken once, from the lower-numbered row; the colour comes from
either row, and without one the lower-numbered player takes the white seat. ``0+`` and ``0=``
are a full and a half-point bye; ``0-`` is a round without a game and needs no event.

What a cell shows beyond the game (whether colour and handicap were written, and the ``/``)
is kept per board in the round's metadata as ``go_cells`` so that the writers give the cells
back as they were: a flag string per seat, ``c`` colour written, ``h`` handicap written,
``s`` separator written.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from events.domain import Board, ByeKind, Colour, Game, Outcome, System
from events.params import GoSettings
from events.schema import (
    ByeGranted,
    Event,
    PlayerRegistered,
    PlayerWithdrawn,
    ResultRecorded,
    RoundPaired,
    TournamentCreated,
)
from events.scoring import Scoring
from ingest.conversion import Conversion, join_name
from ingest.go_table.records import GameResult, GoCell

__all__ = ["GoRow", "cell_flags", "go_table_to_events"]

_BYES = {GameResult.WIN: ByeKind.FULL, GameResult.DRAW: ByeKind.HALF}


@dataclass(frozen=True, slots=True)
class GoRow:
    """One player row, whatever the format."""

    number: int
    surname: str
    first_name: str
    rank: str
    country: str | None
    club: str | None
    cells: tuple[GoCell, ...]
    ids: dict[str, str] = field(default_factory=dict)
    line: int = 0
    """The row's line in the file (0: not known)."""


def cell_flags(cell: GoCell) -> str:
    return (
        ("c" if cell.colour is not None else "")
        + ("h" if cell.handicap is not None else "")
        + ("s" if cell.slash else "")
    )


def _outcome(white_cell: GoCell) -> Outcome | None:
    """The board's outcome from the white seat's cell; None when no result is known."""
    forfeit = white_cell.forfeit
    match white_cell.result:
        case GameResult.WIN:
            return Outcome.WHITE_WINS_FORFEIT if forfeit else Outcome.WHITE_WINS
        case GameResult.LOSS:
            return Outcome.BLACK_WINS_FORFEIT if forfeit else Outcome.BLACK_WINS
        case GameResult.DRAW:
            return Outcome.DRAW
        case GameResult.UNKNOWN:
            return None


def _row_is_white(cell: GoCell, back: GoCell) -> bool:
    if cell.colour is not None:
        return cell.colour is Colour.WHITE
    if back.colour is not None:
        return back.colour is Colour.BLACK
    return True


def go_table_to_events(
    rows: Sequence[GoRow],
    rounds: int,
    *,
    name: str,
    start: date | None,
    end: date | None,
    city: str | None,
    komi: float | None,
    pairing_byes: frozenset[tuple[int, int]] = frozenset(),
    zero_byes: frozenset[tuple[int, int]] = frozenset(),
    withdrawals: Mapping[int, int] | None = None,
) -> Conversion:
    """The stream of a go table whose cross-table checks passed (the readers make them).

    ``pairing_byes`` are the (round, row) whose ``0+`` the pairing gave (a bye board of the
    round, not a requested bye), ``zero_byes`` the ``0-`` that were requested zero-point byes,
    ``withdrawals`` the round each withdrawn row stopped playing from (by row).
    """
    withdrawn = dict(withdrawals or {})
    by_number = {row.number: row for row in rows}
    events: list[Event] = [
        TournamentCreated(
            tournament_id="go",
            name=name,
            game=Game.GO,
            system=System.IMPORTED,
            rounds=max(rounds, 1),
            scoring=Scoring.for_game_kind(Game.GO),
            start_date=start,
            end_date=end,
            city=city,
        )
    ]
    events.extend(
        PlayerRegistered(
            player=row.number,
            name=join_name(row.surname, row.first_name),
            rank=row.rank or None,
            federation=row.country or None,
            club=row.club or None,
            ids=row.ids,
            pairing_number=row.number,
        )
        for row in rows
    )
    metadata: dict[int, dict[str, Any]] = {}
    games = 0
    for index in range(rounds):
        round_no = index + 1
        boards: list[Board] = []
        outcomes: list[Outcome | None] = []
        flags: list[list[str]] = []
        byes: list[int] = []
        events.extend(
            PlayerWithdrawn(player=p, from_round=r) for p, r in withdrawn.items() if r == round_no
        )
        for row in rows:
            if index >= len(row.cells):
                continue
            cell = row.cells[index]
            if not cell.is_game:
                kind = _BYES.get(cell.result)
                if (round_no, row.number) in zero_byes and cell.result is GameResult.LOSS:
                    kind = ByeKind.ZERO
                if (round_no, row.number) in pairing_byes and kind is ByeKind.FULL:
                    byes.append(row.number)
                elif kind is not None:
                    events.append(ByeGranted(player=row.number, round=round_no, kind=kind))
                continue
            if cell.opponent < row.number:
                continue
            back = by_number[cell.opponent].cells[index]
            row_white = _row_is_white(cell, back)
            white_cell, black_cell = (cell, back) if row_white else (back, cell)
            white, black = (row.number, cell.opponent) if row_white else (cell.opponent, row.number)
            handicap = cell.handicap if cell.handicap is not None else back.handicap
            boards.append(
                Board(
                    board=len(boards) + 1,
                    white=white,
                    black=black,
                    handicap=handicap or 0,
                    komi=GoSettings(komi=komi).komi_for(handicap),
                )
            )
            outcomes.append(_outcome(white_cell))
            flags.append([cell_flags(white_cell), cell_flags(black_cell)])
        for player in byes:
            boards.append(Board(board=len(boards) + 1, white=player, black=None))
            flags.append(["", ""])
        if not boards:
            continue
        metadata[len(events)] = {"go_cells": flags}
        events.append(RoundPaired(round=round_no, boards=tuple(boards)))
        games += len(outcomes)
        events.extend(
            ResultRecorded(round=round_no, board=b, outcome=o)
            for b, o in enumerate(outcomes, start=1)
            if o is not None
        )
    events.extend(
        PlayerWithdrawn(player=p, from_round=r) for p, r in withdrawn.items() if r > rounds
    )
    lines = {row.number: row.line for row in rows if row.line}
    return Conversion(events, metadata, games=games, lines=lines)
