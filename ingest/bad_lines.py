"""``--skip-bad-lines``: a file with a few broken result records, taken without them.

A result record is one game as the format writes it: a result line of an .ELO file, a result
cell of an h9 or .tou cross table, a round block (columns 92 on) of a TRF ``001`` line. An
error in such a record (a :class:`~ingest.errors.ResultRecordError`, or for TRF an error
located in a round block) leaves the record out; the records are returned, each with its
``FILE:LINE:COL``, and the rest of the file is converted as usual. An error anywhere else
(a header, a player's own fields, a duplicate id) still refuses the file whole.

A game is left out whole. In a cross table the other player's cell or round block of that
game is left out with it, and listed as such ("the other half of ..."), so the file stays
consistent: nobody keeps a game whose opponent lost it.

* .ELO: the reader already keeps every readable line and lists the rejected ones, so the
  rejected result lines are simply dropped.
* h9, .tou, TRF: the bad record is replaced, at the same width, by the format's "no game"
  (``0-`` in a go table, a blank round block in TRF) and the file is read again, until it
  reads clean (at most :data:`MAX_PASSES` times).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from pathlib import Path

from ingest.elo import EloFile
from ingest.errors import IngestError, ResultRecordError
from ingest.textio import decode

__all__ = ["MAX_PASSES", "elo_without_bad_records", "repair_cross_table", "repair_trf"]

MAX_PASSES = 50
"""A file needing more passes has more than a few bad records: it is refused."""

Blank = Callable[[list[str], IngestError], list[IngestError] | None]
"""Leave the record of an error out of ``lines`` (in place): the records left out, or None
when the error is not in a result record."""


def elo_without_bad_records(elo: EloFile) -> tuple[EloFile, list[IngestError]]:
    """An .ELO file without its rejected result lines (the reader keeps every other line and
    leaves those out already), and the lines.

    :raises IngestError: a rejected line that is not a result line.
    """
    for error in elo.errors:
        if not isinstance(error, ResultRecordError):
            raise error
    return elo.model_copy(update={"errors": ()}), list(elo.errors)


def _token_at(line: str, column: int) -> re.Match[str] | None:
    return re.compile(r"\S+").match(line, column - 1) if column >= 1 else None


def _blank_go_cell(lines: list[str], error: IngestError) -> list[IngestError] | None:
    if not isinstance(error, ResultRecordError) or not 1 <= error.line <= len(lines):
        return None
    text = lines[error.line - 1]
    token = _token_at(text, error.column)
    if token is None or token.start() != error.column - 1 or len(token.group()) < 2:
        return None
    lines[error.line - 1] = (
        text[: token.start()] + "0-".ljust(len(token.group())) + text[token.end() :]
    )
    return [error]


def _other_half(error: IngestError) -> IngestError:
    """An error of a later pass: caused by a record left out before (only those changed)."""
    return ResultRecordError(
        error.path,
        error.line,
        error.column,
        f"the other half of a game left out above ({error.reason})",
        error.found,
        error.expected,
    )


def _repair(
    path: Path,
    data: bytes,
    prefer: str,
    errors_of: Callable[[bytes], Sequence[IngestError]],
    blank: Blank,
    *,
    later_are_halves: bool,
) -> tuple[bytes, list[IngestError]]:
    """Blank what ``errors_of`` finds until the bytes read clean. ``later_are_halves``: the
    reader lists every error at once, so what a later pass finds was caused by a blank."""
    decoded = decode(data, str(path), prefer=prefer)
    lines = list(decoded.lines)
    skipped: list[IngestError] = []
    current = data
    for attempt in range(MAX_PASSES):
        errors = errors_of(current)
        if not errors:
            return current, skipped
        for error in errors:
            left_out = blank(lines, error)
            if left_out is None:
                raise error
            if attempt and later_are_halves:
                left_out = [_other_half(e) for e in left_out]
            skipped.extend(left_out)
        current = ("\n".join(lines) + "\n").encode(decoded.encoding)
    raise IngestError(
        str(path), 0, 0, f"more than {MAX_PASSES} rounds of bad result records: not skipped"
    )


def repair_cross_table(
    path: Path, data: bytes, errors_of: Callable[[bytes], Sequence[IngestError]]
) -> tuple[bytes, list[IngestError]]:
    """An h9 or .tou table with its bad result cells (and their other halves) turned into
    ``0-``; ``errors_of`` reads the bytes and lists what is wrong (``parse_h9(...).errors``).

    :raises IngestError: an error outside the result cells.
    """
    return _repair(path, data, "iso-8859-15", errors_of, _blank_go_cell, later_are_halves=True)


# TRF: round blocks of the 001 line start at column 92, ten columns each (formats.md §1.4).
_FIRST_BLOCK = 92
_BLOCK = 10


def _trf_block(line: str, round_index: int) -> str:
    start = _FIRST_BLOCK - 1 + _BLOCK * round_index
    return line[start : start + 8]


def _blank_trf_block(lines: list[str], index: int, round_index: int) -> None:
    start = _FIRST_BLOCK - 1 + _BLOCK * round_index
    text = lines[index].ljust(start + 8)
    lines[index] = (text[:start] + " " * 8 + text[start + 8 :]).rstrip()


def _blank_trf_round(lines: list[str], error: IngestError) -> list[IngestError] | None:
    """A round block of a 001 line, and the opponent's block of that round naming the player."""
    if not 1 <= error.line <= len(lines) or error.column < _FIRST_BLOCK:
        return None
    text = lines[error.line - 1]
    if not text.startswith("001"):
        return None
    round_index = (error.column - _FIRST_BLOCK) // _BLOCK
    number = text[4:8].strip()
    opponent = _trf_block(text, round_index)[:4].strip()
    _blank_trf_block(lines, error.line - 1, round_index)
    left_out = [error]
    if opponent.isdecimal() and int(opponent) and number.isdecimal():
        for index, other in enumerate(lines):
            if other.startswith("001") and other[4:8].strip() == opponent:
                if _trf_block(other, round_index)[:4].strip() == number:
                    _blank_trf_block(lines, index, round_index)
                    left_out.append(
                        ResultRecordError(
                            error.path,
                            index + 1,
                            _FIRST_BLOCK + _BLOCK * round_index,
                            f"round {round_index + 1}: the other half of the game left out "
                            f"at line {error.line}",
                            found=_trf_block(other, round_index).strip(),
                        )
                    )
                break
    return left_out


def repair_trf(
    path: Path, data: bytes, errors_of: Callable[[bytes], Sequence[IngestError]]
) -> tuple[bytes, list[IngestError]]:
    """A TRF with its bad round blocks (and the opponents' blocks of those games) blanked;
    ``errors_of`` reads and converts the bytes and returns the error it stops at, if any.

    :raises IngestError: an error outside the round blocks.
    """
    return _repair(path, data, "utf-8", errors_of, _blank_trf_round, later_are_halves=False)
