"""Which engine pairs a round of each system. Pure: state in, boards out."""

from __future__ import annotations

from collections.abc import Callable

from events.domain import Board, Game, System
from events.errors import PairingError
from pairing import burstein, dutch, gopair, knockout, othello, sol
from pairing import macmahon as mm
from pairing.roundrobin import RoundRobinError, cycle_round, pair_round_robin, rounds_per_cycle
from pairing.swiss.model import SwissInput, SwissRound
from pipelines import chess_swiss, live
from projections.state import TournamentState


class PairingUnavailable(PairingError):
    """The tournament's system has no engine (yet), or its rounds come from a result file."""


Notes = list[str] | None
Engine = Callable[[TournamentState, int, Notes], list[Board]]
"""Where an engine writes its explanation, one line per board, when the director asks."""


def _round_robin(state: TournamentState, round_no: int, notes: Notes = None) -> list[Board]:
    ranks = state.start_ranks()
    ordered = sorted(state.players, key=ranks.__getitem__)
    per_cycle = rounds_per_cycle(len(ordered))
    if state.settings.rounds != per_cycle:
        raise RoundRobinError(
            f"a round robin of {len(ordered)} players has {per_cycle} rounds per cycle, "
            f"but the tournament was created with --rounds {state.settings.rounds}"
        )
    boards = pair_round_robin(ordered, round_no, state.settings.cycles)
    if notes is not None:
        k, reverse = cycle_round(len(ordered), round_no, state.settings.cycles)
        flip = " with colours reversed (second cycle)" if reverse else ""
        for b in boards:
            who = f"{ranks[b.white]}-{ranks[b.black]}" if b.black else f"{ranks[b.white]} bye"
            notes.append(f"board {b.board}: Berger table round {k}{flip}, numbers {who}")
    return boards


def _fide_swiss(pair: Callable[[SwissInput], SwissRound]) -> Engine:
    """A live engine for a TRF-style Swiss system (Dutch, Burstein) and its explanation."""

    def engine(state: TournamentState, round_no: int, notes: Notes = None) -> list[Board]:
        swiss, by_number = live.swiss_input(state, round_no)
        result = pair(swiss)
        if notes is not None:
            notes.extend(dutch.explain(swiss, result))
        return live.swiss_boards(result, by_number)

    return engine


_burstein = _fide_swiss(burstein.pair)


def _macmahon(state: TournamentState, round_no: int, notes: Notes = None) -> list[Board]:
    swiss = state.system is System.SWISS
    costs: dict[frozenset[str], mm.CostBreakdown] = {}

    def record(a: str, b: str, cost: mm.CostBreakdown) -> None:
        costs[frozenset((a, b))] = cost

    result = mm.pair(
        live.go_tournament(state),
        live.go_params(state, swiss),
        round_no,
        explain=record if notes is not None else None,
    )
    komi = state.settings.pairing_params.go.komi
    boards = [
        Board(
            board=i,
            white=int(g.white),
            black=int(g.black),
            handicap=g.handicap,
            komi=komi,
        )
        for i, g in enumerate(result.games, start=1)
    ]
    if result.bye is not None:
        boards.append(Board(board=len(boards) + 1, white=int(result.bye), black=None))
    if notes is not None:
        for b in boards:
            if b.black is None:
                notes.append(f"board {b.board}: bye (chosen before matching, as OpenGotha does)")
                continue
            cost = costs.get(frozenset((str(b.white), str(b.black))))
            if cost is None:
                continue
            parts = ", ".join(
                f"{name} {value}"
                for name, value in (
                    ("no rematch", cost.duplicate),
                    ("score difference", cost.score_difference),
                    ("draw-up/down", cost.dudd),
                    ("seeding", cost.seeding),
                    ("colour balance", cost.colour_balance),
                    ("handicap", cost.handicap),
                    ("geography", cost.geography),
                    ("category", cost.category),
                    ("random", cost.random),
                )
                if value
            )
            notes.append(f"board {b.board}: cost {cost.total} = 1 + {parts}")
    return boards


