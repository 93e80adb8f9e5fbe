"""Which engine pairs a round of each system. Pure: state in, boards out."""

from __future__ import annotations

from collections.abc import Callable

from events.domain import Board, Game, System
from pairing import dutch, live
from pairing import macmahon as mm
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


def _dutch(state: TournamentState, round_no: int) -> list[Board]:
    swiss, by_number = live.swiss_input(state, round_no)
    return live.swiss_boards(dutch.pair(swiss), by_number)


def _macmahon(state: TournamentState, round_no: int) -> list[Board]:
    swiss = state.system is System.SWISS
    result = mm.pair(live.go_tournament(state), live.go_params(state, swiss), round_no)
    komi = state.settings.pairing_params.get("komi")
    boards = [
        Board(
            board=i,
            white=int(g.white),
            black=int(g.black),
            handicap=g.handicap,
            komi=float(komi) if isinstance(komi, int | float) else None,
        )
        for i, g in enumerate(result.games, start=1)
    ]
    if result.bye is not None:
        boards.append(Board(board=len(boards) + 1, white=int(result.bye), black=None))
    return boards


ENGINES: dict[System, Callable[[TournamentState, int], list[Board]]] = {
    System.ROUNDROBIN: _round_robin,
    System.DUTCH: _dutch,
    System.MACMAHON: _macmahon,
}


def pair_next_round(state: TournamentState, round_no: int) -> list[Board]:
    engine = ENGINES.get(state.system)
    if state.system is System.SWISS and state.game is Game.GO:
        engine = _macmahon
    if engine is None:
        raise PairingUnavailable(f"no pairing engine for system '{state.system.value}' yet")
    return engine(state, round_no)
