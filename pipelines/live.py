"""Adapters from the live tournament state to each engine's own input model, and back.

Engines keep plain inputs of their own (TRF-like histories for Swiss chess, OpenGotha-like
records for go); these functions are the only place that knows both sides.
"""

from __future__ import annotations

import hashlib
from decimal import Decimal

from pydantic import ValidationError

from events.domain import Board, ByeKind, Colour, Outcome, System
from events.errors import UserError
from events.go import parse_rank
from events.result_codes import ResultCode
from pairing.gopair.model import (
    GopairGame,
    GopairInput,
    GopairParams,
    GopairPlayer,
    GopairRound,
    HandicapMode,
)
from pairing.macmahon import GoBye, GoGame, GoPlayer, GoResult, GoTournament, MacMahonParams
from pairing.othello import OthelloGame, OthelloInput, OthelloPlayer
from pairing.sol.model import (
    SolCompetitor,
    SolMatch,
    SolParams,
    SolRound,
    SolSystem,
    SolTourney,
)
from pairing.swiss.model import (
    HistoryEntry,
    Scoring,
    SwissInput,
    SwissPlayer,
    SwissRound,
)
from pipelines.swiss_from_trf import infer_initial_colour
from projections.state import BoardState, Pairing, TournamentState


class MissingResult(UserError):
    """A round the engine must read has a board without a result yet."""


class MissingRank(UserError):
    """A go engine needs every player's rank and one has none."""


def _code(p: Pairing) -> ResultCode:
    if p.bye is not None:
        return ResultCode.for_bye(p.bye)
    if p.outcome is None or p.outcome is Outcome.UNKNOWN:
        raise MissingResult(f"round {p.round} board {p.board} has no result yet")
    return ResultCode.for_outcome(p.outcome, white=p.colour is Colour.WHITE)


def _decimal(x: float) -> Decimal:
    return Decimal(str(x))


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
    absent = {ranks[pid] for pid in state.byes.get(round_no, {})}
    absent |= {ranks[pid] for pid, p in state.players.items() if not p.active_in(round_no)}
    s = state.scoring
    stated = state.settings.pairing_params.chess.initial_colour
    # an imported event that did not state it: read it back from round 1
    initial = stated if stated is not None else infer_initial_colour(players)
    swiss = SwissInput(
        players=tuple(players),
        rounds_played=round_no - 1,
        total_rounds=state.total_rounds,
        initial_colour=initial,
        scoring=Scoring(
            win=_decimal(s.win),
            draw=_decimal(s.draw),
            loss=_decimal(s.loss),
            zero_bye=_decimal(s.zero_bye),
            forfeit_loss=_decimal(s.forfeit_loss),
            pab=_decimal(s.for_bye(ByeKind.PAIRING)),
        ),
        absent=frozenset(absent),
        forbidden=tuple(
            frozenset(ranks[pid] for pid in pair)
            for pair, first in sorted(state.forbidden.items(), key=lambda kv: sorted(kv[0]))
            if first <= round_no and all(pid in ranks for pid in pair)
        ),
    )
    return swiss, by_number


def swiss_boards(result: SwissRound, by_number: dict[int, int]) -> list[Board]:
    boards = [
        Board(board=i, white=by_number[w], black=by_number[b])
        for i, (w, b) in enumerate(result.boards, start=1)
    ]
    if result.pab is not None:
        boards.append(Board(board=len(boards) + 1, white=by_number[result.pab], black=None))
    return boards


def go_tournament(state: TournamentState) -> GoTournament:
    players = []
    for pid, p in sorted(state.players.items()):
        if p.rank is None:
            raise MissingRank(f"player {pid} ({p.name}) has no go rank; register with --rank")
        participating = tuple(
            p.active_in(r) and pid not in state.byes.get(r, {})
            for r in range(1, state.total_rounds + 1)
        )
        # OpenGotha's deterministic colour draw reads surname and first name apart.
        surname, _, first_name = p.name.partition(", ")
        players.append(
            GoPlayer(
                key=str(pid),
                name=surname,
                first_name=first_name,
                rank=parse_rank(p.rank),
                rating=p.rating or 0,
                club=p.club or "",
                country=p.federation or "",
                participating=participating,
            )
        )
    games = []
    byes = []
    for r, rnd in sorted(state.rounds.items()):
        for b in rnd.boards:
            if b.black is None:
                byes.append(GoBye(round=r, player=str(b.white)))
                continue
            result, by_default = GoResult.of(b.outcome or Outcome.UNKNOWN)
            games.append(
                GoGame(
                    round=r,
                    white=str(b.white),
                    black=str(b.black),
                    handicap=b.handicap,
                    result=result,
                    by_default=by_default,
                )
            )
    return GoTournament(
        number_of_rounds=state.total_rounds,
        players=tuple(players),
        games=tuple(games),
        byes=tuple(byes),
    )


