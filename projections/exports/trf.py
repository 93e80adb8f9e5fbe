"""TRF writer: a chess tournament stream → TRF records → the file; TRF16 ↔ TRF-2026.

`trf_from_log` rebuilds the records (``ingest.trf.records``) from the log: one ``001`` record
per player in start order with the log's points and rank, one round block per round: games
with colour and result code, ``U`` for the pairing-allocated bye, ``H``/``F``/``Z`` for
requested byes, ``Z`` (absent) for a paired round without either: a late entry's rounds before
it entered, an absence, every round after a withdrawal (and the next round, not yet paired).
A round in play (paired, results not all in: TRF has no code for a game without a result) is
written as ``BRD`` records (`InPlayRecord`), the ``001`` blocks of its players stopping before
it; forfeited boards keep their colours.
Players are numbered by pairing number (`TournamentState.start_ranks`: late entries at the
end), so that ``arbiter-pairings -c`` re-pairs every round as the live event paired it.

`write_trf` serialises them: ``parse_trf(write_trf(x))`` equals ``x`` for every file the
reader accepts. Column layouts are those of docs/formats.md section 1; bbpPairings accepts CR,
LF and CRLF alike.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import replace
from decimal import Decimal
from typing import assert_never

from decide.state import PlayerState, TournamentState
from events.acceleration import baku_points
from events.domain import ByeKind, Colour, System
from events.result_codes import ResultCode
from events.scoring import Scoring
from events.store import RecordedEvent
from ingest.trf.records import (
    XXS_FIELDS,
    XXS_WRITTEN,
    AccelerationRecord,
    BbRecord,
    ByesRecord,
    CommentRecord,
    ForbiddenPairsRecord,
    HeaderRecord,
    InitialColourRecord,
    InPlayRecord,
    PlayerRecord,
    RawRecord,
    Record,
    RoundEntry,
    ScoringRecord,
    TieBreakRecord,
    TotalRoundsRecord,
    TrfFile,
    XxaRecord,
    XxcRecord,
    XxpRecord,
    XxsRecord,
    XxzRecord,
)
from projections.exports.log_view import LogView, view_of
from projections.standings import standings

__all__ = [
    "format_points",
    "format_record",
    "to_trf16",
    "trf_from_log",
    "write_trf",
]

_TENTH = Decimal("0.1")


def format_points(value: Decimal) -> str:
    """Points with one decimal (``4.0``, ``11.5``), more only when the value needs them.

    >>> format_points(Decimal(3)), format_points(Decimal("0.25"))
    ('3.0', '0.25')
    """
    if value == value.quantize(_TENTH):
        return f"{value:.1f}"
    return format(value.normalize(), "f")


def _round_block(entry: RoundEntry) -> str:
    opponent = "0000" if entry.opponent is None else f"{entry.opponent:>4}"
    return f"  {opponent} {entry.colour.value} {entry.result.value}"


def _player_line(p: PlayerRecord) -> str:
    rating = "" if p.rating is None else str(p.rating)
    # Each text is cut to its columns: a longer name or federation would shift the fields after
    # it, and a name such as "Smith" + spaces + "2800" could then pass for a rating.
    name = p.name[:33]
    # A rating above 9999 (rejected by bbpPairings) takes the blank column 48.
    name_and_rating = f"{name:<33} {rating:>4}" if len(rating) <= 4 else f"{name:<33}{rating}"
    points = "" if p.points is None else format_points(p.points)
    rank = "" if p.rank is None else str(p.rank)
    head = (
        f"001 {p.number:>4} {p.sex[:1]:1}{p.title[:3]:>3} {name_and_rating} "
        f"{p.federation[:3]:<3} {p.fide_id[:11]:>11} {p.birth_date[:10]:<10} {points:>4} {rank:>4}"
    )
    return (head + "".join(_round_block(e) for e in p.rounds)).rstrip()


def _ids(players: tuple[int, ...]) -> str:
    return "".join(f" {p:>4}" for p in players)


def format_record(record: Record) -> str:
    """One record as a TRF line (without line terminator)."""
    match record:
        case PlayerRecord():
            return _player_line(record)
        case HeaderRecord(code=code, text=text):
            return f"{code} {text}".rstrip()
        case TotalRoundsRecord(code=code, rounds=rounds):
            return f"{code} {rounds}"
        case InitialColourRecord(colour=colour):
            return f"152 {colour.value.upper()}"
        case XxcRecord(tokens=tokens):
            return " ".join(("XXC", *tokens))
        case ScoringRecord(values=values):
            return "162 " + "".join(f" {c}{format_points(v):>4}   " for c, v in values).rstrip()
        case TieBreakRecord(code=code, chain=chain):
            return f"{code} {','.join(chain)}"
        case ByesRecord(kind=kind, round=round_number, players=players):
            return f"240 {kind} {round_number:>3}{_ids(players)}"
        case AccelerationRecord():
            mp = "" if record.match_points is None else format_points(record.match_points)
            return (
                f"250 {mp:>4} {format_points(record.game_points):>4} {record.first_round:>3} "
                f"{record.last_round:>3} {record.first_player:>4} {record.last_player:>4}"
            )
        case ForbiddenPairsRecord(first_round=first, last_round=last, players=players):
            return f"260 {first:>3} {last:>3}{_ids(players)}"
        case XxaRecord(player=player, points=points):
            return f"XXA {player:>4}" + "".join(f" {format_points(v):>4}" for v in points)
        case XxpRecord(players=players):
            return "XXP" + _ids(players)
        case XxzRecord(players=players):
            return "XXZ" + _ids(players)
        case XxsRecord(values=values):
            return " ".join(("XXS", *(f"{c}={format_points(v)}" for c, v in values)))
        case BbRecord(code=code, value=value):
            return f"{code} {format_points(value):>5}"
        case InPlayRecord():
            black = "0000" if record.black is None else f"{record.black:>4}"
            codes = " ".join(
                c.value if c else " " for c in (record.white_result, record.black_result)
            )
            head = f"BRD {record.round:>3} {record.board:>4} {record.white:>4} {black}"
            return f"{head} {codes}".rstrip()
        case CommentRecord(text=text):
            return f"###{text}"
        case RawRecord(text=text):
            return text
        case _:
            assert_never(record)


def write_trf(trf: TrfFile, *, newline: str = "\n") -> str:
    """The whole file as text; ``newline="\\r"`` gives bbpPairings' own CR-only style."""
    return "".join(format_record(r) + newline for r in trf.records)


