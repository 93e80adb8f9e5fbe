"""Checks of a go cross table that the h9 and .tou readers share.

Opponent numbers exist, each pairing appears on both rows, results mirror, colours are
opposite and handicaps equal when both rows state them.
"""

from __future__ import annotations

from collections.abc import Sequence

from ingest.errors import IngestError
from ingest.go_table.records import GoCell

__all__ = ["check_cross_table"]


def check_cross_table(
    path: str, rows: Sequence[tuple[int, int, tuple[GoCell, ...], tuple[int, ...]]]
) -> list[IngestError]:
    """Opponent numbers exist, each pairing appears on both rows, results mirror.

    ``rows`` are ``(number, line, cells, cell columns)``. Colours must be opposite and
    handicaps equal when both rows state them.
    """
    errors: list[IngestError] = []
    by_number = {number: (line, cells) for number, line, cells, _ in rows}
    for number, line, cells, columns in rows:
        for index, cell in enumerate(cells):
            round_no = index + 1
            column = columns[index] if index < len(columns) else 0
            if not cell.is_game:
                continue
            where = f"round {round_no}"
            if cell.opponent == number:
                errors.append(
                    IngestError(
                        path, line, column, f"player {number} paired with himself in {where}"
                    )
                )
                continue
            other = by_number.get(cell.opponent)
            if other is None:
                errors.append(
                    IngestError(
                        path,
                        line,
                        column,
                        f"unknown opponent number in {where}",
                        found=str(cell.opponent),
                        expected=f"1..{len(rows)}",
                    )
                )
                continue
            other_cells = other[1]
            back = other_cells[index] if index < len(other_cells) else None
            if back is None or back.opponent != number:
                claimed = "no game" if back is None or not back.is_game else back.opponent
                errors.append(
                    IngestError(
                        path,
                        line,
                        column,
                        f"player {number} meets {cell.opponent} in {where}, but "
                        f"{cell.opponent}'s row has {claimed}",
                        found=back.h9() if back is not None else "",
                        expected=f"{number}{cell.result.mirror.value}",
                    )
                )
                continue
            if number > cell.opponent:
                continue  # the pair was compared from the lower number's row
            if back.result is not cell.result.mirror:
                errors.append(
                    IngestError(
                        path,
                        line,
                        column,
                        f"asymmetric result of {number} v {cell.opponent} in {where}",
                        found=f"{cell.h9()} / {back.h9()}",
                        expected=f"{cell.result.value} against {cell.result.mirror.value}",
                    )
                )
            elif cell.colour is not None and cell.colour == back.colour:
                errors.append(
                    IngestError(
                        path,
                        line,
                        column,
                        f"both players of {number} v {cell.opponent} have the same colour "
                        f"in {where}",
                        found=f"{cell.h9()} / {back.h9()}",
                        expected="b against w",
                    )
                )
            elif (
                cell.handicap is not None
                and back.handicap is not None
                and cell.handicap != back.handicap
            ):
                errors.append(
                    IngestError(
                        path,
                        line,
                        column,
                        f"different handicaps for {number} v {cell.opponent} in {where}",
                        found=f"{cell.h9()} / {back.h9()}",
                        expected="the same handicap on both rows",
                    )
                )
    # A player claimed by two rows in one round is paired twice.
    for index in range(max((len(r[2]) for r in rows), default=0)):
        claims: dict[int, int] = {}
        for number, line, cells, columns in rows:
            if index < len(cells) and cells[index].is_game:
                opponent = cells[index].opponent
                if opponent in claims:
                    errors.append(
                        IngestError(
                            path,
                            line,
                            columns[index] if index < len(columns) else 0,
                            f"player {opponent} paired twice in round {index + 1} "
                            f"(by {claims[opponent]} and {number})",
                            found=str(opponent),
                            expected="one opponent per round",
                        )
                    )
                else:
                    claims[opponent] = number
    return errors