def go_params(state: TournamentState, swiss: bool) -> MacMahonParams:
    """The Mac-Mahon engine's parameters from the tournament's go settings.

    :raises UserError: settings the engine refuses (a floor above the bar ...).
    """
    raw = state.settings.pairing_params.go.macmahon()
    try:
        if swiss:
            return MacMahonParams.swiss(number_of_rounds=state.total_rounds, **raw)
        return MacMahonParams.model_validate({**raw, "number_of_rounds": state.total_rounds})
    except ValidationError as exc:
        raise UserError.from_validation(exc, "go pairing parameters") from None


def sol_draw_seed(state: TournamentState, round_no: int) -> int:
    """The seed of SoL's random draw of a round: ``--draw-seed`` * 1000 + round, else fixed
    by the tournament's id."""
    seed = state.settings.pairing_params.carrom.draw_seed
    return stable_seed(state, round_no) if seed is None else seed * 1000 + round_no


def stable_seed(state: TournamentState, round_no: int) -> int:
    """A seed fixed by the tournament and round, so a re-pair after undo draws the same lots."""
    digest = hashlib.sha256(f"{state.id}:{round_no}".encode()).digest()
    return int.from_bytes(digest[:4], "big")


def _scores(b: BoardState, scoring_win: int) -> tuple[int, int]:
    """Carrom points of a board; a bare outcome counts as a 1-0 (or 0-0) score."""
    if b.white_score is not None and b.black_score is not None:
        return int(b.white_score), int(b.black_score)
    outcome = b.outcome or Outcome.UNKNOWN
    if outcome in {Outcome.WHITE_WINS, Outcome.WHITE_WINS_FORFEIT}:
        return scoring_win, 0
    if outcome in {Outcome.BLACK_WINS, Outcome.BLACK_WINS_FORFEIT}:
        return 0, scoring_win
    return 0, 0


_SOL_SYSTEMS = {
    System.SWISS: SolSystem.SWISS,
    System.ROUNDROBIN: SolSystem.ROUNDROBIN,
    System.KNOCKOUT: SolSystem.KNOCKOUT,
}


def sol_tourney(state: TournamentState) -> tuple[SolTourney, SolParams]:
    """SoL's tourney: seed positions are the players' ``--seed`` (0, SoL's "none", else)."""
    settings = state.settings.pairing_params.carrom
    system = _SOL_SYSTEMS.get(state.system)
    if system is None:
        raise UserError(
            f"carrom has no '{state.system.value}' system (swiss, roundrobin, knockout)"
        )
    competitors = tuple(
        SolCompetitor(
            id=pid,
            # SoL sorts by (last name, first name)
            name=p.name.replace(",", ""),
            nationality=p.federation or "",
            rate=p.rating,
            position=p.pairing_number or 0,
            retired=p.withdrawn_from is not None and p.withdrawn_from <= state.last_round + 1,
        )
        for pid, p in sorted(state.players.items())
    )
    phantom = 25 if settings.phantomscore is None else settings.phantomscore
    matches = []
    for r, rnd in sorted(state.rounds.items()):
        for b in rnd.boards:
            s1, s2 = (phantom, 0) if b.black is None else _scores(b, phantom)
            matches.append(
                SolMatch(
                    round=r,
                    board=b.board,
                    competitor1=b.white,
                    competitor2=b.black,
                    score1=s1,
                    score2=s2,
                )
            )
    try:
        sol_params = SolParams.model_validate(
            {
                "system": system,
                # A round robin defaults to the circle method: it always completes, while
                # SoL's greedy `seeds` can run out of pairings before the last round (SoL's
                # own rr_seeds_6 run stops at round 4).
                "couplings": {SolSystem.SWISS: "serial", SolSystem.ROUNDROBIN: "circle"}.get(
                    system, "seeds"
                ),
                "rated": any(p.rating for p in state.players.values()),
                **settings.model_dump(exclude_none=True, exclude={"draw_seed"}),
            }
        )
    except ValidationError as exc:
        raise UserError.from_validation(exc, "carrom pairing parameters") from None
    return SolTourney(competitors=competitors, matches=tuple(matches)), sol_params


