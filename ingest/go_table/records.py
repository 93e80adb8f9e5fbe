"""Go cross tables (h9 and .tou share them): a row's result cells and its name parts.

A cell is ``<opponent><symbol>[/|!<colour>[<handicap>]]`` in h9 (`parse_cell`, `GoCell.h9`);
``.tou`` writes the same cell without the separator (``ingest.tou.records``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum

from events.domain import Colour

__all__ = ["CELL_PATTERN", "GameResult", "GoCell", "name_parts", "parse_cell"]


class GameResult(Enum):
    """The result symbol of a cell, from the row player's side."""

    WIN = "+"
    LOSS = "-"
    DRAW = "="
    UNKNOWN = "?"
    """Not (yet) entered; OpenGotha writes ``?`` for a game without a result."""

    @property
    def mirror(self) -> GameResult:
        return _MIRROR[self]


_MIRROR = {
    GameResult.WIN: GameResult.LOSS,
    GameResult.LOSS: GameResult.WIN,
    GameResult.DRAW: GameResult.DRAW,
    GameResult.UNKNOWN: GameResult.UNKNOWN,
}


@dataclass(frozen=True, slots=True)
class GoCell:
    """One round of a player: ``<opponent><symbol>[/|!<colour>[<handicap>]]``.

    ``opponent`` 0 means no game (``0+`` free win, ``0-`` free round, ``0=`` half).
    ``handicap`` ``None`` means not written (``23+/w``), which the EGF reads as 0 or as
    following from the ranks.
    """

    opponent: int
    result: GameResult
    colour: Colour | None = None
    handicap: int | None = None
    forfeit: bool = False
    """``!`` instead of ``/`` (OpenGotha): the result was not played over the board."""
    slash: bool = False
    """A ``/`` or ``!`` separator was written even without a colour (kept for rewriting)."""

    @property
    def is_game(self) -> bool:
        return self.opponent != 0

    def h9(self) -> str:
        """The cell as h9 writes it: ``12+/w3``, ``5-!b``, ``0=``."""
        text = f"{self.opponent}{self.result.value}"
        if self.colour is not None or self.slash:
            text += "!" if self.forfeit else "/"
        if self.colour is not None:
            text += self.colour.value
        if self.handicap is not None:
            text += str(self.handicap)
        return text


CELL_PATTERN = re.compile(r"(\d+)([-+=?])(?:([/!])([bwBW])?)?(\d{1,2})?")


def parse_cell(token: str) -> GoCell | None:
    """A result cell, or ``None`` when ``token`` is not one.

    >>> parse_cell("11-/b5")
    GoCell(opponent=11, result=<GameResult.LOSS: '-'>, colour=<Colour.BLACK: 'b'>, \
handicap=5, forfeit=False, slash=True)
    """
    match = CELL_PATTERN.fullmatch(token)
    if match is None:
        return None
    opponent, symbol, separator, colour, handicap = match.groups()
    return GoCell(
        int(opponent),
        GameResult(symbol),
        Colour(colour.lower()) if colour else None,
        int(handicap) if handicap is not None else None,
        separator == "!",
        separator is not None,
    )


def name_parts(tokens: tuple[str, ...]) -> tuple[str, str]:
    """(surname, first name) of a go table's name tokens; ``_`` joins words inside a part."""
    if not tokens:
        return "", ""
    return tokens[0].replace("_", " "), " ".join(tokens[1:]).replace("_", " ")
