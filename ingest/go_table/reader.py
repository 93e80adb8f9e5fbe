"""Checks of a go cross table that the h9 and .tou readers share.

Opponent numbers exist, each pairing appears on both rows, results mirror, colours are
opposite and handicaps equal when both rows state them.
"""

from __future__ import annotations

from collections.abc import Sequence

from ingest.errors import IngestError, ResultRecordError
from ingest.go_table.records import GoCell

__all__ = ["check_cross_table"]


Row = tuple[int, int, tuple[GoCell, ...], tuple[int, ...]]
"""A table row: its number, its line in the file, its cells and each cell's column."""
_Problem = tuple[str, str | None, str | None]
"""What an IngestError says: the message, what was found, what was expected."""


def check_cross_table(path: str, rows: Sequence[Row]) -> list[IngestError]:
    """Opponent numbers exist, each pairing appears on both rows, results mirror.

    ``rows`` are ``(number, line, cells, cell columns)``. Colours must be opposite and
    handicaps equal when both rows state them. A player claimed by two rows in one round
    is paired twice. Every error is a :class:`ResultRecordError` at the cell concerned.
    """
    errors: list[IngestError] = []
    by_number = {number: cells for number, _, cells, _ in rows}
    for number, line, cells, columns in rows:
        for index, cell in enumerate(cells):
            if not cell.is_game:
                continue
            problem = _cell_problem(number, index, cell, by_number, len(rows))
            if problem is not None:
                column = columns[index] if index < len(columns) else 0
                message, found, expected = problem
                errors.append(ResultRecordError(path, line, column, message, found, expected))
    errors.extend(_paired_twice(path, rows))
    return errors


def _cell_problem(
    number: int, index: int, cell: GoCell, by_number: dict[int, tuple[GoCell, ...]], count: int
) -> _Problem | None:
    """What is wrong with one game cell of row ``number`` (round ``index + 1``), if anything."""
    where = f"round {index + 1}"
    if cell.opponent == number:
        return f"player {number} paired with himself in {where}", None, None
    other = by_number.get(cell.opponent)
    if other is None:
        found, expected = str(cell.opponent), f"1..{count}"
        return f"unknown opponent number in {where}", found, expected
    back = other[index] if index < len(other) else None
    if back is None or back.opponent != number:
        claimed = "no game" if back is None or not back.is_game else back.opponent
        return (
            f"player {number} meets {cell.opponent} in {where}, but "
            f"{cell.opponent}'s row has {claimed}",
            back.h9() if back is not None else "",
            f"{number}{cell.result.mirror.value}",
        )
    if number > cell.opponent:
        return None  # the pair was compared from the lower number's row
    return _pair_problem(number, cell, back, where)


def _pair_problem(number: int, cell: GoCell, back: GoCell, where: str) -> _Problem | None:
    """Both rows of one game agree: mirrored results, opposite colours, one handicap."""
    found = f"{cell.h9()} / {back.h9()}"
    pair = f"{number} v {cell.opponent}"
    if back.result is not cell.result.mirror:
        expected = f"{cell.result.value} against {cell.result.mirror.value}"
        return f"asymmetric result of {pair} in {where}", found, expected
    if cell.colour is not None and cell.colour == back.colour:
        return f"both players of {pair} have the same colour in {where}", found, "b against w"
    if cell.handicap is not None and back.handicap is not None and cell.handicap != back.handicap:
        expected = "the same handicap on both rows"
        return f"different handicaps for {pair} in {where}", found, expected
    return None


def _paired_twice(path: str, rows: Sequence[Row]) -> list[IngestError]:
    """A player claimed by two rows in one round is paired twice."""
    errors: list[IngestError] = []
    for index in range(max((len(r[2]) for r in rows), default=0)):
        claims: dict[int, int] = {}
        for number, line, cells, columns in rows:
            if not (index < len(cells) and cells[index].is_game):
                continue
            opponent = cells[index].opponent
            if opponent not in claims:
                claims[opponent] = number
                continue
            errors.append(
                ResultRecordError(
                    path,
                    line,
                    columns[index] if index < len(columns) else 0,
                    f"player {opponent} paired twice in round {index + 1} "
                    f"(by {claims[opponent]} and {number})",
                    found=str(opponent),
                    expected="one opponent per round",
                )
            )
    return errors
