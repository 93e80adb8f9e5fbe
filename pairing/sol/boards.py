"""SoL's board assignment for Swiss and round-robin rounds.

Each match, in creation order, takes the free board that both competitors have used least:
the smallest (uses by competitor 1, uses by competitor 2, board number). The phantom's match
is always on the last board.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

__all__ = ["assign_boards"]


def assign_boards(
    pairs: Sequence[tuple[int, int | None]], history: Iterable[tuple[int, int]]
) -> list[int]:
    """Board of each pair (same order); ``history`` holds (competitor, board) of past matches."""
    used = Counter(history)
    games = [i for i, (_, b) in enumerate(pairs) if b is not None]
    free = list(range(1, len(games) + 1))
    boards = [0] * len(pairs)
    for i in games:
        c1, c2 = pairs[i]
        board = min(free, key=lambda b: (used[(c1, b)], used[(c2, b)], b))  # type: ignore[index]
        free.remove(board)
        boards[i] = board
    last = len(games)
    for i, (_, b) in enumerate(pairs):
        if b is None:
            last += 1
            boards[i] = last
    return boards
