"""Acceleration rules that give players fictitious points for pairing only."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from events.acceleration import baku_points
from pairing.swiss.model import Scoring, SwissPlayer

__all__ = ["baku"]


def baku(
    players: Sequence[SwissPlayer], scoring: Scoring, total_rounds: int, rounds_played: int
) -> list[SwissPlayer]:
    """FIDE Baku acceleration (C.04.5.1) as bbpPairings applies it.

    The top half (pairing numbers 1..ceil(n/2)) gets a win's points in the first half of the
    accelerated rounds and a draw's in the second; the accelerated rounds are the first half
    of the tournament. Each player's values cover the rounds up to the one to pair.
    """
    out: list[SwissPlayer] = []
    for index, player in enumerate(players):
        values = baku_points(index, len(players), total_rounds, scoring.win, scoring.draw)
        if not values:
            out.append(player)
            continue
        out.append(replace(player, accelerations=tuple(values[: rounds_played + 1])))
    return out
