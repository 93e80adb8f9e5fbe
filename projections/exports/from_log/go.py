"""A go tournament stream → h9 (EGD) and .tou (FFG) tables.

Rows in start order, one cell per round from the state: the opponent's row number, the result
from the row's side, colour and handicap. The import's ``go_cells`` flags say which of these a
cell showed; a live tournament writes them all. Header tags and comments come back from the
import's metadata, else from the tournament's name, dates, place and komi. Placement columns
(MMS, SOS ...) are not written: they are the standings' job.
"""

from __future__ import annotations

from collections.abc import Sequence

from events.domain import ByeKind, Outcome
from events.store import RecordedEvent
from ingest.events_common import split_name
from ingest.h9 import GameResult, GoCell, H9Comment, H9Entry, H9File, H9Player, H9Tag, StoneColour
from ingest.tou import TouComment, TouEntry, TouFile, TouHeader, TouPlayer
from projections.exports.from_log.common import LogView, view_of
from projections.state import PlayerState

__all__ = ["h9_from_log", "tou_from_log"]

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


def _cells(view: LogView, player: PlayerState, rows: dict[int, int]) -> tuple[GoCell, ...]:
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
                (StoneColour.WHITE if white else StoneColour.BLACK) if "c" in flags else None,
                board.handicap if "h" in flags else None,
                board.outcome is not None and board.outcome.is_forfeit,
                "s" in flags,
            )
        )
    return tuple(cells)


def _name_tokens(name: str) -> tuple[str, ...]:
    surname, first_name = split_name(name)
    return (surname.replace(" ", "_") or "?", *first_name.split())


def h9_from_log(events: Sequence[RecordedEvent]) -> H9File:
    view = view_of(events)
    settings = view.state.settings
    players = view.players()
    rows = {p.id: i for i, p in enumerate(players, start=1)}
    entries: list[H9Entry] = []
    head = view.created_meta.get("h9_head")
    if head is None:
        entries.append(H9Tag("EV", settings.name))
        if settings.start_date is not None:
            end = settings.end_date or settings.start_date
            entries.append(H9Tag("DT", f"{settings.start_date},{end}"))
        komi = next((b.komi for r in view.state.rounds.values() for b in r.boards), None)
        if komi is not None:
            entries.append(H9Tag("KM", f"{komi:g}"))
    else:
        entries.extend(H9Tag(k, v) if k else H9Comment(v) for k, v in head)
    for p in players:
        entries.append(
            H9Player(
                number=rows[p.id],
                place=None,
                name=_name_tokens(p.name),
                rank=p.rank or "20k",
                country=p.federation or "XX",
                club=p.club or "xxxx",
                criteria=(),
                results=_cells(view, p, rows),
                pin=p.ids.get("egd_pin"),
            )
        )
    return H9File.model_construct(path="", entries=tuple(entries), rounds=view.state.total_rounds)


def tou_from_log(events: Sequence[RecordedEvent]) -> TouFile:
    view = view_of(events)
    settings = view.state.settings
    players = view.players()
    rows = {p.id: p.pairing_number or i for i, p in enumerate(players, start=1)}
    entries: list[TouEntry] = []
    head = view.created_meta.get("tou_head")
    if head is None:
        entries.append(TouHeader("name", settings.name))
        if settings.start_date is not None:
            entries.append(TouHeader("date", f"{settings.start_date:%d/%m/%Y}"))
    else:
        entries.extend(TouHeader(k, v) if k else TouComment(v) for k, v in head)
    entries.extend(
        TouPlayer(
            rows[p.id],
            _name_tokens(p.name),
            p.rank or "20K",
            p.ids.get("ffg"),
            p.club or "xxxx",
            _cells(view, p, rows),
        )
        for p in players
    )
    return TouFile.model_construct(path="", entries=tuple(entries), rounds=view.state.total_rounds)
