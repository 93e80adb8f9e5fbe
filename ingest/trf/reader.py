"""FIDE Tournament Report File reader: bytes in, the typed records of ``ingest.trf.records``.

Every line becomes a record in file order; a line that breaks its layout (docs/formats.md
section 1) is an `IngestError` naming the line and column.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from typing import TYPE_CHECKING

from events.domain import Colour
from events.result_codes import ResultCode
from ingest.errors import IngestError, IngestWarning
from ingest.textio import decode, path_text, read_text
from ingest.trf.records import (
    TEAM_CODES,
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
    round_block_start,
)

if TYPE_CHECKING:
    from pathlib import Path

__all__ = ["parse_trf"]

_RESULT_BY_CHAR = {code.value: code for code in ResultCode}
_COLOUR_BY_CHAR = {"w": Colour.WHITE, "b": Colour.BLACK, "-": Colour.NONE, " ": Colour.NONE}


class _LineReader:
    """Field extraction for one line, raising IngestError with the exact column."""

    def __init__(self, path: str, number: int, text: str) -> None:
        self.path = path
        self.number = number
        self.text = text

    def error(self, column: int, message: str, found: str, expected: str) -> IngestError:
        return IngestError(self.path, self.number, column, message, found=found, expected=expected)

    def cols(self, first: int, last: int) -> str:
        """Columns ``first``..``last`` (1-based, inclusive), padded with blanks."""
        return self.text[first - 1 : last].ljust(last - first + 1)

    def integer(self, first: int, last: int, what: str) -> int | None:
        raw = self.cols(first, last).strip()
        if not raw:
            return None
        if not raw.isdecimal():
            raise self.error(first, f"bad {what}", raw, "digits")
        return int(raw)

    def decimal(self, first: int, last: int, what: str) -> Decimal | None:
        raw = self.cols(first, last).strip()
        if not raw:
            return None
        return self.parse_decimal(raw, first, what)

    def parse_decimal(self, raw: str, column: int, what: str) -> Decimal:
        try:
            value = Decimal(raw.replace(",", "."))
        except InvalidOperation:
            raise self.error(column, f"bad {what}", raw, "a number like 1.5") from None
        if not value.is_finite():
            raise self.error(column, f"bad {what}", raw, "a number like 1.5")
        return value

    def tokens(self, start: int = 4) -> list[tuple[int, str]]:
        """Whitespace-separated tokens from column ``start`` on, with their 1-based column."""
        return [
            (m.start() + 1, m.group())
            for m in re.finditer(r"\S+", self.text)
            if m.start() >= start - 1
        ]

    def ids(self, start: int, what: str) -> tuple[int, ...]:
        out: list[int] = []
        for column, token in self.tokens(start):
            if not token.isdecimal():
                raise self.error(column, f"bad {what}", token, "a pairing number")
            out.append(int(token))
        return tuple(out)


def _parse_player(r: _LineReader, warnings: list[IngestWarning]) -> PlayerRecord:
    number = r.integer(5, 8, "pairing number")
    if number is None or number == 0:
        raise r.error(5, "missing pairing number", r.cols(5, 8), "1..9999 in columns 5-8")
    rating_first = 49
    if r.cols(48, 48).isdecimal() and r.cols(49, 52).strip().isdecimal():
        rating_first = 48
        warnings.append(
            IngestWarning(
                r.path, r.number, 48, "rating above 9999", found=r.cols(48, 52), expected="0..9999"
            )
        )
    rating = r.integer(rating_first, 52, "rating")
    rounds: list[RoundEntry] = []
    text = r.text.rstrip()
    round_number = 1
    while round_block_start(round_number) < len(text):
        rounds.append(_parse_round(r, round_number))
        round_number += 1
    while rounds and rounds[-1] == _EMPTY_ROUND:
        rounds.pop()
    return PlayerRecord(
        number=number,
        sex=r.cols(10, 10).strip(),
        title=r.cols(11, 13).strip(),
        name=r.cols(15, 47).strip(),
        rating=rating,
        federation=r.cols(54, 56).strip(),
        fide_id=r.cols(58, 68).strip(),
        birth_date=r.cols(70, 79).strip(),
        points=r.decimal(81, 84, "points"),
        rank=r.integer(86, 89, "rank"),
        rounds=tuple(rounds),
        line=r.number,
    )


_EMPTY_ROUND = RoundEntry(None, Colour.NONE, ResultCode.BLANK)


def _parse_round(r: _LineReader, round_number: int) -> RoundEntry:
    first = round_block_start(round_number) + 1  # 1-based column of the opponent field
    # The well-formed block, read from one slice (a 500-player file has 3,000 of them); any
    # other goes the column-by-column way below, which names what is wrong and where.
    block = r.text[first - 1 : first + 9].ljust(10)
    raw = block[:4].strip()
    colour = _COLOUR_BY_CHAR.get(block[5].lower())
    result = _RESULT_BY_CHAR.get(block[7].upper())
    if (
        colour is not None
        and result is not None
        and (not raw or raw.isdecimal())
        and block[4] == block[6] == block[8] == block[9] == " "
    ):
        return RoundEntry(int(raw or 0) or None, colour, result)
    opponent = r.integer(first, first + 3, f"opponent in round {round_number}")
    colour_char = r.cols(first + 5, first + 5).lower()
    colour = _COLOUR_BY_CHAR.get(colour_char)
    if colour is None:
        raise r.error(first + 5, f"bad colour in round {round_number}", colour_char, "w, b or -")
    result_char = r.cols(first + 7, first + 7).upper()
    result = _RESULT_BY_CHAR.get(result_char)
    if result is None:
        raise r.error(
            first + 7,
            f"bad result code in round {round_number}",
            result_char,
            "one of 1 = 0 + - W D L H F U Z ?",
        )
    for column in (first + 4, first + 6, first + 8, first + 9):
        if r.cols(column, column) != " ":
            raise r.error(
                column,
                f"misaligned round {round_number} block",
                r.cols(first, first + 8),
                "'NNNN c r' starting at column " + str(first),
            )
    return RoundEntry(opponent or None, colour, result)


_SCORING_TOKEN = re.compile(r"([A-Za-z])\s*(\S+)")


def _parse_line(r: _LineReader, warnings: list[IngestWarning]) -> Record | None:
    text = r.text
    if not text.strip():
        return None
    code = text[:3]
    if code.startswith("###"):
        return CommentRecord(text[3:], line=r.number)
    if code == "001":
        return _parse_player(r, warnings)
    rest = text[4:].strip()
    if code in ("142", "XXR"):
        rounds = r.integer(5, max(len(text), 5), "number of rounds")
        if rounds is None:
            raise r.error(5, "missing number of rounds", rest, "a positive integer")
        return TotalRoundsRecord(code, rounds, line=r.number)
    if code == "152":
        colour = {"W": Colour.WHITE, "B": Colour.BLACK}.get(rest.upper())
        if colour is None:
            raise r.error(5, "bad initial colour", rest, "W or B")
        return InitialColourRecord(colour, line=r.number)
    if code == "XXC":
        return XxcRecord(tuple(t for _, t in r.tokens()), line=r.number)
    if code == "162":
        values = [
            (m.group(1).upper(), r.parse_decimal(m.group(2), m.start(2) + 5, "scoring value"))
            for m in _SCORING_TOKEN.finditer(text[4:])
        ]
        return ScoringRecord(tuple(values), line=r.number)
    if code in ("202", "212"):
        chain = tuple(part.strip() for part in rest.split(",") if part.strip())
        return TieBreakRecord(code, chain, line=r.number)
    if code == "240":
        tokens = r.tokens()
        if len(tokens) < 2 or not tokens[1][1].isdecimal():
            raise r.error(5, "bad bye record", rest, "'240 T RRR id id ...'")
        return ByesRecord(
            tokens[0][1].upper(),
            int(tokens[1][1]),
            r.ids(tokens[1][0] + len(tokens[1][1]), "bye player"),
            line=r.number,
        )
    if code == "250":
        return _parse_acceleration(r)
    if code == "260":
        tokens = r.tokens()
        if len(tokens) < 2 or not (tokens[0][1].isdecimal() and tokens[1][1].isdecimal()):
            raise r.error(5, "bad prohibited-pairing record", rest, "'260 RRR RRR id id ...'")
        start = tokens[1][0] + len(tokens[1][1])
        return ForbiddenPairsRecord(
            int(tokens[0][1]), int(tokens[1][1]), r.ids(start, "player"), line=r.number
        )
    if code == "BRD":
        return _parse_in_play(r)
    if code == "XXA":
        return _parse_xxa(r)
    if code == "XXP":
        return XxpRecord(r.ids(5, "player"), line=r.number)
    if code == "XXZ":
        return XxzRecord(r.ids(5, "player"), line=r.number)
    if code == "XXS":
        return _parse_xxs(r)
    if code in ("BBW", "BBD", "BBL", "BBZ", "BBF", "BBU"):
        value = r.decimal(5, max(len(text), 12), "point value")
        if value is None:
            raise r.error(5, f"missing {code} value", rest, "a number like 1.0")
        return BbRecord(code, value, line=r.number)
    header_like = len(text) <= 3 or text[3] == " "  # a "0123456789..." ruler is not a header
    if code.isdecimal() and code.endswith("2") and code not in TEAM_CODES and header_like:
        return HeaderRecord(code, text[4:].rstrip(), line=r.number)
    return RawRecord(text.rstrip(), line=r.number)


def _parse_acceleration(r: _LineReader) -> AccelerationRecord:
    """``250 MMMM GGGG RRR RRR PPPP PPPP`` at fixed columns; a blank points field gives no
    fictitious points of that kind (a team file accelerated by match points only, as the
    Sharly-Chess fork of bbpPairings reads it), but one of the two must be there."""
    match_points = r.decimal(5, 8, "match points")
    game_points = r.decimal(10, 13, "game points")
    spans: tuple[tuple[int, int, str], ...] = (
        (15, 17, "first round"),
        (19, 21, "last round"),
        (23, 26, "first player"),
        (28, 31, "last player"),
    )
    fields = [r.integer(a, b, what) for a, b, what in spans]
    blank = [a for (a, _, _), value in zip(spans, fields, strict=True) if value is None]
    if match_points is None and game_points is None:
        blank.insert(0, 5)
    if blank:
        raise r.error(
            blank[0],
            "incomplete acceleration record",
            r.text[4:],
            "'250 MMMM GGGG RRR RRR PPPP PPPP' (points, rounds and players at these columns)",
        )
    first_round, last_round, first_player, last_player = (int(v or 0) for v in fields)
    return AccelerationRecord(
        match_points,
        Decimal(0) if game_points is None else game_points,
        first_round,
        last_round,
        first_player,
        last_player,
        line=r.number,
    )


def _parse_in_play(r: _LineReader) -> InPlayRecord:
    """``BRD RRR BBBB WWWW BBBB w b``: a board of the round in play (`InPlayRecord`)."""
    fields = [
        r.integer(a, b, what)
        for a, b, what in ((5, 7, "round"), (9, 12, "board"), (14, 17, "white"), (19, 22, "black"))
    ]
    if any(value is None for value in fields) or not all(fields[:3]):
        raise r.error(5, "incomplete board record", r.text[4:], "'BRD RRR BBBB WWWW BBBB'")
    round_no, board, white, black = (int(v or 0) for v in fields)
    white_result, black_result = (_in_play_result(r, column) for column in (24, 26))
    return InPlayRecord(
        round_no, board, white, black or None, white_result, black_result, line=r.number
    )


def _in_play_result(r: _LineReader, column: int) -> ResultCode | None:
    """A result code of a ``BRD`` record; blank while the game has none."""
    char = r.cols(column, column).upper()
    if char == " ":
        return None
    code = _RESULT_BY_CHAR.get(char)
    if code is None:
        raise r.error(column, "bad result code", char, "one of 1 = 0 + - W D L ?")
    return code


def _parse_xxa(r: _LineReader) -> XxaRecord:
    tokens = r.tokens()
    if not tokens or not tokens[0][1].isdecimal():
        raise r.error(5, "bad XXA record", r.text[4:], "'XXA NNNN pp.p pp.p ...'")
    points = tuple(r.parse_decimal(t, c, "acceleration points") for c, t in tokens[1:])
    return XxaRecord(int(tokens[0][1]), points, line=r.number)


def _parse_xxs(r: _LineReader) -> XxsRecord:
    values: list[tuple[str, Decimal]] = []
    for column, token in r.tokens():
        name, sep, raw = token.partition("=")
        if not sep:
            raise r.error(column, "bad XXS entry", token, "CODE=VALUE")
        values.append((name.upper(), r.parse_decimal(raw, column + len(name) + 1, "XXS value")))
    return XxsRecord(tuple(values), line=r.number)


def parse_trf(path: str | Path, data: bytes | None = None) -> TrfFile:
    """Read a TRF file (or ``data``, named ``path`` in messages).

    :raises IngestError: on the first record that cannot be read, naming line and column.
    """
    if data is None:
        from pathlib import Path  # arbiter-pairings gives the bytes: it never loads pathlib

        decoded = read_text(Path(path))
    else:
        decoded = decode(data, path_text(path))
    name = str(path)
    warnings = list(decoded.warnings)
    records: list[Record] = []
    for index, text in enumerate(decoded.lines):
        record = _parse_line(_LineReader(name, index + 1, text), warnings)
        if record is not None:
            records.append(record)
    return TrfFile(tuple(records), path=name, encoding=decoded.encoding, warnings=tuple(warnings))
