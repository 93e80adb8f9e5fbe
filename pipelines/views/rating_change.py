"""`arbiter standings T --rating-change` and the web player card: each player's rating change
from one event, the rating body's way.

Chess: FIDE's arithmetic on the event alone (:func:`ratings.fide_run.tournament_changes`, the
one the list run uses). Every player's rating Ro comes from the imported FIDE list of the
event's rating type in force at its start (the latest dated on or before it), by FIDE id; a
player that list does not carry is FIDE-unrated, whatever rating he is registered with (his
games are not rated for his opponents, 8.3.1; docs/fide_ratings.md). Without an imported list
the registered rating stands in (0 or none: unrated). K is the one printed on the latest list
on or before the event's end, else rule 8.3.3 as the run applies it. n·K ≤ 700 counts this
event's games only; a list run (`ratings run --method fide`) counts the period's.

Go: the EGF GoR change of the event (:func:`ratings.egf.rate_events`, the 2021 formula, the
event's class weight), each player starting from the GoR of the imported EGD list in force at
the start by PIN, else the registered rating, else the GoR of the registered rank.

Othello: the WOF list has no per-game formula, no K and no starting rating: every list is a
fresh weighted Bradley–Terry fit over all results (:func:`ratings.wof.fit_wof`). The event's
change is therefore the list's own difference: the list computed the day after the event's
last day over every othello game in the log, once without this event's games (rating before)
and once with them (rating after), the same day so that game ages do not move. Expected is
the model's expected score (:func:`ratings.wof.expected_score`) from the ratings before, when
the player and all his opponents had one; a player outside a rated component (fewer than 10
connected players) has no rating on that side.

Exact values (W, We, W − We, K·(W − We)) are strings with two decimals, as FIDE prints them.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import polars as pl

from decide.base import numbered
from decide.state import PlayerState, TournamentState
from decide.tournaments import current_data
from events.domain import Game, Outcome
from events.imported_lists import FIDE_LISTS, ListedPlayer, latest_list_import, lookup
from events.store import Store
from pipelines.commands.base import STREAM_PREFIX, CommandError
from projections.games import project
from projections.standings import StandingRow
from ratings.egf import CLASS_WEIGHTS, EgfParams, rate_events, rating_from_grade
from ratings.fide import FideParams
from ratings.fide_run import tournament_changes
from ratings.games import GAMES_SCHEMA
from ratings.wof import WofParams, expected_score, fit_wof

__all__ = ["EventChange", "FideInForce", "event_change", "fide_in_force"]

_SCORES = {Outcome.WHITE_WINS: 1.0, Outcome.BLACK_WINS: 0.0, Outcome.DRAW: 0.5}
"""Rated outcomes: a game played over the board (byes, forfeits and double results are not)."""

EGD_LIST = "egd"


@dataclass(frozen=True)
class EventChange:
    """Each player's change from one event, in the order of ``rows``' players."""

    system: str
    """``FIDE`` or ``EGF GoR``."""
    source: str
    """Where the starting ratings came from, in words."""
    players: dict[int, dict[str, Any]]
    """Player number → the player's values (chess: Ro, Rp, games, W, We, W-We, K, K(W-We),
    change; go: GoR, games, change, GoR after)."""
    games: dict[int, list[dict[str, Any]]]
    """Player number → per game: round, opponent, the ratings used for each side, W, We (or
    Se), the change."""


def _player_key(pid: int) -> str:
    return f"player:{pid}"


def _pid(key: str) -> int:
    return int(key.removeprefix("player:"))


def _birth_year(birth: str | None) -> int | None:
    found = re.match(r"\s*(\d{4})", birth or "")
    return int(found[1]) if found else None


def _games(state: TournamentState, day: dt.date, weight: float) -> pl.DataFrame:
    """The event's rated games as a games table (:data:`ratings.games.GAMES_SCHEMA`), ids
    ``player:<number>``, in round and board order, plus their round."""
    rows = []
    for number in sorted(state.rounds):
        for b in state.rounds[number].boards:
            score = _SCORES.get(b.outcome) if b.outcome is not None else None
            if b.black is None or score is None:
                continue
            rows.append(
                {
                    "date": day,
                    "event": state.id,
                    "player_a": _player_key(b.white),
                    "player_b": _player_key(b.black),
                    "score_a": score,
                    "weight": weight,
                    "game": state.game.value,
                    "color_a": "white",
                    "handicap": b.handicap if state.game is Game.GO else None,
                    "komi": b.komi if state.game is Game.GO else None,
                    "round": number,
                }
            )
    return pl.DataFrame(rows, schema={**GAMES_SCHEMA, "round": pl.Int64()})


def _start(state: TournamentState) -> dt.date:
    """The event's first day: its start date, else its first round's date, else today."""
    data = current_data(state)
    if data.start_date is not None:
        return data.start_date
    if data.round_dates:
        return min(data.round_dates.values())
    return dt.datetime.now(dt.UTC).date()


def _hundredths(value: Decimal | None) -> str | None:
    return None if value is None else f"{value:.2f}"


def _listed(
    store: Store, name: str, key: Callable[[PlayerState], str | None], state: TournamentState,
    day: dt.date,
) -> tuple[dict[int, ListedPlayer], str]:  # fmt: skip
    """The players of ``state`` on the list ``name`` in force on ``day``, and a note."""
    found = latest_list_import(store, name, day)
    if found is None:
        return {}, f"registered ratings (no {name} list imported dated {day} or before)"
    rows = {}
    for p in state.players.values():
        player_id = key(p)
        row = lookup(store, name, player_id, day) if player_id else None
        if row is not None:
            rows[p.id] = row
    note = f"{name} list of {found.list_date} ({len(rows)} players), else registered ratings"
    return rows, note


@dataclass(frozen=True)
class FideInForce:
    """The players' FIDE ratings at an event's start, as every FIDE view reads them."""

    ratings: dict[int, int | None]
    """Player number → rating (None: FIDE-unrated)."""
    rows: dict[int, ListedPlayer]
    """The players the list in force carries, by number."""
    source: str
    """Where the ratings came from, in words."""


def fide_in_force(store: Store, state: TournamentState, day: dt.date | None = None) -> FideInForce:
    """The FIDE rating of every player of a chess event on ``day`` (default: its start): the
    imported list of the event's rating type in force that day, by FIDE id; once such a list
    is imported a player it does not carry is FIDE-unrated whatever rating he was registered
    with (a typed or national rating orders the pairing, nothing else). Without an imported
    list the registered rating stands in, 0 being none (docs/fide_ratings.md)."""
    day = day or _start(state)
    rating_type = state.settings.pairing_params.rating.rating_type or "standard"
    name = FIDE_LISTS[rating_type]
    rows, source = _listed(store, name, lambda p: p.fide_id, state, day)
    found = latest_list_import(store, name, day)
    on_lists = found is not None
    if found is not None:
        source = f"{name} list of {found.list_date} ({len(rows)} players; anyone else unrated)"
    ratings: dict[int, int | None] = {}
    for p in state.players.values():
        row = rows.get(p.id)
        if row is not None:
            ratings[p.id] = int(row.rating) if row.rating else None
        else:
            ratings[p.id] = None if on_lists else (p.rating or None)
    return FideInForce(ratings, rows, source)


def _fide(store: Store, state: TournamentState, start: dt.date) -> EventChange:
    rating_type = state.settings.pairing_params.rating.rating_type or "standard"
    name = FIDE_LISTS[rating_type]
    in_force = fide_in_force(store, state, start)
    listed, source = in_force.rows, in_force.source
    # K is the one printed on the list the event's change updates: the latest on or before
    # its last day (ratings.fide_run, rule 2), else the one in force at the start.
    end = current_data(state).end_date or start
    latest = _listed(store, name, lambda p: p.fide_id, state, end)[0] if end > start else {}
    params = FideParams()
    rows = []
    for p in state.players.values():
        row = listed.get(p.id)
        rating = in_force.ratings[p.id]
        k = next((r.k for r in (latest.get(p.id), row) if r is not None and r.k), None)
        birth = (row.birth_year if row else None) or _birth_year(p.birth)
        rows.append((_player_key(p.id), rating, k, birth))
    ratings = pl.DataFrame(
        rows,
        schema={"player_id": pl.Utf8, "rating": pl.Int64, "k": pl.Int64, "birth_year": pl.Int64},
        orient="row",
    )
    games = _games(state, start, 1.0)
    players: dict[int, dict[str, Any]] = {}
    per_game: dict[int, list[dict[str, Any]]] = {}
    if games.height:
        run = tournament_changes(games.drop("round"), ratings, params)
        changes = {r["player_id"]: r for r in run.changes.iter_rows(named=True)}
        for t in run.tournaments.iter_rows(named=True):
            change = changes.get(t["player_id"], {})
            rated = t["rated"]
            we = t["w"] - t["chg"] if rated else None
            players[_pid(t["player_id"])] = {
                "Ro": t["Ro"],
                "Rp": t["Rp"],
                "games": t["n"],
                "W": _hundredths(t["w"]),
                "We": _hundredths(we),
                "W-We": _hundredths(t["chg"]),
                "K": t["K"],
                "K(W-We)": _hundredths(t["K_chg"]),
                "change": change.get("change"),
                "status": change.get("status"),
            }
        rounds = games.get_column("round")
        for g in run.games.iter_rows(named=True):
            per_game.setdefault(_pid(g["player_id"]), []).append(
                {
                    "round": int(rounds[g["game_index"]]),
                    "opponent": _pid(g["opponent_id"]),
                    "Ro": g["Ro"],
                    "opponent_rating": g["opponent_rating"],
                    "opponent_rating_used": g["opponent_rating_used"],
                    "W": _hundredths(g["score"]),
                    "We": _hundredths(g["We"]),
                    "W-We": _hundredths(g["chg"]),
                    "K": g["K"],
                    "K(W-We)": _hundredths(g["K_chg"]),
                }
            )
    for key, rating, _, _ in rows:
        players.setdefault(_pid(key), {"Ro": rating, "games": 0})
    return EventChange("FIDE", source, players, per_game)


def _go(store: Store, state: TournamentState, start: dt.date) -> EventChange:
    listed, source = _listed(store, EGD_LIST, lambda p: p.ids.get("egd_pin"), state, start)
    settings = state.settings.pairing_params.rating
    klass = (settings.rating_class or settings.egf_class or "A").upper()
    weight = settings.rating_weight or CLASS_WEIGHTS.get(klass, 1.0)
    starting: dict[int, float | None] = {}
    for p in state.players.values():
        row = listed.get(p.id)
        gor = row.gor if row is not None else None
        if gor is None and p.rating is not None:
            gor = p.rating
        starting[p.id] = float(gor) if gor is not None else _grade(p.rank)
    games = _games(state, start, weight)
    played = set(games.get_column("player_a")) | set(games.get_column("player_b"))
    for pid in sorted(pid for pid, r in starting.items() if r is None):
        if _player_key(pid) in played:
            raise CommandError(
                f"player {numbered(state, pid)}: rank: none, and no GoR registered "
                "or on an imported EGD list; the EGF rates from one (player edit --rank)"
            )
    start_frame = pl.DataFrame(
        [(_player_key(pid), r) for pid, r in starting.items()],
        schema={"player_id": pl.Utf8, "rating": pl.Float64},
        orient="row",
    )
    players: dict[int, dict[str, Any]] = {
        pid: {"GoR": _gor(r), "games": 0, "change": None, "GoR after": None}
        for pid, r in starting.items()
    }
    if games.height:
        result = rate_events(start_frame, games.drop("round"), EgfParams())
        for r in result.changes.iter_rows(named=True):
            players[_pid(r["player_id"])] = {
                "GoR": _gor(r["rating_before"]),
                "games": r["games"],
                "change": round(r["change"], 3),
                "GoR after": _gor(r["rating_after"]),
            }
    return EventChange(f"EGF GoR (class {klass}, weight {weight:g})", source, players, {})


def _othello(store: Store, state: TournamentState, start: dt.date) -> EventChange:
    params = WofParams()
    as_of = max(start, current_data(state).end_date or start) + dt.timedelta(days=1)
    games = project(store.read_frame()).games.filter(pl.col("game") == Game.OTHELLO.value)
    ours = pl.col("stream") == STREAM_PREFIX + state.id
    event = games.filter(ours)
    others = games.filter(~ours)
    # The log's games are keyed by federation id: the event's boards say whose id is whose.
    seat = {(g["round"], g["board"]): g for g in event.iter_rows(named=True)}
    key: dict[int, str] = {}
    for number, rnd in state.rounds.items():
        for b in rnd.boards:
            row = seat.get((number, b.board))
            if row is not None and b.black is not None:
                key[b.white], key[b.black] = row["player_a"], row["player_b"]
    rated = [fit_wof(g, as_of, params).players for g in (others, games)]
    before, after = (
        dict(zip(p.get_column("player_id"), p.get_column("rating"), strict=True)) for p in rated
    )
    players: dict[int, dict[str, Any]] = {}
    for pid in state.players:
        pkey = key.get(pid)
        old, new = before.get(pkey), after.get(pkey)
        played = event.filter((pl.col("player_a") == pkey) | (pl.col("player_b") == pkey))
        score = 0.0
        expected: float | None = 0.0
        for g in played.iter_rows(named=True):
            mine = g["player_a"] == pkey
            opponent = before.get(g["player_b" if mine else "player_a"])
            score += g["score_a"] if mine else 1.0 - g["score_a"]
            if old is None or opponent is None or expected is None:
                expected = None
            else:
                expected += expected_score(old, opponent, params)
        players[pid] = {
            "rating": _gor(old),
            "games": played.height,
            "score": score,
            "expected": None if expected is None else round(expected, 3),
            "change": None if old is None or new is None else round(new - old, 3),
            "rating after": _gor(new),
        }
    source = (
        f"WOF list of {as_of} over the log's {games.height} othello games, without this "
        f"event's {event.height} (rating) and with them (rating after), {params.version}"
    )
    return EventChange("WOF", source, players, {})


def _grade(rank: str | None) -> float | None:
    try:
        return None if rank is None else rating_from_grade(rank)
    except ValueError:
        return None


def _gor(value: float | None) -> float | None:
    return None if value is None else round(value, 3)


def event_change(store: Store, state: TournamentState) -> EventChange:
    """Each player's rating change from the event (module docstring).

    :raises CommandError: a carrom event, or a go player with neither a GoR nor a
        rank (the EGF rates from one).
    """
    start = _start(state)
    if state.game is Game.CHESS:
        return _fide(store, state, start)
    if state.game is Game.GO:
        return _go(store, state, start)
    if state.game is Game.OTHELLO:
        return _othello(store, state, start)
    raise CommandError(
        f"--rating-change: a {state.game.value} event has no per-event rating change "
        "(chess: FIDE's Elo, go: the EGF's GoR, othello: the WOF list's)"
    )


def change_rows(
    change: EventChange, standings: list[StandingRow], *, with_games: bool = False
) -> list[dict[str, Any]]:
    """Standings rows (rank, player, points) with each player's change; ``with_games`` adds
    the per-game values (JSON)."""
    rows = []
    for r in standings:
        row: dict[str, Any] = {
            "rank": r.rank,
            "player": {"id": r.player, "name": r.name, "start_rank": r.start_rank},
            "points": r.points,
            **change.players.get(r.player, {}),
        }
        if with_games:
            row["rated_games"] = change.games.get(r.player, [])
        rows.append(row)
    return rows
