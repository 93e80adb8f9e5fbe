"""Colour allocation shared by the Swiss systems (C.04.3 article 5, 5.2.1-5.2.3), board order."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, Self, TypeVar

from pairing.swiss.model import Colour, Result, SwissPlayer, SwissRound
from pairing.swiss.state import PlayerState, invert

__all__ = ["board_key", "infer_initial_colour", "neutral_colour", "published_order", "swiss_round"]


class _Score(Protocol):
    def __neg__(self) -> Self: ...
    def __lt__(self, other: Self, /) -> bool: ...


S = TypeVar("S", bound=_Score)


def published_order(a: tuple[S, int], b: tuple[S, int]) -> tuple[S, S, int]:
    """The sort key of a board (or a team match) between ``a`` and ``b``, each ``(score,
    rank)`` (rank: smaller is higher): the higher side's score, then the lower side's score,
    then the higher side's rank. The higher side has the larger score, then the smaller rank.

    >>> published_order((2, 5), (3, 7)), published_order((2, 5), (2, 1))
    ((-3, -2, 7), (-2, -2, 1))
    """
    higher, lower = (a, b) if (a[0], -a[1]) > (b[0], -b[1]) else (b, a)
    return (-higher[0], -lower[0], higher[1])


def board_key(a: PlayerState, b: PlayerState) -> tuple[int, int, int]:
    """Board order: higher player's score, then the lower player's score, then rank."""
    return published_order((a.score, a.index), (b.score, b.index))


def swiss_round(
    boards: list[tuple[PlayerState, PlayerState]], pab: PlayerState | None
) -> SwissRound:
    """The round as the engines return it: (white, black) boards in board order, and the PAB."""
    ordered = sorted(boards, key=lambda wb: board_key(wb[0], wb[1]))
    return SwissRound(
        boards=tuple((w.number, b.number) for w, b in ordered),
        pab=None if pab is None else pab.number,
    )


def _first_colour_difference(a: PlayerState, b: PlayerState) -> tuple[Colour, Colour]:
    ca = [r.colour for r in a.rounds if r.played][::-1]
    cb = [r.colour for r in b.rounds if r.played][::-1]
    for x, y in zip(ca, cb, strict=False):
        if x is not y:
            return x, y
    n = min(len(ca), len(cb))
    return (
        ca[n] if n < len(ca) else Colour.NONE,
        cb[n] if n < len(cb) else Colour.NONE,
    )


def neutral_colour(p: PlayerState, o: PlayerState) -> Colour:
    """Colour of ``p`` by the preference rules (5.2.1-5.2.3), or NONE when they do not decide."""
    pp, op = p.colour_preference, o.colour_preference
    if pp is not op or pp is Colour.NONE or op is Colour.NONE:
        if pp is not Colour.NONE:
            return pp
        return invert(op)
    if p.absolute_preference and (
        p.colour_imbalance > o.colour_imbalance or not o.absolute_preference
    ):
        return pp
    if o.absolute_preference and (
        o.colour_imbalance > p.colour_imbalance or not p.absolute_preference
    ):
        return invert(op)
    if p.strong_preference and not o.strong_preference:
        return pp
    if o.strong_preference and not p.strong_preference:
        return invert(op)
    cp, co = _first_colour_difference(p, o)
    if cp is not Colour.NONE and co is not Colour.NONE:
        return co
    return Colour.NONE


def infer_initial_colour(players: Sequence[SwissPlayer]) -> Colour:
    """The top seed's colour in round 1, read back from the histories when nobody stated it.

    In the first round with colours: the colour of the first participant who had one,
    inverted once for each participant above him who had none; White when no round has
    colours.
    """
    first_round = min(
        (i for p in players for i, e in enumerate(p.history) if e.colour is not Colour.NONE),
        default=None,
    )
    if first_round is None:
        return Colour.WHITE
    seen = 0
    for player in players:
        if any(
            e.opponent is not None or e.result in (Result.PAB, Result.FORFEIT_WIN)
            for e in player.history[: first_round + 1]
        ):
            colour = player.history[first_round].colour
            if seen % 2:
                colour = colour.invert()
            if colour is not Colour.NONE:
                return colour
            seen += 1
    return Colour.WHITE
