"""Which engine pairs a round of each system. Pure: state in, boards out."""

from __future__ import annotations

from collections.abc import Callable

from events.domain import Board, System
from pairing.roundrobin import RoundRobinError, pair_round_robin, rounds_per_cycle
from projections.state import TournamentState


class PairingUnavailable(ValueError):
    """The tournament's system has no engine (yet), or its rounds come from a result file."""


def _round_robin(state: TournamentState, round_no: int) -> list[Board]:
    ranks = state.start_ranks()
    ordered = sorted(state.players, key=ranks.__getitem__)
    per_cycle = rounds_per_cycle(len(ordered))
    if state.settings.rounds != per_cycle:
        raise RoundRobinError(
            f"a round robin of {len(ordered)} players has {per_cycle} rounds per cycle, "
            f"but the tournament was created with --rounds {state.settings.rounds}"
        )
    return pair_round_robin(ordered, round_no, state.settings.cycles)


ENGINES: dict[System, Callable[[TournamentState, int], list[Board]]] = {
    System.ROUNDROBIN: _round_robin,
}


def pair_next_round(state: TournamentState, round_no: int) -> list[Board]:
    engine = ENGINES.get(state.system)
    if engine is None:
        raise PairingUnavailable(f"no pairing engine for system '{state.system.value}' yet")
    return engine(state, round_no)
