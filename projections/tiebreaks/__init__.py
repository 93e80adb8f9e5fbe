"""Tie-break registry: each code (C.07 / EGF style) maps to one function over the state.

A tie-break function returns a value per player (None where undefined for that player);
higher is better unless the registry entry says otherwise.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from projections.state import TournamentState

Values = dict[int, float | None]
TiebreakFn = Callable[[TournamentState, int], Values]


@dataclass(frozen=True, slots=True)
class Tiebreak:
    code: str
    name: str
    compute: TiebreakFn  # (state, through_round) -> values


class UnknownTiebreak(ValueError):
    def __init__(self, code: str) -> None:
        known = ", ".join(sorted(REGISTRY))
        super().__init__(f"unknown tie-break '{code}' (known: {known})")


def _points(state: TournamentState, through: int) -> dict[int, float]:
    return {pid: state.points(pid, through) for pid in state.players}


def buchholz(state: TournamentState, through: int) -> Values:
    """Sum of the opponents' scores (games with a real opponent only)."""
    pts = _points(state, through)
    return {
        pid: sum(pts[p.opponent] for p in state.pairings(pid, through) if p.opponent is not None)
        for pid in state.players
    }


def sonneborn_berger(state: TournamentState, through: int) -> Values:
    """Sum over games of the opponent's score times the points scored against him."""
    pts = _points(state, through)
    return {
        pid: sum(
            pts[p.opponent] * (p.points or 0.0)
            for p in state.pairings(pid, through)
            if p.opponent is not None
        )
        for pid in state.players
    }


def wins(state: TournamentState, through: int) -> Values:
    win = state.scoring.win
    return {
        pid: float(
            sum(1 for p in state.pairings(pid, through) if p.points is not None and p.points >= win)
        )
        for pid in state.players
    }


REGISTRY: dict[str, Tiebreak] = {
    t.code: t
    for t in (
        Tiebreak("BH", "Buchholz", buchholz),
        Tiebreak("SB", "Sonneborn-Berger", sonneborn_berger),
        Tiebreak("WIN", "Number of wins", wins),
    )
}


def lookup(code: str) -> Tiebreak:
    try:
        return REGISTRY[code.upper()]
    except KeyError:
        raise UnknownTiebreak(code) from None