def sol_boards(result: SolRound) -> list[Board]:
    return [
        Board(board=i, white=p.competitor1, black=p.competitor2)
        for i, p in enumerate(result.by_board(), start=1)
    ]


def _aga_rating(rank: str | None, pid: int, aga: float | None = None) -> Decimal:
    """The player's AGA rating, else one from the go rank: 3d -> 3.5, 5k -> -5.5."""
    if aga is not None:
        return Decimal(str(aga))
    if rank is None:
        raise MissingRank(
            f"player {pid} has no go rank or AGA rating; register with --rank or --aga-rating"
        )
    value = parse_rank(rank)
    return Decimal(value + 1) + Decimal("0.5") if value >= 0 else Decimal(value) - Decimal("0.5")


def gopair_input(state: TournamentState, round_no: int, bye: int | None = None) -> GopairInput:
    """gopair's input; ``bye``: the player the director gives the bye (gopair's ``-bye``)."""
    players = tuple(
        GopairPlayer(id=pid, rating=_aga_rating(p.rank, pid, p.aga_rating), club=p.club or "")
        for pid, p in sorted(state.players.items())
    )
    games = []
    for r, rnd in sorted(state.rounds.items()):
        for b in rnd.boards:
            if b.black is None or b.outcome is None or b.outcome.is_forfeit:
                continue
            winner = {Outcome.WHITE_WINS: b.white, Outcome.BLACK_WINS: b.black}.get(b.outcome)
            games.append(GopairGame(round=r, white=b.white, black=b.black, winner=winner))
    drops = {pid for pid, p in state.players.items() if not p.active_in(round_no)}
    drops |= set(state.byes.get(round_no, {}))
    return GopairInput(
        players=players,
        games=tuple(games),
        rounds=state.total_rounds,
        round=round_no,
        bye=bye,
        drops=frozenset(drops),
    )


def gopair_params(state: TournamentState, round_no: int) -> GopairParams:
    go = state.settings.pairing_params.go
    return GopairParams(
        handicaps=HandicapMode.MIN if go.gopair_handicaps == "min" else HandicapMode.MAX,
        early_adjustment=go.gopair_early_adjustment is not False,
        bye_seed=stable_seed(state, round_no),
    )


def gopair_boards(result: GopairRound) -> list[Board]:
    boards = [
        Board(board=i, white=b.white, black=b.black, handicap=b.handicap, komi=b.komi + 0.5)
        for i, b in enumerate(result.boards, start=1)
    ]
    if result.bye is not None:
        boards.append(Board(board=len(boards) + 1, white=result.bye, black=None))
    return boards


def othello_input(state: TournamentState) -> OthelloInput:
    games = []
    for r, rnd in sorted(state.rounds.items()):
        for b in rnd.boards:
            if b.black is None:
                games.append(OthelloGame(round=r, black=b.white, white=None, black_discs=32))
                continue
            w, k = b.white_score, b.black_score
            if w is None or k is None:
                pts = state.scoring.for_game(b.outcome or Outcome.UNKNOWN) or (0.0, 0.0)
                w, k = (
                    (64.0, 0.0)
                    if pts[0] > pts[1]
                    else (0.0, 64.0)
                    if pts[1] > pts[0]
                    else (
                        32.0,
                        32.0,
                    )
                )
            games.append(
                OthelloGame(
                    round=r, black=b.black, white=b.white, black_discs=int(k), white_discs=int(w)
                )
            )
    return OthelloInput(
        players=tuple(
            OthelloPlayer(id=pid, rating=p.rating or 0) for pid, p in sorted(state.players.items())
        ),
        games=tuple(games),
    )
