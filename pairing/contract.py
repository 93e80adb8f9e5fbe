"""The one calling convention of the engines: ``pair_round(request, params) -> PairedRound``.

Every pairing system exports one such function beside its own ``pair``: it takes the system's
input (the tournament as that system sees it) and its params (the system's tunables; ``None``
for a system that has none) and returns the boards of the round and, with ``explain=True``,
why: one line per board or per decision, as ``arbiter pair --explain`` prints them.

A new engine goes in three places: the engine in ``pairing/<system>/`` with its
``pair_round``; the adapters that build its input (from the live tournament state, and from a
file for ``arbiter-pairings``) in ``pipelines/engines/``; one line in the registry,
``pipelines/engines/registry.py``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol, TypeVar

from events.domain import Board

__all__ = ["Engine", "PairedRound", "boards_of"]

InputT_contra = TypeVar("InputT_contra", contravariant=True)
ParamsT_contra = TypeVar("ParamsT_contra", contravariant=True)


@dataclass(frozen=True, slots=True)
class PairedRound:
    """A paired round as every engine returns it."""

    boards: tuple[Board, ...]
    """In board order; the bye is a board without ``black``. Players are named as the input
    names them: pairing numbers, player ids, or (Mac-Mahon, whose keys are text) positions in
    the input's player list, from 1."""
    notes: tuple[str, ...] = ()
    """Why, one line per board or decision; empty unless asked for."""


class Engine(Protocol[InputT_contra, ParamsT_contra]):
    """``pair_round(request, params, explain=...)``: the round after the input's last one."""

    def __call__(
        self, request: InputT_contra, params: ParamsT_contra, /, *, explain: bool = False
    ) -> PairedRound: ...


def boards_of(pairs: Iterable[tuple[int, int]], bye: int | None = None) -> tuple[Board, ...]:
    """Boards 1, 2, ... of ``(white, black)`` pairs, then the bye's board.

    >>> [(b.board, b.white, b.black) for b in boards_of([(3, 1), (2, 4)], bye=5)]
    [(1, 3, 1), (2, 2, 4), (3, 5, None)]
    """
    boards = [Board(board=i, white=w, black=b) for i, (w, b) in enumerate(pairs, start=1)]
    if bye is not None:
        boards.append(Board(board=len(boards) + 1, white=bye, black=None))
    return tuple(boards)