_BB_FROM_162 = {"W": ("BBW",), "D": ("BBD",), "L": ("BBL",), "A": ("BBZ", "BBF"), "P": ("BBU",)}


def to_trf16(trf: TrfFile) -> TrfFile:
    """TRF-2026 records that have a TRF16/TRF(x)/TRF(bx) equivalent, rewritten to it.

    ``142`` becomes ``XXR``, ``152`` becomes ``XXC white1|black1``, ``162`` becomes
    ``BB*`` lines and ``310`` team lines ``013``; records without an equivalent are kept
    (TRF16 readers skip them).
    """
    out: list[Record] = []
    for record in trf.records:
        match record:
            case TotalRoundsRecord(code="142"):
                out.append(record._replace(code="XXR"))
            case InitialColourRecord(colour=colour):
                token = "white1" if colour is Colour.WHITE else "black1"
                out.append(XxcRecord((token,), line=record.line))
            case ScoringRecord(values=values):
                out.extend(
                    BbRecord(bb, value, line=record.line)
                    for code, value in values
                    for bb in _BB_FROM_162.get(code, ())
                )
            case _:
                out.append(record)
    if any(isinstance(r, RawRecord) and r.code == "310" for r in out):
        from projections.exports.trf_teams import rosters_as_013

        out = rosters_as_013(out)
    return replace(trf, records=tuple(out))


