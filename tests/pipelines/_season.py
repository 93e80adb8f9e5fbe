"""Generated othello seasons written straight into a store, for the ratings pipeline tests.

Players have WOF ids ``1..n`` and fixed strengths; every tournament is a round robin of a
random subset, dated on its start date, with results drawn from the WOF model's odds. Seeded,
so a season is the same on every run.
"""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass

from events.domain import Board, Game, Outcome, System
from events.schema import (
    EventBase,
    PlayerRegistered,
    ResultRecorded,
    RoundPaired,
    TournamentCreated,
)
from events.store import NewEvent, Store

COUNTRIES = ("FRA", "JPN", "NED", "USA", "GBR")


@dataclass(frozen=True)
class SeasonPlayer:
    wof: int
    name: str
    country: str
    strength: float


def players(n: int, seed: int = 1) -> list[SeasonPlayer]:
    rng = random.Random(seed)
    return [
        SeasonPlayer(i, f"Player{i:03d}, Test", COUNTRIES[i % len(COUNTRIES)], rng.gauss(0, 250))
        for i in range(1, n + 1)
    ]


def round_robin(n: int) -> list[list[tuple[int, int]]]:
    """Circle-method rounds of seats 0..n-1 (n even)."""
    seats = list(range(n))
    rounds = []
    for _ in range(n - 1):
        rounds.append([(seats[i], seats[n - 1 - i]) for i in range(n // 2)])
        seats = [seats[0], seats[-1], *seats[1:-1]]
    return rounds


def tournament_events(
    tid: str,
    start: dt.date,
    entrants: list[SeasonPlayer],
    rng: random.Random,
    names: dict[int, str] | None = None,
) -> list[EventBase]:
    """A complete round robin (an even number of entrants) as events."""
    events: list[EventBase] = [
        TournamentCreated(
            tournament_id=tid,
            name=tid,
            game=Game.OTHELLO,
            system=System.IMPORTED,
            rounds=len(entrants) - 1,
            start_date=start,
            end_date=start + dt.timedelta(days=1),
        )
    ]
    for number, p in enumerate(entrants, start=1):
        events.append(
            PlayerRegistered(
                player=number,
                name=(names or {}).get(p.wof, p.name),
                federation=p.country,
                ids={"wof": str(p.wof)},
            )
        )
    for r, pairs in enumerate(round_robin(len(entrants)), start=1):
        boards = tuple(
            Board(board=b, white=w + 1, black=k + 1) for b, (w, k) in enumerate(pairs, 1)
        )
        events.append(RoundPaired(round=r, boards=boards))
        for b, (w, k) in enumerate(pairs, 1):
            gap = entrants[w].strength - entrants[k].strength
            p_white = 1 / (1 + 3 ** (-gap / 200))
            u = rng.random()
            outcome = (
                Outcome.DRAW if u < 0.03 else Outcome.WHITE_WINS if u < 0.03 + 0.97 * p_white
                else Outcome.BLACK_WINS
            )  # fmt: skip
            events.append(ResultRecorded(round=r, board=b, outcome=outcome))
    return events


def append_tournament(store: Store, events: list[EventBase]) -> list[int]:
    """Append a tournament's events as one new stream; returns their log positions."""
    created = events[0]
    assert isinstance(created, TournamentCreated)
    result = store.append(f"tournament-{created.tournament_id}", [NewEvent(e) for e in events], -1)
    return list(result.positions)


def season(
    store: Store,
    field: list[SeasonPlayer],
    months: list[dt.date],
    *,
    size: int = 12,
    seed: int = 7,
    names: dict[int, str] | None = None,
) -> list[str]:
    """One round robin of ``size`` random players on each date; returns the tournament ids."""
    rng = random.Random(seed)
    ids = []
    for i, start in enumerate(months):
        tid = f"t{i:02d}-{start.isoformat()}"
        entrants = rng.sample(field, size)
        append_tournament(store, tournament_events(tid, start, entrants, rng, names))
        ids.append(tid)
    return ids


def monthly(first: dt.date, count: int) -> list[dt.date]:
    out = []
    year, month = first.year, first.month
    for _ in range(count):
        out.append(dt.date(year, month, first.day))
        month += 1
        if month > 12:
            year, month = year + 1, 1
    return out
