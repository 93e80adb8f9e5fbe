"""`arbiter ratings show`: find a player, then their history over a list's publications and
their latest games.

A player is found by id (``fide:1503014``), by federation id alone, or by name (case, accents
and punctuation ignored, :func:`ratings.identity.find_players`) among the players of the
list's game. A player without a federation id whom the list counts as another person
(:mod:`ratings.identity`) is shown as that person, with the games of every id they had.
"""

from __future__ import annotations

import csv
import datetime as dt
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path

import polars as pl
from pydantic import JsonValue

from events.errors import NotFound
from events.store import Store
from pipelines.jobs.ratings import latest_per_date, publications, read_published
from projections.charts import HistoryPoint
from projections.games import GamesCache
from ratings.games import GameKind
from ratings.identity import find_players, people
from ratings.lists import ListKind, list_kind, method_games
from ratings.methods import Method, RatingType

__all__ = ["PlayerReport", "UnknownPlayer", "find", "player_report"]

_SCHEME = {GameKind.CHESS: "fide", GameKind.GO: "egd", GameKind.OTHELLO: "wof"}
"""The federation id scheme of each game's own list."""


class UnknownPlayer(NotFound):
    """A player id with no game in the log and no entry in any published list."""


@dataclass(frozen=True)
class Found:
    """What a query found: the list it was asked for, and the matching people."""

    kind: ListKind
    hits: pl.DataFrame
    """player_id, name, country, birth_year, games (of the list's game), one row per person."""
    aliases: dict[str, frozenset[str]]
    """person → the other ids of players the list counts as that person."""


def _played(games: pl.DataFrame) -> pl.DataFrame:
    """player_id → games, over ``games``."""
    ids = pl.concat([games.get_column("player_a"), games.get_column("player_b")])
    return ids.alias("player_id").to_frame().group_by("player_id").len("games")


def find(
    store: Store,
    cache: GamesCache,
    query: str,
    method: Method,
    game: GameKind | None = None,
    rating_type: RatingType | None = None,
) -> Found:
    """The people ``query`` names among the players of the list's game.

    :raises ListRequestError: a game or rating type the method does not rate.
    :raises UnknownPlayer: nobody matches.
    """
    cache.sync(store)
    games = cache.games(full=method is Method.FIDE)  # FIDE: with the rating_type column
    kind = list_kind(method, game, rating_type, games.get_column("game").unique().to_list())
    mine = method_games(games, kind)
    everyone = cache.players()
    players = everyone.join(_played(mine), on="player_id", how="inner")
    placed = people(mine, players)
    scheme = _SCHEME.get(kind.game) if kind.game is not None else None
    hits = find_players(players, query, scheme).get_column("player_id")
    if hits.len() == 0 and ":" in query:
        hits = pl.Series([query.strip()])  # perhaps in the published lists only
    if hits.len() == 0:
        raise UnknownPlayer(
            f"no player of the {kind.title} list matches '{query}' (give an id such as "
            "fide:1503014, egd:12345678 or wof:123, a federation id, or part of a name)"
        )
    persons = hits.replace(dict(placed.alias)).unique(maintain_order=True).alias("player_id")
    shown = (
        persons.to_frame()
        .join(everyone.select("player_id", "name", "country", "birth_year"), on="player_id",
              how="left")
        .join(_played(placed.games(mine)), on="player_id", how="left")
        .with_columns(pl.col("games").fill_null(0).cast(pl.Int64))
    )  # fmt: skip
    aliases: dict[str, set[str]] = {}
    for alias, person in placed.alias.items():
        aliases.setdefault(person, set()).add(alias)
    return Found(kind, shown, {p: frozenset(a) for p, a in aliases.items()})


# ------------------------------------------------------------------------------ one player


