"""Adapters from the live state of a go tournament to its engines: Mac-Mahon and OpenGotha's
Swiss (`pairing.macmahon`), and gopair (`pairing.gopair`)."""

from __future__ import annotations

from decimal import Decimal

from pydantic import ValidationError

from decide.base import numbered
from decide.state import TournamentState
from events.domain import Outcome
from events.errors import UserError
from events.go import parse_rank
from pairing.gopair.model import (
    GopairGame,
    GopairInput,
    GopairParams,
    GopairPlayer,
    HandicapMode,
    rating_of_rank,
)
from pairing.macmahon import GoBye, GoGame, GoPlayer, GoResult, GoTournament, MacMahonParams
from pairing.macmahon.round import MacMahonRequest
from pipelines.engines.adapters import Prepared
from pipelines.engines.live import stable_seed

__all__ = [
    "MissingRank",
    "go_params",
    "go_swiss",
    "go_tournament",
    "gopair",
    "gopair_input",
    "gopair_params",
    "gopair_with_bye",
    "macmahon",
]


class MissingRank(UserError):
    """A go engine needs every player's rank and one has none."""


def go_tournament(state: TournamentState) -> GoTournament:
    """OpenGotha's records of the tournament: a player's key is his id, as text."""
    players = []
    for pid, p in sorted(state.players.items()):
        if p.rank is None:
            raise MissingRank(f"player {numbered(state, pid)} has no go rank; register with --rank")
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


def macmahon(state: TournamentState, round_no: int) -> Prepared[MacMahonRequest, MacMahonParams]:
    """Mac-Mahon; the tournament's komi on every game (`GoSettings.komi_for`)."""
    return _opengotha(state, round_no, swiss=False)


def go_swiss(state: TournamentState, round_no: int) -> Prepared[MacMahonRequest, MacMahonParams]:
    """OpenGotha's Swiss (Mac-Mahon with the Swiss parameters); the tournament's komi."""
    return _opengotha(state, round_no, swiss=True)


def _opengotha(
    state: TournamentState, round_no: int, *, swiss: bool
) -> Prepared[MacMahonRequest, MacMahonParams]:
    tournament = go_tournament(state)
    return Prepared(
        MacMahonRequest(tournament, round_no),
        go_params(state, swiss),
        players={i: int(p.key) for i, p in enumerate(tournament.players, start=1)},
        go=state.settings.pairing_params.go,
    )


def _aga_rating(state: TournamentState, pid: int) -> Decimal:
    """The player's AGA rating, else one from his go rank (`rating_of_rank`)."""
    p = state.players[pid]
    if p.aga_rating is not None:
        return Decimal(str(p.aga_rating))
    if p.rank is None:
        raise MissingRank(
            f"player {numbered(state, pid)} has no go rank or AGA rating; register with "
            "--rank or --aga-rating"
        )
    return rating_of_rank(parse_rank(p.rank))


def gopair_input(state: TournamentState, round_no: int, bye: int | None = None) -> GopairInput:
    """gopair's input; ``bye``: the player the director gives the bye (gopair's ``-bye``)."""
    players = tuple(
        GopairPlayer(id=pid, rating=_aga_rating(state, pid), club=p.club or "")
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


def gopair(state: TournamentState, round_no: int) -> Prepared[GopairInput, GopairParams]:
    """gopair, the bye chosen by its rules."""
    return gopair_with_bye(state, round_no, None)


def gopair_with_bye(
    state: TournamentState, round_no: int, bye: int | None
) -> Prepared[GopairInput, GopairParams]:
    """gopair; ``bye``: the player the director gives the bye (gopair's ``-bye``)."""
    params = gopair_params(state, round_no)
    return Prepared(gopair_input(state, round_no, bye), params)
