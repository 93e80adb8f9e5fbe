"""Knockout brackets (pairing.md §8): standard seeding, byes to the top seeds, winners advance.

Seeds are placed so that 1 and 2 can meet only in the final: starting from [1, 2], each
doubling replaces seed p by the pair (p, size + 1 - p), so 8 players give 1-8, 4-5, 2-7, 3-6.
A field that is not a power of two is padded with byes: the missing seeds size, size-1, ...
are the top seeds' opponents, so seed 1 gets the first bye. Later rounds pair the winners of
consecutive boards (1 and 2, 3 and 4, ...); a bye advances its player.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from events.domain import Board
from events.errors import PairingError
from pairing.contract import PairedRound

__all__ = [
    "KnockoutError",
    "KnockoutGame",
    "KnockoutRequest",
    "bracket",
    "first_round",
    "next_round",
    "pair_round",
    "winners",
]

MIN_PLAYERS = 2


class KnockoutError(PairingError):
    """The field or the results do not allow the next knockout round."""


def bracket(size: int) -> list[int]:
    """Seed numbers in board order for a power-of-two ``size`` (pairs in consecutive slots).

    >>> bracket(8)
    [1, 8, 4, 5, 2, 7, 3, 6]
    """
    if size < MIN_PLAYERS or size & (size - 1):
        raise KnockoutError(f"a bracket needs a power of two slots, got {size}")
    seeds = [1, 2]
    while len(seeds) < size:
        total = 2 * len(seeds) + 1
        seeds = [x for p in seeds for x in (p, total - p)]
    return seeds


def first_round(seeded: Sequence[int]) -> list[Board]:
    """Boards of round 1 for player ids in seed order (index 0 is seed 1).

    The better seed is listed first (``white``); a bye is a board without ``black``, listed
    with the games in bracket order so that later rounds can pair consecutive boards.
    """
    if len(seeded) < MIN_PLAYERS:
        raise KnockoutError(f"a knockout needs at least {MIN_PLAYERS} players, got {len(seeded)}")
    if len(set(seeded)) != len(seeded):
        raise KnockoutError("a player appears twice in the seeding")
    size = 1 << (len(seeded) - 1).bit_length()
    slots = bracket(size)
    boards = []
    for number, (a, b) in enumerate(zip(slots[0::2], slots[1::2], strict=True), 1):
        top, bottom = min(a, b), max(a, b)
        black = seeded[bottom - 1] if bottom <= len(seeded) else None
        boards.append(Board(board=number, white=seeded[top - 1], black=black))
    return boards


def next_round(previous: Sequence[Board], winners: Mapping[int, int]) -> list[Board]:
    """Winners of boards (1, 2), (3, 4), ... meet; ``winners`` maps board number to winner.

    The winner of the earlier board is listed first. A bye's player needs no entry.
    """
    ordered = sorted(previous, key=lambda b: b.board)
    if len(ordered) < MIN_PLAYERS or len(ordered) % 2:
        raise KnockoutError(f"round has {len(ordered)} boards: the knockout is over")
    advancing = []
    for b in ordered:
        if b.black is None:
            advancing.append(b.white)
            continue
        winner = winners.get(b.board)
        if winner not in (b.white, b.black):
            raise KnockoutError(
                f"board {b.board}: winner {winner} is not one of {b.white} and {b.black} "
                "(knockout games cannot be drawn)"
            )
        advancing.append(winner)
    return [
        Board(board=i, white=a, black=c)
        for i, (a, c) in enumerate(zip(advancing[0::2], advancing[1::2], strict=True), 1)
    ]


@dataclass(frozen=True, slots=True)
class KnockoutGame:
    """A board of the round before, with the points each side scored (None: no result)."""

    board: int
    white: int
    black: int | None
    """None: a bye."""
    points: tuple[float, float] | None = None
    """(white, black) under the tournament's scoring."""


@dataclass(frozen=True, slots=True)
class KnockoutRequest:
    """Round 1: the players in seed order; a later round: the boards of the round before."""

    round: int
    seeded: tuple[int, ...] = ()
    previous: tuple[KnockoutGame, ...] = ()


NOTE = "knockout: standard seeding (1 v last, bracket halves kept apart)"


def winners(previous: Sequence[KnockoutGame]) -> dict[int, int]:
    """Board number -> the player who scored more; a bye, a tied or unplayed board has none.

    >>> winners([KnockoutGame(1, 5, 8, (0.0, 1.0)), KnockoutGame(2, 4, 6, (0.5, 0.5))])
    {1: 8}
    """
    found: dict[int, int] = {}
    for game in previous:
        if game.black is None or game.points is None:
            continue
        white, black = game.points
        if white != black:
            found[game.board] = game.white if white > black else game.black
    return found


def pair_round(request: KnockoutRequest, params: None, /, *, explain: bool = False) -> PairedRound:
    """:func:`first_round` or :func:`next_round` in the engines' calling convention (no
    params); one note for the round."""
    del params
    notes = (NOTE,) if explain else ()
    if request.round == 1:
        return PairedRound(tuple(first_round(request.seeded)), notes)
    previous = [Board(board=g.board, white=g.white, black=g.black) for g in request.previous]
    return PairedRound(tuple(next_round(previous, winners(request.previous))), notes)