@dataclass(frozen=True)
class PlayerReport:
    """A player's entries in a list's publications, and their latest games."""

    player_id: str
    name: str | None
    country: str | None
    history: list[dict[str, JsonValue]]
    """One row per published list (oldest first) in which the player appears."""
    games: list[dict[str, JsonValue]]
    """The latest games, newest first, from the player's side."""
    games_total: int
    unreadable: list[str]
    aliases: tuple[str, ...] = ()
    """The ids of the player's registrations without a federation id that the list counts
    as this player."""
    events: list[dict[str, JsonValue]] = field(default_factory=list)
    """FIDE lists run from imported lists: per event rated, FIDE's calculation (the list it
    was rated on, Ro, the opponents' ratings used, W, We, K, K·(W − We), Rp), with its
    games."""
    periods: list[dict[str, JsonValue]] = field(default_factory=list)
    """FIDE lists run from imported lists: per list, the period's total (rating before, games,
    K, Σ K·(W − We), the change rounded once, the new rating)."""

    def points(self) -> list[HistoryPoint]:
        return [
            HistoryPoint(
                dt.date.fromisoformat(str(r["as_of"])),
                float(r["rating"]),  # type: ignore[arg-type]
                None if r["margin"] is None else float(r["margin"]),  # type: ignore[arg-type]
            )
            for r in self.history
            if r["rating"] is not None
        ]

    def as_json(self) -> dict[str, JsonValue]:
        return {
            "player_id": self.player_id,
            "name": self.name,
            "country": self.country,
            "aliases": list(self.aliases),
            "history": list(self.history),
            "games_total": self.games_total,
            "games": list(self.games),
            "unreadable_lists": list(self.unreadable),
            **(
                {"events": list(self.events), "periods": list(self.periods)}
                if self.events or self.periods
                else {}
            ),
        }


def player_report(
    store: Store,
    cache: GamesCache,
    list_name: str,
    player_id: str,
    latest_games: int = 20,
    *,
    aliases: frozenset[str] = frozenset(),
) -> PlayerReport:
    """History over the published lists named ``list_name`` (a :class:`ListKind` name; a
    :class:`Method` names its standard list), and games, of one player; ``aliases``: other
    ids whose games are the player's.

    :raises UnknownPlayer: when neither the games table nor any list knows the id.
    """
    cache.sync(store)
    history: list[dict[str, JsonValue]] = []
    unreadable: list[str] = []
    events: list[dict[str, JsonValue]] = []
    periods: list[dict[str, JsonValue]] = []
    for pub in latest_per_date(publications(store, list_name), dt.date.max):
        frame = read_published(pub)
        if frame is None:
            unreadable.append(f"{pub.as_of} ({pub.output})")
            continue
        found_events, found_periods = _fide_audit(Path(pub.output), player_id)
        events.extend(e for e in found_events if e not in events)
        periods.extend(p for p in found_periods if p not in periods)
        for row in frame.filter(pl.col("player_id") == player_id).iter_rows(named=True):
            history.append(
                {
                    "as_of": pub.as_of.isoformat(),
                    "rank": row["rank"],
                    "rating": row["rating"],
                    "margin": row["margin"],
                    "games": row["games"],
                    "official": row["official"],
                    "note": row["provisional_reason"],
                }
            )
    ids = [player_id, *sorted(aliases)]
    games = cache.games(full=True)
    mine = games.filter(pl.col("player_a").is_in(ids) | pl.col("player_b").is_in(ids))
    first = pl.col("player_a").is_in(ids)
    players = cache.players()
    rows = (
        mine.select(
            "date",
            "event",
            "round",
            pl.when(first).then(pl.col("player_b")).otherwise(pl.col("player_a")).alias("opponent"),
            pl.when(first)
            .then(pl.col("color_a"))
            .otherwise(pl.col("color_a").replace({"white": "black", "black": "white"}))
            .alias("colour"),
            pl.when(first).then(pl.col("score_a")).otherwise(1 - pl.col("score_a")).alias("score"),
        )
        .join(
            players.select(pl.col("player_id").alias("opponent"), pl.col("name").alias("opp_name")),
            on="opponent",
            how="left",
        )
        .sort(["date", "event", "round"], descending=True)
    )
    shown = rows if latest_games == 0 else rows.head(latest_games)
    me = players.filter(pl.col("player_id") == player_id)
    if mine.height == 0 and not history and me.height == 0:
        raise UnknownPlayer(
            f"unknown player '{player_id}': no game in the log and no {list_name} list "
            "entry (ids look like wof:123, egd:12345678, fide:1503014)"
        )
    return PlayerReport(
        player_id=player_id,
        name=me.item(0, "name") if me.height else None,
        country=me.item(0, "country") if me.height else None,
        history=history,
        games=[{**r, "date": r["date"].isoformat()} for r in shown.iter_rows(named=True)],
        games_total=mine.height,
        unreadable=unreadable,
        aliases=tuple(sorted(aliases)),
        events=events,
        periods=periods,
    )


