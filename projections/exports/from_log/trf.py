"""A chess tournament stream → a FIDE Tournament Report File (records for the TRF writer).

One ``001`` record per player in start order with the log's points and rank, one round block
per round: games with colour and result code, ``U`` for the pairing-allocated bye, ``H``/``F``/
``Z`` for requested byes, a blank block for a round without either. A player who withdrew gets
no blocks from that round on, which is how the TRF says so.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from events.domain import ByeKind, Outcome, Scoring, System
from events.store import RecordedEvent
from ingest.trf import (
    Colour,
    HeaderRecord,
    PlayerRecord,
    Record,
    ResultCode,
    RoundEntry,
    TieBreakRecord,
    TotalRoundsRecord,
    TrfFile,
    XxcRecord,
    XxsRecord,
)
from projections.exports.from_log.common import LogView, view_of
from projections.standings import standings
from projections.state import PlayerState

__all__ = ["trf_from_log"]

# (outcome, the player sits white) -> the player's result code
_CODES: dict[Outcome, tuple[ResultCode, ResultCode]] = {
    Outcome.WHITE_WINS: (ResultCode.WIN, ResultCode.LOSS),
    Outcome.BLACK_WINS: (ResultCode.LOSS, ResultCode.WIN),
    Outcome.DRAW: (ResultCode.DRAW, ResultCode.DRAW),
    Outcome.WHITE_WINS_FORFEIT: (ResultCode.FORFEIT_WIN, ResultCode.FORFEIT_LOSS),
    Outcome.BLACK_WINS_FORFEIT: (ResultCode.FORFEIT_LOSS, ResultCode.FORFEIT_WIN),
    Outcome.DOUBLE_FORFEIT: (ResultCode.FORFEIT_LOSS, ResultCode.FORFEIT_LOSS),
    Outcome.BOTH_WIN: (ResultCode.WIN, ResultCode.WIN),
    Outcome.BOTH_LOSE: (ResultCode.LOSS, ResultCode.LOSS),
    Outcome.UNKNOWN: (ResultCode.UNKNOWN, ResultCode.UNKNOWN),
}
_BYES = {
    ByeKind.HALF: ResultCode.HALF_BYE,
    ByeKind.FULL: ResultCode.FULL_BYE,
    ByeKind.ZERO: ResultCode.ZERO_BYE,
    ByeKind.PAIRING: ResultCode.PAB,
}
_XXS = (
    ("W", "win"),
    ("D", "draw"),
    ("WL", "loss"),
    ("ZPB", "zero_bye"),
    ("HPB", "half_bye"),
    ("FPB", "full_bye"),
    ("PAB", "pairing_bye"),
    ("FW", "forfeit_win"),
    ("FL", "forfeit_loss"),
)
_BLANK = RoundEntry(None, Colour.NONE, ResultCode.BLANK)


def _entry(view: LogView, player: PlayerState, r: int, numbers: dict[int, int]) -> RoundEntry:
    state = view.state
    rnd = state.rounds.get(r)
    board = rnd.by_player.get(player.id) if rnd is not None else None
    if board is not None and board.black is not None:
        white = board.white == player.id
        opponent = board.black if white else board.white
        code = ResultCode.BLANK
        if board.outcome is not None:
            code = _CODES[board.outcome][0 if white else 1]
        colour = Colour.WHITE if white else Colour.BLACK
        # A forfeit has no colour in the TRF; the reader then seats the lower number white, so
        # leave the colour out only when that gives back the same seats.
        if (
            board.outcome is not None
            and board.outcome.is_forfeit
            and numbers[board.white] < numbers[board.black]
        ):
            colour = Colour.NONE
        return RoundEntry(numbers[opponent], colour, code)
    kind = ByeKind.PAIRING if board is not None else state.byes.get(r, {}).get(player.id)
    return _BLANK if kind is None else RoundEntry(None, Colour.NONE, _BYES[kind])


def _points(value: float) -> Decimal:
    return Decimal(str(value)).normalize() if value else Decimal(0)


def _ranks(view: LogView) -> dict[int, int]:
    try:
        return {row.player: row.rank for row in standings(view.state)}
    except (KeyError, ValueError):  # a tie-break this build does not know
        return {}


def _header(view: LogView) -> list[Record]:
    s = view.state.settings
    records: list[Record] = [HeaderRecord("012", s.name)]
    if s.city:
        records.append(HeaderRecord("022", s.city))
    if s.federation:
        records.append(HeaderRecord("032", s.federation))
    if s.start_date is not None:
        records.append(HeaderRecord("042", f"{s.start_date:%Y/%m/%d}"))
    if s.end_date is not None:
        records.append(HeaderRecord("052", f"{s.end_date:%Y/%m/%d}"))
    if s.system is System.ROUNDROBIN:
        records.append(
            HeaderRecord("092", "Double round robin" if s.cycles == 2 else "Round robin")
        )
    elif s.system is System.BURSTEIN:
        records.append(HeaderRecord("092", "FIDE_BURSTEIN"))
    elif s.system is System.DUBOV:
        records.append(HeaderRecord("092", "FIDE_DUBOV"))
    elif s.pairing_params.get("rules") == "2017":
        records.append(HeaderRecord("092", "FIDE_DUTCH_2017"))
    if s.scoring != Scoring():
        # JaVaFo's XXS names every value the scoring model has, so nothing is lost.
        values = [(code, getattr(s.scoring, name)) for code, name in _XXS]
        records.append(XxsRecord(tuple((c, _points(v)) for c, v in values if v is not None)))
    if s.tiebreaks:
        records.append(TieBreakRecord("202", s.tiebreaks))
    records.append(TotalRoundsRecord("XXR", view.state.total_rounds))
    colour = s.pairing_params.get("initial_colour")
    if isinstance(colour, str):  # JaVaFo's form, which TRF16 readers know too
        records.append(XxcRecord((f"{colour.lower()}1",)))
    return records


def trf_from_log(events: Sequence[RecordedEvent]) -> TrfFile:
    view = view_of(events)
    state = view.state
    players = view.players()
    numbers = {p.id: p.pairing_number or i for i, p in enumerate(players, start=1)}
    ranks = _ranks(view)
    records = _header(view)
    byes_through = max((r for r, given in state.byes.items() if given), default=0)
    for p in players:
        last = max(state.last_round, byes_through)
        if p.withdrawn_from is not None:
            last = min(last, p.withdrawn_from - 1)
        records.append(
            PlayerRecord(
                number=numbers[p.id],
                sex=p.sex or "",
                title=p.title or "",
                name=p.name,
                rating=p.rating,
                federation=p.federation or "",
                fide_id=p.fide_id or "",
                birth_date=p.birth or "",
                points=_points(state.points(p.id)),
                rank=ranks.get(p.id),
                rounds=tuple(_entry(view, p, r, numbers) for r in range(1, last + 1)),
            )
        )
    return TrfFile(tuple(records))