def _sol(state: TournamentState, round_no: int, notes: Notes = None) -> list[Board]:
    tourney, params = live.sol_tourney(state)
    result = sol.pair(tourney, params, random_seed=live.sol_draw_seed(state, round_no))
    if notes is not None:
        notes.append(f"SoL {params.couplings.value} pairing of round {result.round}")
    return live.sol_boards(result)


def _gopair(
    state: TournamentState, round_no: int, notes: Notes = None, bye: int | None = None
) -> list[Board]:
    params = live.gopair_params(state, round_no)
    result = gopair.pair(live.gopair_input(state, round_no, bye), params)
    if notes is not None:
        notes.extend(
            f"board {i}: gopair score {b.score}" for i, b in enumerate(result.boards, start=1)
        )
    return live.gopair_boards(result)


def _othello(state: TournamentState, round_no: int, notes: Notes = None) -> list[Board]:
    del round_no
    if notes is not None:
        notes.append("othello Swiss: by points, then disc count; no rematches")
    return othello.pair(live.othello_input(state))


def _knockout(state: TournamentState, round_no: int, notes: Notes = None) -> list[Board]:
    if notes is not None:
        notes.append("knockout: standard seeding (1 v last, bracket halves kept apart)")
    if round_no == 1:
        ranks = state.start_ranks()
        active = [pid for pid, p in state.players.items() if p.active_in(1)]
        return knockout.first_round(sorted(active, key=ranks.__getitem__))
    previous = state.rounds[round_no - 1]
    winners: dict[int, int] = {}
    for b in previous.boards:
        if b.black is None:
            continue
        pts = state.scoring.for_game(b.outcome) if b.outcome else None
        if pts is not None and pts[0] != pts[1]:
            winners[b.board] = b.white if pts[0] > pts[1] else b.black
    prev = [Board(board=b.board, white=b.white, black=b.black) for b in previous.boards]
    return knockout.next_round(prev, winners)


ENGINES: dict[System, Engine] = {
    System.ROUNDROBIN: _round_robin,
    System.DUTCH: chess_swiss.dutch_engine,
    System.DUBOV: chess_swiss.dubov_engine,
    System.BURSTEIN: _burstein,
    System.MACMAHON: _macmahon,
    System.GOPAIR: _gopair,
    System.KNOCKOUT: _knockout,
}

# Swiss means a different engine in each game's tradition.
SWISS_BY_GAME: dict[Game, Engine] = {
    Game.CHESS: chess_swiss.dutch_engine,
    Game.GO: _macmahon,
    Game.CARROM: _sol,
    Game.OTHELLO: _othello,
}


# Carrom is paired as SoL pairs it, whatever the system.
BY_GAME: dict[Game, dict[System, Engine]] = {
    Game.CARROM: {System.SWISS: _sol, System.ROUNDROBIN: _sol, System.KNOCKOUT: _sol},
}


def pair_next_round(
    state: TournamentState, round_no: int, notes: Notes = None, bye: int | None = None
) -> list[Board]:
    """Boards of round `round_no`; with `notes`, each engine says why, board by board.

    ``bye``: the player the director gives the bye of an odd field (gopair's ``-bye``).
    """
    engine = BY_GAME.get(state.game, {}).get(state.system)
    if engine is None and state.system is System.SWISS:
        engine = SWISS_BY_GAME.get(state.game)
    elif engine is None:
        engine = ENGINES.get(state.system)
    if engine is None:
        raise PairingUnavailable(f"no pairing engine for system '{state.system.value}' yet")
    if bye is not None:
        if engine is not _gopair:
            raise PairingUnavailable(
                "--bye chooses the bye of a gopair round; other systems choose it by their rules"
            )
        return _gopair(state, round_no, notes, bye)
    return engine(state, round_no, notes)
