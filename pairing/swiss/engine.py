"""The Swiss systems (Dutch, Burstein, Dubov) in the engines' calling convention
(:mod:`pairing.contract`): each system's ``pair_round`` is its ``pair`` and its explanation."""

from __future__ import annotations

from collections.abc import Callable

from pairing.contract import Engine, PairedRound, boards_of
from pairing.swiss.model import SwissInput, SwissRound

__all__ = ["swiss_engine"]

Pair = Callable[[SwissInput], SwissRound]
Reasons = Callable[[SwissInput, SwissRound], list[str]]


def swiss_engine(pair: Pair, reasons: Reasons) -> Engine[SwissInput, None]:
    """The ``pair_round`` of a Swiss system: boards name pairing numbers, the PAB last; the
    notes are ``reasons`` (one line per board, then the PAB). The systems take no params."""

    def pair_round(swiss: SwissInput, params: None, /, *, explain: bool = False) -> PairedRound:
        del params
        result = pair(swiss)
        notes = tuple(reasons(swiss, result)) if explain else ()
        return PairedRound(boards_of(result.boards, result.pab), notes)

    return pair_round
