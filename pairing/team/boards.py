"""Board colours inside a match (TRF-2026 record 352, FIDE team practice).

The team named first has the colour of board 1; the other boards follow the board colour
sequence seen from that team (default ``WBWB…``: board 1 White, board 2 Black, …).
"""

from __future__ import annotations

from events.domain import Colour

__all__ = ["board_colours", "default_sequence"]


def default_sequence(boards: int) -> str:
    """``WBWB…`` for ``boards`` boards.

    >>> default_sequence(4)
    'WBWB'
    """
    return ("WB" * boards)[:boards]


def board_colours(boards: int, first_colour: Colour, sequence: str | None = None) -> list[Colour]:
    """The colour of the first-named team on each board, board 1 first.

    ``sequence`` is record 352's text (seen from a team with White on board 1).

    >>> [c.value for c in board_colours(4, Colour.BLACK)]
    ['b', 'w', 'b', 'w']
    """
    pattern = (sequence or default_sequence(boards)).strip().upper()
    if len(pattern) < boards:
        pattern = (pattern * boards)[:boards] if pattern else default_sequence(boards)
    colours = [Colour.WHITE if c == "W" else Colour.BLACK for c in pattern[:boards]]
    return colours if first_colour is Colour.WHITE else [c.invert() for c in colours]