# (outcome, the player sits white) -> the player's result code
_BLANK = RoundEntry(None, Colour.NONE, ResultCode.BLANK)


def _entry(
    view: LogView, player: PlayerState, r: int, numbers: dict[int, int], absent: ResultCode
) -> RoundEntry:
    state = view.state
    rnd = state.rounds.get(r)
    board = rnd.by_player.get(player.id) if rnd is not None else None
    if board is not None and board.black is not None:
        white = board.white == player.id
        opponent = board.black if white else board.white
        code = ResultCode.BLANK
        if board.outcome is not None:
            code = ResultCode.for_outcome(board.outcome, white)
        # A forfeited board keeps its colours (`13 b +`, as bbpPairings writes it): the file
        # says who was paired with White; `-` is only for a round without a pairing.
        colour = Colour.WHITE if white else Colour.BLACK
        return RoundEntry(numbers[opponent], colour, code)
    kind = ByeKind.PAIRING if board is not None else state.byes.get(r, {}).get(player.id)
    if kind is None and (rnd is not None or not player.active_in(r)):
        # Not paired in a paired round (late entry, absence, withdrawal), or withdrawn from
        # the next round: absent (``Z`` for a live event; an imported file keeps its coding).
        return RoundEntry(None, Colour.NONE, absent)
    return _BLANK if kind is None else RoundEntry(None, Colour.NONE, ResultCode.for_bye(kind))


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
    players = view.state.players.values()
    records.append(HeaderRecord("062", str(len(players))))
    records.append(HeaderRecord("072", str(sum(1 for p in players if p.rating))))
    if s.system is System.ROUNDROBIN:
        records.append(
            HeaderRecord("092", "Double round robin" if s.cycles == 2 else "Round robin")
        )
    elif s.system is System.BURSTEIN:
        records.append(HeaderRecord("092", "FIDE_BURSTEIN"))
    elif s.system is System.DUBOV:
        records.append(HeaderRecord("092", "FIDE_DUBOV"))
    elif s.pairing_params.chess.rules == "2017":
        records.append(HeaderRecord("092", "FIDE_DUTCH_2017"))
    if s.chief_arbiter:
        records.append(HeaderRecord("102", s.chief_arbiter))
    records.extend(HeaderRecord("112", deputy) for deputy in s.deputy_arbiters)
    if s.time_control:
        records.append(HeaderRecord("122", s.time_control))
    if s.round_dates:
        records.append(_round_dates(s.round_dates, view.state.total_rounds))
    if s.scoring != Scoring():
        # JaVaFo's XXS names every value the scoring model has, so nothing is lost.
        values = [(code, getattr(s.scoring, XXS_FIELDS[code])) for code in XXS_WRITTEN]
        records.append(XxsRecord(tuple((c, _points(v)) for c, v in values if v is not None)))
    if s.tiebreaks:
        records.append(TieBreakRecord("202", s.tiebreaks))
    records.append(TotalRoundsRecord("XXR", view.state.total_rounds))
    colour = s.pairing_params.chess.initial_colour
    if colour is not None:  # JaVaFo's form, which TRF16 readers know too
        records.append(XxcRecord((f"{colour.word}1",)))
    return records


def _round_dates(dates: Mapping[int, dt.date], rounds: int) -> HeaderRecord:
    """``132``: each round's date ``YY/MM/DD`` above its round block (cols 92-99, 102-109 ...)."""
    cells = [f"{dates[r]:%y/%m/%d}" if r in dates else " " * 8 for r in range(1, rounds + 1)]
    return HeaderRecord("132", " " * 87 + "  ".join(cells))