_INTEGERS = frozenset({"Ro", "Rc", "n", "K", "Rp", "rating_before", "games", "change",
                       "rating_after", "opponent_rating", "opponent_rating_used"})  # fmt: skip


def _read_audit(path: Path, player_id: str) -> list[dict[str, JsonValue]]:
    """The rows of one of a FIDE list run's audit CSVs about ``player_id``: hundredths kept as
    written (``-6.10``), whole numbers as integers, empty cells as None."""
    try:
        with path.open(encoding="utf-8", newline="") as f:
            rows = [r for r in csv.DictReader(f) if r.get("player_id") == player_id]
    except OSError:
        return []
    return [
        {
            k: None if v == "" else int(v) if k in _INTEGERS else v
            for k, v in row.items()
            if k != "player_id"
        }
        for row in rows
    ]


def _fide_audit(
    folder: Path, player_id: str
) -> tuple[list[dict[str, JsonValue]], list[dict[str, JsonValue]]]:
    """A FIDE list run's calculation pages for one player (``tournaments.csv``, ``games.csv``,
    ``changes.csv`` in the list's folder, :mod:`pipelines.jobs.fide_lists`): per event
    rated, W, We = W − Σ(W − We), the opponents' ratings used and the games; per period the
    total. Empty for a list that has no such files."""
    games = _read_audit(folder / "games.csv", player_id)
    events: list[dict[str, JsonValue]] = []
    for t in _read_audit(folder / "tournaments.csv", player_id):
        mine = [g for g in games if g["event"] == t["event"] and g["rated_on"] == t["rated_on"]]
        we = None
        if t["chg"] is not None:
            we = f"{Decimal(str(t['w'])) - Decimal(str(t['chg'])):.2f}"
        events.append(
            {
                "rated_on": t["rated_on"],
                "event": t["event"],
                "start": t["event_start"],
                "list_used": t["list_date"],
                "Ro": t["Ro"],
                "opponents": " ".join(str(g["opponent_rating_used"]) for g in mine),
                "games": t["n"],
                "W": t["w"],
                "We": we,
                "K": t["K"],
                "K(W-We)": t["K_chg"],
                "Rp": t["Rp"],
                "rated_games": [
                    {
                        "opponent": g["opponent_id"],
                        "opponent_rating": g["opponent_rating"],
                        "opponent_rating_used": g["opponent_rating_used"],
                        "W": g["score"],
                        "We": g["We"],
                        "K": g["K"],
                        "K(W-We)": g["K_chg"],
                    }
                    for g in mine
                ],
            }
        )
    periods: list[dict[str, JsonValue]] = [
        {
            "rated_on": c["rated_on"],
            "rating_before": c["rating_before"],
            "games": c["games"],
            "K": c["K"],
            "K(W-We)": c["K_chg"],
            "change": c["change"],
            "rating_after": c["rating_after"],
            "status": c["status"],
        }
        for c in _read_audit(folder / "changes.csv", player_id)
    ]
    return events, periods
