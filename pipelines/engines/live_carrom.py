"""The adapter from the live state of a carrom tournament to SoL's engine (`pairing.sol`):
SoL pairs carrom whatever the system (Swiss, round robin, knockout)."""

from __future__ import annotations

from pydantic import ValidationError

from decide.state import BoardState, TournamentState
from events.domain import Outcome, System
from events.errors import UserError
from pairing.sol.model import SolCompetitor, SolMatch, SolParams, SolSystem, SolTourney
from pairing.sol.round import SolRequest
from pipelines.engines.adapters import Prepared
from pipelines.engines.live import stable_seed

__all__ = ["sol", "sol_draw_seed", "sol_tourney"]


def sol(state: TournamentState, round_no: int) -> Prepared[SolRequest, SolParams]:
    """SoL's tourney and parameters, and the seed of the round's random draw."""
    tourney, params = sol_tourney(state)
    return Prepared(SolRequest(tourney, sol_draw_seed(state, round_no)), params)


def sol_draw_seed(state: TournamentState, round_no: int) -> int:
    """The seed of SoL's random draw of a round: ``--draw-seed`` * 1000 + round, else fixed
    by the tournament's id."""
    seed = state.settings.pairing_params.carrom.draw_seed
    return stable_seed(state, round_no) if seed is None else seed * 1000 + round_no


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
