"""FIDE's rating regulations effective 1 March 2024 (with the 2025 amendment to 8.3.1): the
constants and the K rule. The arithmetic itself (tables 8.1.1/8.1.2, K·Σ(W − We) in exact
hundredths, rounding, the initial rating, the March 2024 adjustment) is written once, in
:mod:`ratings.fide_run`; every FIDE view reads it there. ``docs/fide_ratings.md`` lists the
articles followed.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["MARCH_2024", "FideParams", "PendingGame", "PlayerState", "k_factor"]


class FideParams(BaseModel):
    """FIDE rating-regulation constants (1 March 2024 text, 1 October 2025 amendment)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    version: str = "fide-2024-03+2025-10"
    floor: int = 1400
    """7.1.2, 7.2.1: ratings below this are not published (the player is unrated)."""
    difference_cap: int = Field(default=400, gt=0)
    """Rule 8.3.1: a larger difference counts as this much …"""
    uncapped_from: int | None = 2650
    """… except for players rated at least this (None: the cap applies to everyone)."""
    uncapped_since: dt.date = dt.date(2025, 10, 1)
    """Periods starting before this date apply the cap to everyone."""
    k_new: int = 40
    new_player_games: int = 30
    """K = k_new until this many games are completed."""
    k_junior: int = 40
    junior_last_age: int = 18
    """Juniors keep k_junior until the end of the year they turn this old …"""
    junior_below: int = 2300
    """… while rated below this."""
    k_standard: int = 20
    k_top: int = 10
    top_from: int = 2400
    """K = k_top once a published rating has reached this, permanently."""
    k_games_cap: int = 700
    """If n·K exceeds this in one period, K becomes the largest integer with n·K ≤ cap."""
    initial_min_games: int = 5
    pooling_months: int = 26
    """An unrated player's results from periods within this many months are pooled."""
    initial_max: int = 2200
    hypothetical_opponents: int = 2
    hypothetical_rating: int = 1800


MARCH_2024 = dt.date(2024, 3, 1)
"""The day of the one-time adjustment and of the initial-rating rule in force since."""


@dataclass(frozen=True)
class PlayerState:
    """What the K rule needs to know about a player at the start of a period."""

    rating: int | None
    games: int = 0
    """Rated games completed before the period."""
    birth_year: int | None = None
    reached_top: bool = False
    """A published rating has reached ``top_from`` at some point."""


@dataclass(frozen=True)
class PendingGame:
    """An unrated player's result against a rated opponent, kept for pooling (7.1.4)."""

    period_start: dt.date
    opponent_rating: int
    halves: int
    """The score in half points (0, 1, 2)."""


def k_factor(
    player: PlayerState, period_start: dt.date, games_in_period: int, p: FideParams
) -> int:
    """Rule 8.3.3: the development coefficient for this period.

    >>> k_factor(PlayerState(2100, games=50), dt.date(2024, 3, 1), 9, FideParams())
    20
    >>> k_factor(PlayerState(2100, games=50), dt.date(2024, 3, 1), 40, FideParams())
    17
    """
    rating = player.rating if player.rating is not None else 0
    junior = (
        player.birth_year is not None
        and period_start.year - player.birth_year <= p.junior_last_age
        and rating < p.junior_below
    )
    if player.reached_top or rating >= p.top_from:
        k = p.k_top
    elif player.games < p.new_player_games:
        k = p.k_new
    elif junior:
        k = p.k_junior
    else:
        k = p.k_standard
    if games_in_period > 0 and k * games_in_period > p.k_games_cap:
        k = p.k_games_cap // games_in_period
    return k
