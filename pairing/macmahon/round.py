"""Mac-Mahon (and OpenGotha's Swiss) in the engines' calling convention (pairing.contract)."""

from __future__ import annotations

from dataclasses import dataclass

from events.domain import Board
from pairing.contract import PairedRound
from pairing.macmahon.cost import CostBreakdown
from pairing.macmahon.engine import pair
from pairing.macmahon.model import GoTournament, Pairing
from pairing.macmahon.params import MacMahonParams

__all__ = ["MacMahonRequest", "pair_round"]

BYE_NOTE = "bye (chosen before matching, as OpenGotha does)"


@dataclass(frozen=True, slots=True)
class MacMahonRequest:
    """The round to pair and the tournament's games and byes before it."""

    tournament: GoTournament
    round: int


def pair_round(
    request: MacMahonRequest, params: MacMahonParams, /, *, explain: bool = False
) -> PairedRound:
    """:func:`~pairing.macmahon.engine.pair`: games in OpenGotha's order, each with its
    handicap, then the bye. Boards name players by their position in the tournament's player
    list, from 1 (the keys are text). The notes give each game's cost and its parts."""
    costs: dict[frozenset[str], CostBreakdown] = {}

    def record(a: str, b: str, cost: CostBreakdown) -> None:
        costs[frozenset((a, b))] = cost

    result = pair(request.tournament, params, request.round, explain=record if explain else None)
    number = {p.key: i for i, p in enumerate(request.tournament.players, start=1)}
    boards = [
        Board(board=i, white=number[g.white], black=number[g.black], handicap=g.handicap)
        for i, g in enumerate(result.games, start=1)
    ]
    if result.bye is not None:
        boards.append(Board(board=len(boards) + 1, white=number[result.bye], black=None))
    return PairedRound(tuple(boards), _notes(result, costs) if explain else ())


def _notes(result: Pairing, costs: dict[frozenset[str], CostBreakdown]) -> tuple[str, ...]:
    """A line per game whose cost was weighed, then the bye's."""
    notes = []
    for i, game in enumerate(result.games, start=1):
        cost = costs.get(frozenset((game.white, game.black)))
        if cost is not None:
            notes.append(f"board {i}: {cost.describe()}")
    if result.bye is not None:
        notes.append(f"board {len(result.games) + 1}: {BYE_NOTE}")
    return tuple(notes)
