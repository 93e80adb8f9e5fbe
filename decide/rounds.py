"""The deciders of a round's arrangements that need no engine: a bye asked in advance, two
players kept apart, two boards swapped. (Pairing by the system and by hand: `decide.pairing`.)"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from decide.base import known_player, new_event, numbered
from decide.errors import CommandError
from decide.inputs import ByeInput
from decide.state import TournamentState
from events.domain import ByeKind, System
from events.schema import BoardsSwapped, ByeGranted, PairForbidden
from events.validate import InvalidField

__all__ = ["FORBID_SYSTEMS", "bye", "forbid", "swap"]

FORBID_SYSTEMS = frozenset({System.DUTCH, System.BURSTEIN, System.DUBOV})
"""Systems whose engine honours forbidden pairs (the FIDE Swiss engines' C1 criterion)."""


def bye(state: TournamentState, command: ByeInput | Mapping[str, Any]) -> list[ByeGranted]:
    """A bye requested in advance (or an absence) for a round not yet paired."""
    request = ByeInput.check(command)
    known_player(state, request.player)
    if request.kind is ByeKind.PAIRING:
        raise CommandError("the pairing-allocated bye is given by the pairing, not by hand")
    if request.round in state.rounds:
        raise CommandError(f"{state.id}: round {request.round} is already paired")
    if request.round > state.total_rounds:
        raise CommandError(f"{state.id}: round {request.round} > {state.total_rounds} rounds")
    return [
        new_event(
            ByeGranted, state.id, player=request.player, round=request.round, kind=request.kind
        )
    ]


def forbid(state: TournamentState, first: int, second: int) -> list[PairForbidden]:
    """Two players who must never meet, from the next round on (the systems whose engine
    honours it only)."""
    if state.system not in FORBID_SYSTEMS:
        raise CommandError(
            f"{state.id}: the {state.system.value} system cannot keep two players apart "
            f"(forbidden pairs work with {', '.join(sorted(s.value for s in FORBID_SYSTEMS))})"
        )
    known_player(state, first)
    known_player(state, second)
    if first == second:
        raise CommandError(f"{state.id}: give two different players")
    if frozenset((first, second)) in state.forbidden:
        ranks = state.start_ranks()
        raise CommandError(
            f"{state.id}: players {numbered(state, first, ranks)} and "
            f"{numbered(state, second, ranks)} are already kept apart"
        )
    return [PairForbidden(players=(first, second), from_round=state.last_round + 1)]


def swap(state: TournamentState, round_no: int, first: int, second: int) -> list[BoardsSwapped]:
    """Swap two boards of a paired round, neither the bye nor one with a result."""
    rnd = state.rounds.get(round_no)
    if rnd is None:
        raise CommandError(f"{state.id}: round {round_no} is not paired")
    if first == second:
        raise InvalidField("swap", f"give two different boards (both are {first})")
    for n in (first, second):
        board = rnd.board(n)
        if board is None:
            raise InvalidField(
                "swap", f"round {round_no} has no board {n} (boards 1..{len(rnd.boards)})"
            )
        if board.is_bye:
            raise InvalidField("swap", f"board {n} of round {round_no} is the bye")
        if board.outcome is not None and board.outcome.is_known:
            raise InvalidField("swap", f"board {n} of round {round_no} already has a result")
    return [BoardsSwapped(round=round_no, boards=(first, second))]