def _forbidden(view: LogView, numbers: dict[int, int]) -> list[Record]:
    """``XXP`` for a pair forbidden from round 1 on, ``260`` for one forbidden later."""
    state = view.state
    out: list[Record] = []
    for pair, first in sorted(state.forbidden.items(), key=lambda kv: sorted(kv[0])):
        ids = tuple(sorted(numbers[p] for p in pair if p in numbers))
        if len(ids) != 2:
            continue
        if first == 1:
            out.append(XxpRecord(ids))
        else:
            out.append(ForbiddenPairsRecord(first, state.total_rounds, ids))
    return out


def _accelerations(state: TournamentState, numbers: list[int]) -> list[Record]:
    """``XXA`` for each player Baku acceleration gives virtual points (pairing numbers in
    order, as the engines count the halves)."""
    if state.settings.pairing_params.chess.acceleration != "baku":
        return []
    win, draw = state.scoring.win, state.scoring.draw
    out: list[Record] = []
    for index, number in enumerate(numbers):
        values = baku_points(index, len(numbers), state.total_rounds, win, draw)
        if values:
            out.append(XxaRecord(number, tuple(_points(v) for v in values)))
    return out


def _in_play(state: TournamentState) -> list[int]:
    """The paired rounds after the last complete one (`TournamentState.complete_round`)."""
    return [r for r in range(state.complete_round + 1, state.last_round + 1) if r in state.rounds]


def _boards_in_play(state: TournamentState, numbers: dict[int, int]) -> list[Record]:
    """One ``BRD`` record per board of a round in play, with the results entered so far."""
    out: list[Record] = []
    for r in _in_play(state):
        for b in state.rounds[r].boards:
            black = None if b.black is None else numbers[b.black]
            codes: tuple[ResultCode | None, ResultCode | None] = (None, None)
            if b.outcome is not None and b.black is not None:
                codes = (
                    ResultCode.for_outcome(b.outcome, True),
                    ResultCode.for_outcome(b.outcome, False),
                )
            out.append(InPlayRecord(r, b.board, numbers[b.white], black, *codes))
    return out


def trf_from_log(events: Sequence[RecordedEvent]) -> TrfFile:
    view = view_of(events)
    state = view.state
    # Pairing numbers, as the live event paired with them (late entries at the end).
    start = state.start_ranks()
    numbers = {pid: p.pairing_number or start[pid] for pid, p in state.players.items()}
    players = sorted(state.players.values(), key=lambda p: (numbers[p.id], p.id))
    ranks = _ranks(view)
    records = _header(view)
    byes_through = max((r for r, given in state.byes.items() if given), default=0)
    next_round = min(state.last_round + 1, state.total_rounds)
    # An imported file keeps its own coding of absences (a blank block, no blocks after a
    # withdrawal), so that it reads back to the same events.
    imported = view.created_meta.get("source") == "file"
    absent = ResultCode.BLANK if imported else ResultCode.ZERO_BYE
    for p in players:
        last = max(state.last_round, byes_through)
        if p.withdrawn_from is not None and imported:
            last = min(last, p.withdrawn_from - 1)
        elif p.withdrawn_from is not None:
            # Every round from the withdrawal on is coded absent, the next one too.
            last = max(last, min(next_round, max(p.withdrawn_from, state.last_round)))
        # A player on a board of a round in play: the blocks stop before it (`InPlayRecord`).
        last = min([last, *(r - 1 for r in _in_play(state) if p.id in state.rounds[r].by_player)])
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
                points=_points(state.points(p.id, min(last, state.last_round))),
                rank=ranks.get(p.id),
                rounds=tuple(_entry(view, p, r, numbers, absent) for r in range(1, last + 1)),
            )
        )
    records.extend(_boards_in_play(state, numbers))
    records.extend(_forbidden(view, numbers))
    records.extend(_accelerations(state, [numbers[p.id] for p in players]))
    if state.system.is_team:
        from projections.exports.trf_teams import team_header, team_records

        records[1:1] = team_header(state)
        records += team_records([e.event for e in events], state, numbers)
    return TrfFile(tuple(records))
