"""TRF writer: serialise a :class:`ingest.trf.TrfFile`, and convert between TRF16 and TRF-2026.

``parse_trf(write_trf(x))`` equals ``x`` for every file the reader accepts. Column layouts are
those of docs/formats.md section 1; bbpPairings accepts CR, LF and CRLF alike.
"""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal
from typing import assert_never

from ingest.trf import (
    AccelerationRecord,
    BbRecord,
    ByesRecord,
    Colour,
    CommentRecord,
    ForbiddenPairsRecord,
    HeaderRecord,
    InitialColourRecord,
    PlayerRecord,
    RawRecord,
    Record,
    ResultCode,
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

__all__ = [
    "cut_before_round",
    "format_points",
    "format_record",
    "to_trf16",
    "to_trf26",
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
    # A rating above 9999 (rejected by bbpPairings) takes the blank column 48.
    name_and_rating = f"{p.name:<33} {rating:>4}" if len(rating) <= 4 else f"{p.name:<33}{rating}"
    points = "" if p.points is None else format_points(p.points)
    rank = "" if p.rank is None else str(p.rank)
    head = (
        f"001 {p.number:>4} {p.sex:1}{p.title:>3} {name_and_rating} {p.federation:<3} "
        f"{p.fide_id:>11} {p.birth_date:<10} {points:>4} {rank:>4}"
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
_162_FROM_BB = {"BBW": "W", "BBD": "D", "BBL": "L", "BBZ": "A", "BBU": "P"}


def to_trf16(trf: TrfFile) -> TrfFile:
    """TRF-2026 records that have a TRF16/TRF(x)/TRF(bx) equivalent, rewritten to it.

    ``142`` becomes ``XXR``, ``152`` becomes ``XXC white1|black1`` and ``162`` becomes
    ``BB*`` lines; records without an equivalent are kept (TRF16 readers skip them).
    """
    out: list[Record] = []
    for record in trf.records:
        match record:
            case TotalRoundsRecord(code="142"):
                out.append(replace(record, code="XXR"))
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
    return replace(trf, records=tuple(out))


def to_trf26(trf: TrfFile) -> TrfFile:
    """TRF(x)/TRF(bx) lines rewritten to their TRF-2026 records (``142``, ``152``, ``162``).

    ``BBF`` has no separate TRF-2026 code (``A`` covers zero-point byes and forfeit losses);
    it is kept as a ``BBF`` line when it differs from ``BBZ``.
    """
    out: list[Record] = []
    scoring: list[tuple[str, Decimal]] = []
    bb = {r.code: r.value for r in trf.records if isinstance(r, BbRecord)}
    for record in trf.records:
        match record:
            case TotalRoundsRecord(code="XXR"):
                out.append(replace(record, code="142"))
            case XxcRecord(tokens=tokens) if record.colour is not None:
                out.append(InitialColourRecord(record.colour, line=record.line))
                rest = tuple(t for t in tokens if t not in ("white1", "black1"))
                if rest:
                    out.append(XxcRecord(rest, line=record.line))
            case BbRecord(code=code, value=value) if code in _162_FROM_BB:
                scoring.append((_162_FROM_BB[code], value))
            case BbRecord(code="BBF", value=value) if value == bb.get("BBZ", Decimal(0)):
                pass
            case _:
                out.append(record)
    if scoring:
        out.append(ScoringRecord(tuple(scoring)))
    return replace(trf, records=tuple(out))


_NOT_PAIRED = frozenset(
    {ResultCode.HALF_BYE, ResultCode.FULL_BYE, ResultCode.ZERO_BYE, ResultCode.BLANK}
)


def cut_before_round(trf: TrfFile, k: int, total_rounds: int, initial_colour: Colour) -> TrfFile:
    """The file as it stood before round ``k`` was paired (formats.md 2.8).

    Player records keep rounds 1..k-1 plus a round-k block only when it is a requested bye
    (``H``, ``F``, ``Z`` or blank without opponent); the points field is dropped (the reader
    treats a blank points field as unchecked); ``XXR`` and ``152`` are appended.
    """
    records: list[Record] = []
    for record in trf.records:
        if isinstance(record, PlayerRecord):
            rounds = list(record.rounds[: k - 1])
            if len(record.rounds) >= k:
                entry = record.rounds[k - 1]
                if entry.opponent is None and entry.result in _NOT_PAIRED:
                    rounds.append(entry)
            records.append(replace(record, rounds=tuple(rounds), points=None))
        elif not isinstance(record, TotalRoundsRecord | InitialColourRecord):
            records.append(record)
    records += [TotalRoundsRecord("XXR", total_rounds), InitialColourRecord(initial_colour)]
    return replace(trf, records=tuple(records))
