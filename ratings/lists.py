"""One rating list of any method: which games it reads, its parameters, its computation.

:func:`compute_list` is the single entry the rating-list job calls: the method's pure
function over the games table and the players table, with the parameters in
:class:`ListParams` (each a frozen model whose defaults are the federation's).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping
from dataclasses import dataclass

import polars as pl
from pydantic import BaseModel, ConfigDict, Field, JsonValue

from ratings.egf import LIST_START_GRADE, EgfParams, egf_list, rating_from_grade
from ratings.fide import FideParams, fide_list
from ratings.games import GameKind
from ratings.glicko2 import Glicko2ListParams, glicko2_list
from ratings.listing import ActivityParams
from ratings.methods import Method
from ratings.wof import WofParams, fit_wof

__all__ = ["METHOD_GAME", "ComputedList", "ListParams", "compute_list", "method_games"]

METHOD_GAME: Mapping[Method, GameKind | None] = {
    Method.WOF: GameKind.OTHELLO,
    Method.FIDE: GameKind.CHESS,
    Method.EGF: GameKind.GO,
    Method.GLICKO2: None,
}
"""The games a method rates unless told otherwise (None: every game in the table)."""


def _egf_default() -> EgfParams:
    return EgfParams(start_rating=rating_from_grade(LIST_START_GRADE))


class ListParams(BaseModel):
    """The parameters of every method's list; a run uses its method's."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    wof: WofParams = WofParams()
    """WOF: the federation's model (ratings.md §1.2)."""
    fide: FideParams = FideParams()
    """FIDE: the 2024 regulations with the 2025 amendment."""
    egf: EgfParams = Field(default_factory=_egf_default)
    """EGF: the 2021 formula; a player with neither rating nor grade starts at 20k."""
    glicko2: Glicko2ListParams = Glicko2ListParams()
    """Glicko-2: Glickman's constants, monthly periods, official below deviation 110."""
    activity: ActivityParams = ActivityParams()
    """FIDE, EGF and Glicko-2: active with a rated game in the last twelve months."""


@dataclass(frozen=True)
class ComputedList:
    listing: pl.DataFrame
    """rank, player_id, rating, margin, games, official, provisional_reason (float ratings)."""
    parameters: dict[str, JsonValue]
    """What the list was computed with, as published with it."""


def method_games(games: pl.DataFrame, game: GameKind | None) -> pl.DataFrame:
    """The rows of ``games`` a list of ``game`` reads (None: all of them)."""
    return games if game is None else games.filter(pl.col("game") == game.value)


def _wof(games: pl.DataFrame, _: pl.DataFrame, as_of: dt.date, p: ListParams) -> ComputedList:
    fit = fit_wof(games, as_of, p.wof)
    return ComputedList(fit.listing, {"wof": p.wof.model_dump(mode="json")})


def _fide(
    games: pl.DataFrame, players: pl.DataFrame, as_of: dt.date, p: ListParams
) -> ComputedList:
    listing = fide_list(games, players, as_of, p.fide, p.activity)
    return ComputedList(listing, {"fide": p.fide.model_dump(mode="json")})


def _egf(games: pl.DataFrame, players: pl.DataFrame, as_of: dt.date, p: ListParams) -> ComputedList:
    listing = egf_list(games, players, as_of, p.egf, p.activity)
    return ComputedList(listing, {"egf": p.egf.model_dump(mode="json")})


def _glicko2(games: pl.DataFrame, _: pl.DataFrame, as_of: dt.date, p: ListParams) -> ComputedList:
    listing = glicko2_list(games, as_of, p.glicko2, p.activity)
    return ComputedList(
        listing,
        {
            "glicko2": p.glicko2.glicko2.model_dump(mode="json"),
            "period_months": p.glicko2.period_months,
        },
    )


_METHODS: Mapping[
    Method, Callable[[pl.DataFrame, pl.DataFrame, dt.date, ListParams], ComputedList]
] = {
    Method.WOF: _wof,
    Method.FIDE: _fide,
    Method.EGF: _egf,
    Method.GLICKO2: _glicko2,
}


def compute_list(
    method: Method,
    games: pl.DataFrame,
    players: pl.DataFrame,
    as_of: dt.date,
    params: ListParams | None = None,
) -> ComputedList:
    """The list of ``method`` as of a date from ``games`` (already the method's games, see
    :func:`method_games`) and ``players`` (ratings and grades the registrations gave)."""
    return _METHODS[method](games, players, as_of, params or ListParams())
