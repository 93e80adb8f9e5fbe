"""Othello Swiss: players ranked on points, then disc count; 1 v 2, 3 v 4, ... without rematches.

The othello convention (WOF, Lazard's pairing programs) breaks score ties by the disc count,
the sum of one's discs over the games. Pairing walks the ranking: the highest unpaired player
meets the next one he has not met yet, backtracking when the rest cannot be paired. In an odd
field the lowest-ranked player without a bye sits out first. Black (who moves first in
othello) goes to the player with fewer games as Black, then to the one who was White in his
last game, then to the better ranked.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from pydantic import BaseModel, ConfigDict, Field, model_validator

from events.domain import Board
from events.errors import PairingError
from pairing.contract import PairedRound

__all__ = [
    "OthelloError",
    "OthelloGame",
    "OthelloInput",
    "OthelloPlayer",
    "discs_of_result",
    "pair",
    "pair_round",
    "standings",
]


class OthelloError(PairingError):
    """No pairing without rematches exists, or the input is inconsistent."""


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class OthelloPlayer(_Frozen):
    id: int = Field(ge=1)
    rating: int = 0
    """Orders players before any game (then by id)."""


class OthelloGame(_Frozen):
    """A played game; discs of each side (64 in all unless the board was not filled)."""

    round: int = Field(ge=1)
    black: int
    white: int | None
    """None: a bye for ``black``."""
    black_discs: int = Field(ge=0, le=64)
    white_discs: int = Field(0, ge=0, le=64)


class OthelloInput(_Frozen):
    players: tuple[OthelloPlayer, ...]
    games: tuple[OthelloGame, ...] = ()
    bye_points: Fraction = Fraction(1)
    """Points of a bye (disc count of a bye: 32, half the board, as the WOF counts it)."""
    bye_discs: int = 32

    @model_validator(mode="after")
    def _known_ids(self) -> OthelloInput:
        ids = {p.id for p in self.players}
        for g in self.games:
            if g.black not in ids or (g.white is not None and g.white not in ids):
                raise ValueError(f"round {g.round}: game {g.black}-{g.white} has an unknown id")
        return self


def discs_of_result(white_points: float, black_points: float) -> tuple[int, int]:
    """(white, black) discs of a game entered by its result alone: the whole board to the
    winner, half of it each for a draw (or no result).

    >>> discs_of_result(1, 0), discs_of_result(0.5, 0.5)
    ((64, 0), (32, 32))
    """
    if white_points > black_points:
        return 64, 0
    if black_points > white_points:
        return 0, 64
    return 32, 32


def standings(tourney: OthelloInput) -> list[tuple[int, Fraction, int]]:
    """(id, points, discs) by points, then discs, then rating, then id."""
    points = {p.id: Fraction(0) for p in tourney.players}
    discs = dict.fromkeys(points, 0)
    for g in tourney.games:
        if g.white is None:
            points[g.black] += tourney.bye_points
            discs[g.black] += tourney.bye_discs
            continue
        discs[g.black] += g.black_discs
        discs[g.white] += g.white_discs
        if g.black_discs == g.white_discs:
            points[g.black] += Fraction(1, 2)
            points[g.white] += Fraction(1, 2)
        else:
            points[g.black if g.black_discs > g.white_discs else g.white] += 1
    rating = {p.id: p.rating for p in tourney.players}
    order = sorted(points, key=lambda i: (-points[i], -discs[i], -rating[i], i))
    return [(i, points[i], discs[i]) for i in order]


def _match(order: Sequence[int], met: set[frozenset[int]]) -> list[tuple[int, int]] | None:
    if not order:
        return []
    first, rest = order[0], order[1:]
    for i, other in enumerate(rest):
        if frozenset((first, other)) in met:
            continue
        tail = _match([*rest[:i], *rest[i + 1 :]], met)
        if tail is not None:
            return [(first, other), *tail]
    return None


def _colours(a: int, b: int, tourney: OthelloInput) -> tuple[int, int]:
    """(black, white) for a pair listed better ranked first."""

    def blacks(p: int) -> int:
        return sum(1 for g in tourney.games if g.black == p and g.white is not None)

    def last_white(p: int) -> bool:
        played = [g for g in tourney.games if g.white is not None and p in (g.black, g.white)]
        return bool(played) and max(played, key=lambda g: g.round).white == p

    if blacks(a) != blacks(b):
        return (a, b) if blacks(a) < blacks(b) else (b, a)
    if last_white(a) != last_white(b):
        return (a, b) if last_white(a) else (b, a)
    return a, b


def pair(tourney: OthelloInput) -> list[Board]:
    """Boards of the next round (``white`` is the player with White; a bye has no ``black``).

    Board order follows the ranking; the bye is the last board.
    """
    order = [i for i, _, _ in standings(tourney)]
    met = {frozenset((g.black, g.white)) for g in tourney.games if g.white is not None}
    had_bye = {g.black for g in tourney.games if g.white is None}
    candidates = (
        [None]
        if len(order) % 2 == 0
        else [p for p in reversed(order) if p not in had_bye]
        + [p for p in reversed(order) if p in had_bye]
    )
    for bye in candidates:
        pairs = _match([p for p in order if p != bye], met)
        if pairs is None:
            continue
        boards = []
        for number, (a, b) in enumerate(pairs, 1):
            black, white = _colours(a, b, tourney)
            boards.append(Board(board=number, white=white, black=black))
        if bye is not None:
            boards.append(Board(board=len(boards) + 1, white=bye, black=None))
        return boards
    raise OthelloError("no pairing without rematches exists for this round")


NOTE = "othello Swiss: by points, then disc count; no rematches"


def pair_round(request: OthelloInput, params: None, /, *, explain: bool = False) -> PairedRound:
    """:func:`pair` in the engines' calling convention (no params); one note for the round."""
    del params
    return PairedRound(tuple(pair(request)), (NOTE,) if explain else ())
