"""One rating list of any method: which games it reads, its parameters, its computation.

A list is of one kind (:class:`ListKind`): its method, the one game it rates and, for FIDE,
the rating type. WOF rates othello only, FIDE chess only (each rating type its own list),
EGF go only, Glicko-2 one game at a time; a list never mixes games. :func:`compute_list` is
the single entry the rating-list job calls: the games of the kind, one person per player
(:mod:`ratings.identity`), then the method's pure function with the parameters in
:class:`ListParams` (each a frozen model whose defaults are the federation's).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace

import polars as pl
from pydantic import BaseModel, ConfigDict, Field, JsonValue

from events.errors import UserError, braced
from ratings.egf import LIST_START_GRADE, EgfParams, egf_list, rating_from_grade
from ratings.fide import FideParams
from ratings.fide_run import history_list
from ratings.games import GameKind
from ratings.glicko2 import Glicko2ListParams, glicko2_list
from ratings.identity import REPORT_SCHEMA, people
from ratings.listing import ActivityParams
from ratings.methods import Method, RatingType
from ratings.wof import WofParams, fit_wof

__all__ = [
    "METHOD_GAME",
    "ComputedList",
    "ListKind",
    "ListParams",
    "ListRequestError",
    "compute_list",
    "list_kind",
    "method_games",
]

METHOD_GAME: Mapping[Method, GameKind | None] = {
    Method.WOF: GameKind.OTHELLO,
    Method.FIDE: GameKind.CHESS,
    Method.EGF: GameKind.GO,
    Method.GLICKO2: None,
}
"""The game a method rates (None: any one game, named by the request)."""


class ListRequestError(UserError):
    """A list that cannot be made as asked (a game the method does not rate, ...)."""


class ListKind(BaseModel):
    """Which list: the method, the game it rates, and FIDE's rating type."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    method: Method
    game: GameKind | None
    """None only for a Glicko-2 list of a log without any game."""
    rating_type: RatingType | None = None
    """FIDE only: standard, rapid or blitz."""

    @property
    def name(self) -> str:
        """``wof``, ``egf``, ``fide`` (standard), ``fide-rapid``, ``glicko2-go``: the list's
        publication stream is ``ratinglist-<name>``, and its diffs compare lists of one name."""
        if self.rating_type not in (None, RatingType.STANDARD):
            return f"{self.method.value}-{self.rating_type}"
        if self.method is Method.GLICKO2 and self.game is not None:
            return f"{self.method.value}-{self.game.value}"
        return self.method.value

    @property
    def title(self) -> str:
        """``FIDE rapid``, ``GLICKO2 go``, ``WOF``."""
        words = [self.method.value.upper()]
        if self.rating_type is not None:
            words.append(self.rating_type.value)
        if self.method is Method.GLICKO2 and self.game is not None:
            words.append(self.game.value)
        return " ".join(words)


def list_kind(
    method: Method,
    game: GameKind | None = None,
    rating_type: RatingType | None = None,
    games_present: Iterable[str] = (),
) -> ListKind:
    """The list a request asks for; ``games_present``: the games the log has results of
    (a Glicko-2 request without a game takes the only one).

    :raises ListRequestError: a game the method does not rate, a rating type outside FIDE, or
        a Glicko-2 list without a game over a log of several games.
    """
    own = METHOD_GAME[method]
    if own is not None and game is not None and game is not own:
        raise ListRequestError.naming(
            "{0}: "
            + braced(f"the {method.value} list rates {own.value} only, found '{game.value}'"),
            "game",
        )
    if rating_type is not None and method is not Method.FIDE:
        raise ListRequestError.naming(
            "{0}: "
            + braced(
                f"FIDE lists only have rating types, found '{rating_type.value}' "
                f"for a {method.value} list"
            ),
            "rating_type",
        )
    if method is Method.FIDE:
        rating_type = rating_type or RatingType.STANDARD
    chosen = own or game
    if chosen is None:
        present = sorted(set(games_present))
        if len(present) > 1:
            raise ListRequestError.naming(
                "{0}: "
                + braced(
                    f"a {method.value} list rates one game; the log has results of "
                    f"{', '.join(present)}: give "
                )
                + "{0} "
                + braced("|".join(present)),
                "game",
            )
        chosen = GameKind(present[0]) if present else None
    return ListKind(method=method, game=chosen, rating_type=rating_type)


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
    people: pl.DataFrame = field(default_factory=lambda: pl.DataFrame(schema=REPORT_SCHEMA))
    """Players without a federation id merged or left apart (:mod:`ratings.identity`)."""


def method_games(games: pl.DataFrame, kind: ListKind) -> pl.DataFrame:
    """The rows of ``games`` a list of ``kind`` reads: its game's, and for FIDE its rating
    type's (a tournament that states none is standard; so is a table without the
    ``rating_type`` column)."""
    if kind.game is None:
        return games.clear()
    selected = pl.col("game") == kind.game.value
    if kind.rating_type is not None:
        stated = (
            pl.col("rating_type").fill_null(RatingType.STANDARD.value)
            if "rating_type" in games.columns
            else pl.lit(RatingType.STANDARD.value)
        )
        selected &= stated == kind.rating_type.value
    return games.filter(selected)


def _wof(games: pl.DataFrame, _: pl.DataFrame, as_of: dt.date, p: ListParams) -> ComputedList:
    fit = fit_wof(games, as_of, p.wof)
    return ComputedList(fit.listing, {"wof": p.wof.model_dump(mode="json")})


def _fide(
    games: pl.DataFrame, players: pl.DataFrame, as_of: dt.date, p: ListParams
) -> ComputedList:
    listing = history_list(games, players, as_of, p.fide, p.activity)
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
    kind: ListKind,
    games: pl.DataFrame,
    players: pl.DataFrame,
    as_of: dt.date,
    params: ListParams | None = None,
) -> ComputedList:
    """The list of ``kind`` as of a date from the games table (all games: the kind's are
    taken, :func:`method_games`) and ``players`` (names, birth years, and the ratings and
    grades the registrations gave). The list's players are those of its games; the ones
    without a federation id are placed by :func:`ratings.identity.people`."""
    mine = method_games(games, kind)
    ids = pl.concat([mine.get_column("player_a"), mine.get_column("player_b")]).unique()
    population = players.filter(pl.col("player_id").is_in(ids.implode()))
    placed = people(mine, population)
    computed = _METHODS[kind.method](
        placed.games(mine), placed.players(population), as_of, params or ListParams()
    )
    parameters = dict(computed.parameters)
    if kind.rating_type is not None:
        parameters["rating_type"] = kind.rating_type.value
    return replace(computed, parameters=parameters, people=placed.report)
