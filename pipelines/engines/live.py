"""Adapters from the live tournament state to the engines' inputs: the FIDE Swiss systems,
round robin, knockout and othello (go: `live_go`, carrom: `live_carrom`).

Engines keep plain inputs of their own (TRF-like histories for Swiss chess, OpenGotha-like
records for go); these functions are the only place that knows both sides. Each adapter
returns a `Prepared` request: the engine's input and params, and how its boards read back.
"""

from __future__ import annotations

import hashlib

from decide.state import Pairing, TournamentState
from events.domain import Colour, Outcome
from events.errors import UserError
from events.result_codes import ResultCode
from pairing.knockout import KnockoutGame, KnockoutRequest
from pairing.othello import OthelloGame, OthelloInput, OthelloPlayer, discs_of_result
from pairing.roundrobin import RoundRobinError, RoundRobinRequest, rounds_per_cycle
from pairing.swiss.acceleration import baku
from pairing.swiss.colour import infer_initial_colour
from pairing.swiss.model import HistoryEntry, Scoring, SwissInput, SwissPlayer
from pipelines.engines.adapters import Prepared

__all__ = [
    "MissingResult",
    "knockout",
    "othello",
    "round_robin",
    "stable_seed",
    "swiss",
    "swiss_input",
]


class MissingResult(UserError):
    """A round the engine must read has a board without a result yet."""


def _code(p: Pairing) -> ResultCode:
    if p.bye is not None:
        return ResultCode.for_bye(p.bye)
    if p.outcome is None or p.outcome is Outcome.UNKNOWN:
        raise MissingResult(f"round {p.round} board {p.board} has no result yet")
    return ResultCode.for_outcome(p.outcome, white=p.colour is Colour.WHITE)


def swiss_input(state: TournamentState, round_no: int) -> tuple[SwissInput, dict[int, int]]:
    """The Swiss input to pair `round_no`, and the map pairing number -> player id."""
    ranks = state.start_ranks()
    by_number = {n: pid for pid, n in ranks.items()}
    players = []
    for number in sorted(by_number):
        pid = by_number[number]
        history = []
        for p in state.pairings(pid, round_no - 1):
            colour = p.colour or Colour.NONE
            opponent = ranks[p.opponent] if p.opponent is not None else None
            history.append(HistoryEntry(opponent=opponent, colour=colour, result=_code(p)))
        players.append(
            SwissPlayer(
                number=number, rating=state.players[pid].rating or 0, history=tuple(history)
            )
        )
    if state.settings.pairing_params.chess.acceleration == "baku":
        players = baku(players, Scoring.of(state.scoring), state.total_rounds, round_no - 1)
    absent = {ranks[pid] for pid in state.byes.get(round_no, {})}
    absent |= {ranks[pid] for pid, p in state.players.items() if not p.active_in(round_no)}
    stated = state.settings.pairing_params.chess.initial_colour
    # an imported event that did not state it: read it back from round 1
    initial = stated if stated is not None else infer_initial_colour(players)
    swiss = SwissInput(
        players=tuple(players),
        rounds_played=round_no - 1,
        total_rounds=state.total_rounds,
        initial_colour=initial,
        scoring=Scoring.of(state.scoring),
        absent=frozenset(absent),
        forbidden=tuple(
            frozenset(ranks[pid] for pid in pair)
            for pair, first in sorted(state.forbidden.items(), key=lambda kv: sorted(kv[0]))
            if first <= round_no and all(pid in ranks for pid in pair)
        ),
    )
    return swiss, by_number


def swiss(state: TournamentState, round_no: int) -> Prepared[SwissInput, None]:
    """The FIDE Swiss systems (Dutch, Burstein, Dubov): players by pairing number."""
    request, by_number = swiss_input(state, round_no)
    return Prepared(request, None, players=by_number)


def round_robin(state: TournamentState, round_no: int) -> Prepared[RoundRobinRequest, None]:
    """Players by pairing number; the tournament must have a cycle's rounds (per cycle)."""
    ranks = state.start_ranks()
    ordered = sorted(state.players, key=ranks.__getitem__)
    per_cycle = rounds_per_cycle(len(ordered))
    if state.settings.rounds != per_cycle:
        raise RoundRobinError.naming(
            f"a round robin of {len(ordered)} players has {per_cycle} rounds per cycle, "
            f"but the tournament was created with {{0}} {state.settings.rounds}",
            "rounds",
        )
    return Prepared(RoundRobinRequest(tuple(ordered), round_no, state.settings.cycles), None)


def knockout(state: TournamentState, round_no: int) -> Prepared[KnockoutRequest, None]:
    """Round 1: the players of round 1 in seed order; later: the round before, scored."""
    if round_no == 1:
        ranks = state.start_ranks()
        active = [pid for pid, p in state.players.items() if p.active_in(1)]
        return Prepared(
            KnockoutRequest(1, seeded=tuple(sorted(active, key=ranks.__getitem__))), None
        )
    previous = tuple(
        KnockoutGame(
            b.board, b.white, b.black, state.scoring.for_game(b.outcome) if b.outcome else None
        )
        for b in state.rounds[round_no - 1].boards
    )
    return Prepared(KnockoutRequest(round_no, previous=previous), None)


def othello(state: TournamentState, round_no: int) -> Prepared[OthelloInput, None]:
    """Every game with its discs (a result without them: `discs_of_result`)."""
    del round_no  # the next round: the engine pairs after the last game
    games = []
    for r, rnd in sorted(state.rounds.items()):
        for b in rnd.boards:
            if b.black is None:
                games.append(OthelloGame(round=r, black=b.white, white=None, black_discs=32))
                continue
            w, k = b.white_score, b.black_score
            if w is None or k is None:
                w, k = discs_of_result(
                    *(state.scoring.for_game(b.outcome or Outcome.UNKNOWN) or (0.0, 0.0))
                )
            games.append(
                OthelloGame(
                    round=r, black=b.black, white=b.white, black_discs=int(k), white_discs=int(w)
                )
            )
    players = tuple(
        OthelloPlayer(id=pid, rating=p.rating or 0) for pid, p in sorted(state.players.items())
    )
    return Prepared(OthelloInput(players=players, games=tuple(games)), None)


def stable_seed(state: TournamentState, round_no: int) -> int:
    """A seed fixed by the tournament and round, so a re-pair after undo draws the same lots."""
    digest = hashlib.sha256(f"{state.id}:{round_no}".encode()).digest()
    return int.from_bytes(digest[:4], "big")
