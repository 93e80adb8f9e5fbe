"""The games table the rating lists read: one row per rated game of every tournament in the log.

:func:`project` is pure: it turns events (the frame ``Store.read_frame`` returns) into the games
table of :mod:`ratings.games` plus a players table. Payloads are decoded by
:func:`events.frames.decode_frame` (column types from the event models, old schema versions
upcast), as polars columns, so the whole WOF archive projects in seconds.
:class:`GamesCache` keeps the result materialised in the store's projection cache
(``Store.open_cache``), advanced incrementally from a checkpoint position and rebuilt when the
store's ``log_epoch`` changes (a truncation or restore rewrote history).

Which boards are rated games: both players present, a known over-the-board outcome (``1-0``,
``0-1``, draw). Byes, forfeits, double results (go ``0-0``/``1-1``) and unknown results are not
games. A player's id is the federation id of the tournament's game first (``fide:`` for chess,
``egd:`` for go, ``wof:`` for othello), then any other federation id, then the registry stream
that ingest linked the player to, then ``local:<tournament>#<number>``. A player the file does
not name (``??????``) gets no id, and the game is not rated.

A game is dated by its round's date when the tournament states round dates (created or edited),
else by its tournament's start date (then its end date, then the day its result was recorded),
as the WOF archive dates games by the file's start date. The table also carries the
tournament's stated first and last day (``event_start``, ``event_end``; null when it states
none): the FIDE list rates a tournament in the period it ends, from the list in force when it
started (:mod:`ratings.fide_run`).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

import polars as pl

from events.cache import TableCache
from events.frames import decode_frame
from events.schema import RATING_CLEARED, TOURNAMENT_STREAM
from ratings.egf import CLASS_WEIGHTS
from ratings.games import GAMES_OPTIONAL, GAMES_SCHEMA, PLAYERS_SCHEMA

__all__ = [
    "CACHE_TABLES",
    "CLASS_WEIGHTS",
    "GAMES_TABLE_SCHEMA",
    "TOURNAMENT_MARKS",
    "GamesCache",
    "Projection",
    "SyncReport",
    "project",
    "tournament_marks",
]

TOURNAMENT_PREFIX = TOURNAMENT_STREAM
REGISTRY_PREFIX = "player-"

PROJECTION_VERSION = 6
"""Bump when the rows this module produces change; a cache of another version is rebuilt."""

GAMES_TABLE_SCHEMA: dict[str, pl.DataType] = {
    **GAMES_SCHEMA,
    "rating_type": pl.Utf8(),
    "stream": pl.Utf8(),
    "round": pl.Int64(),
    "board": pl.Int64(),
    "position": pl.Int64(),
    **GAMES_OPTIONAL,
}
"""The materialised table: the ratings games schema, the tournament's rating type as its
creation event states it (``rating_type``, or ``pairing_params.rating_type``; null when it
states none), where each game is in the log, and the tournament's first and last day as its
creation event (or a later edit) states them (:data:`ratings.games.GAMES_OPTIONAL`)."""

REGISTRATIONS_SCHEMA: dict[str, pl.DataType] = {
    "stream": pl.Utf8(),
    "player_id": pl.Utf8(),
    "name": pl.Utf8(),
    "country": pl.Utf8(),
    "birth_year": pl.Int64(),
    "rating": pl.Float64(),
    "grade": pl.Utf8(),
    "position": pl.Int64(),
}
"""Who played under which id, per tournament, and the rating the file gave them; the players
table takes the latest name and the earliest rating."""

_RATED_OUTCOMES = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}
_OWN_SCHEME = {"chess": "fide", "go": "egd", "othello": "wof"}
_GAMES = ("chess", "go", "othello", "carrom")
_ID_KEYS = {"fide": "fide_id", "egd": "egd_pin", "wof": "wof", "ffg": "ffg", "aga": "aga"}
_COLOURED_GAMES = ("chess", "go", "othello")

_PAIRING_PARAMS = pl.Struct(
    {"egf_class": pl.Utf8, "rating_class": pl.Utf8, "rating_weight": pl.Float64}
)
"""The keys of ``TournamentCreated.pairing_params`` (an open mapping) this module reads."""
_IDS = pl.Struct(dict.fromkeys(("egd_pin", "wof", "ffg", "aga", "registry"), pl.Utf8))
"""The keys of ``PlayerRegistered.ids`` this module reads."""
_ROUND_META = pl.Struct({"elo_colours": pl.Utf8})


@dataclass(frozen=True)
class Projection:
    """Games and registrations of a set of tournament streams, and the registry's players."""

    games: pl.DataFrame
    """:data:`GAMES_TABLE_SCHEMA`, sorted by date, event, round, board."""
    registrations: pl.DataFrame
    """:data:`REGISTRATIONS_SCHEMA`: one row per (stream, player id)."""
    registry: pl.DataFrame
    """player_id, name, country, birth_year, position: one row per registry event."""


def _birth_year(column: str) -> pl.Expr:
    return pl.col(column).str.extract(r"(\d{4})", 1).cast(pl.Int64, strict=False)


def _is_placeholder(column: str) -> pl.Expr:
    """Names converters invent for players a file does not name (``??????``, ``#123``)."""
    return pl.col(column).is_null() | (pl.col(column).str.strip_chars("?# 0123456789,") == "")


def _tournaments(events: pl.DataFrame) -> pl.DataFrame:
    created = decode_frame(
        events,
        "TournamentCreated",
        ["tournament_id", "game", "start_date", "end_date", "pairing_params"],
        {"pairing_params": _PAIRING_PARAMS},
    ).unnest("pairing_params")
    first_day = events.group_by("stream_id").agg(
        pl.col("recorded_at").min().dt.date().alias("first_day")
    )
    # The rating type is read from the payload: a top-level field on newer events, a
    # ``pairing_params`` key on older ones (neither is a typed field everywhere yet).
    # A `TournamentEdited` (later in the stream) overrides the rating type and dates.
    payload = pl.col("payload").str
    stated = events.filter(
        pl.col("event_type").is_in(["TournamentCreated", "TournamentEdited"])
    ).select(
        "stream_id",
        pl.coalesce(
            payload.json_path_match("$.rating_type"),
            payload.json_path_match("$.pairing_params.rating_type"),
        ).alias("rating_type"),
        payload.json_path_match("$.start_date").str.to_date(strict=False).alias("start_edit"),
        payload.json_path_match("$.end_date").str.to_date(strict=False).alias("end_edit"),
    )
    rating_type = stated.group_by("stream_id", maintain_order=True).agg(
        pl.col("rating_type").drop_nulls().last(),
        pl.col("start_edit").drop_nulls().last(),
        pl.col("end_edit").drop_nulls().last(),
    )
    klass = pl.coalesce("rating_class", "egf_class").str.to_uppercase()
    return (
        created.join(first_day, on="stream_id", how="left")
        .join(rating_type.unique("stream_id", keep="last"), on="stream_id", how="left")
        .select(
            "stream_id",
            pl.col("tournament_id").alias("event"),
            "game",
            pl.coalesce("start_edit", "end_edit", "start_date", "end_date", "first_day").alias(
                "date"
            ),
            pl.coalesce(
                "rating_weight",
                klass.replace_strict(CLASS_WEIGHTS, default=None, return_dtype=pl.Float64),
                pl.when(klass.is_null()).then(pl.lit(1.0)),
            ).alias("weight"),
            pl.col("rating_type").str.strip_chars().str.to_lowercase().alias("rating_type"),
            pl.coalesce("start_edit", "start_date").alias("event_start"),
            pl.coalesce("end_edit", "end_date").alias("event_end"),
        )
        # A stream created twice cannot happen in a valid log; keep the latest anyway.
        .unique("stream_id", keep="last", maintain_order=True)
    )


def _round_dates(events: pl.DataFrame) -> pl.DataFrame:
    """(stream_id, round) → the round's stated date: the created event's round dates, each
    edit adding to or replacing them (as `decide.state` reads them)."""
    stated = (
        events.filter(
            pl.col("event_type").is_in(["TournamentCreated", "TournamentEdited"])
            & pl.col("payload").str.contains('"round_dates"', literal=True)
        )
        .sort("global_position")
        .select("stream_id", pl.col("payload").str.json_path_match("$.round_dates"))
    )
    merged: dict[str, dict[int, str]] = {}
    for stream, text in stated.iter_rows():
        if text:
            merged.setdefault(stream, {}).update({int(k): v for k, v in json.loads(text).items()})
    rows = [(s, r, d) for s, dates in merged.items() for r, d in dates.items()]
    return pl.DataFrame(
        rows, schema={"stream_id": pl.Utf8, "round": pl.Int64, "round_date": pl.Utf8}, orient="row"
    ).with_columns(pl.col("round_date").str.to_date(strict=False))


def _player_id(tournaments: pl.DataFrame, players: pl.DataFrame) -> pl.DataFrame:
    """(stream_id, player) → player_id, name, country, birth_year, position."""
    game = tournaments.select("stream_id", "event", "game")
    p = players.join(game, on="stream_id", how="left")
    federation = {
        scheme: pl.when(pl.col(key).is_not_null() & (pl.col(key).str.strip_chars() != "")).then(
            pl.lit(scheme + ":") + pl.col(key).str.strip_chars()
        )
        for scheme, key in _ID_KEYS.items()
    }
    own = pl.lit(None, dtype=pl.Utf8)
    for game_kind, scheme in _OWN_SCHEME.items():
        own = pl.when(pl.col("game") == game_kind).then(federation[scheme]).otherwise(own)
    registry = pl.col("registry").str.strip_prefix(REGISTRY_PREFIX)
    from_registry = registry.str.replace(r"^([^-]+)-", "$1:")
    local = pl.when(~_is_placeholder("name")).then(
        pl.format("local:{}#{}", pl.col("event"), pl.col("player"))
    )
    return p.select(
        "stream_id",
        "player",
        pl.coalesce(own, *federation.values(), from_registry, local).alias("player_id"),
        pl.when(~_is_placeholder("name")).then(pl.col("name")).alias("name"),
        pl.col("federation").alias("country"),
        _birth_year("birth").alias("birth_year"),
        pl.col("rating").cast(pl.Float64),
        pl.col("rank").alias("grade"),
        pl.col("global_position").alias("position"),
    )


def _players(events: pl.DataFrame) -> pl.DataFrame:
    """Registrations with later updates applied, one row per (stream, player)."""
    both = decode_frame(
        events,
        ["PlayerRegistered", "PlayerUpdated"],
        ["player", "name", "federation", "fide_id", "birth", "rating", "rank", "ids"],
        {"ids": _IDS},
    ).unnest("ids")
    # A correction's rating 0 takes the rating away (`RATING_CLEARED`): -1 until the last
    # value is taken, then no rating.
    cleared = (pl.col("event_type") == "PlayerUpdated") & (pl.col("rating") == RATING_CLEARED)
    both = both.with_columns(pl.when(cleared).then(-1).otherwise(pl.col("rating")).alias("rating"))
    fields = [
        "name", "federation", "fide_id", "birth", "rating", "rank", "egd_pin", "wof", "ffg",
        "aga", "registry",
    ]  # fmt: skip
    return (
        both.group_by("stream_id", "player", maintain_order=True)
        .agg(
            *(pl.col(f).drop_nulls().last() for f in fields),
            pl.col("global_position").max(),
        )
        .with_columns(pl.col("rating").replace(-1, None))
    )


def _boards(events: pl.DataFrame) -> pl.DataFrame:
    paired = (
        decode_frame(events, "RoundPaired", ["round", "boards"])
        .with_columns(pl.col("metadata").str.json_decode(_ROUND_META).struct.field("elo_colours"))
        .sort("global_position")
        .unique(["stream_id", "round"], keep="last", maintain_order=True)
        .select("stream_id", "round", "elo_colours", "boards")
        .explode("boards")
        .with_columns(pl.int_range(pl.len()).over("stream_id", "round").alias("index"))
        .unnest("boards")
    )
    # An .ELO line without a B/W mark put its first player in the white seat: colour unknown.
    unmarked = pl.col("elo_colours").str.slice(pl.col("index"), 1) == "-"
    return paired.select(
        "stream_id", "round", "board", "white", "black", "handicap", "komi",
        unmarked.fill_null(value=False).alias("unmarked"),
    )  # fmt: skip


def _results(events: pl.DataFrame) -> pl.DataFrame:
    return (
        decode_frame(events, ["ResultRecorded", "ResultCorrected"], ["round", "board", "outcome"])
        .sort("global_position")
        .unique(["stream_id", "round", "board"], keep="last", maintain_order=True)
        .select("stream_id", "round", "board", "outcome", pl.col("global_position").alias("rpos"))
    )


def _registry(events: pl.DataFrame) -> pl.DataFrame:
    rows = decode_frame(
        events,
        ["FederationPlayerRegistered", "FederationPlayerUpdated"],
        ["name", "country", "birth"],
    )
    return rows.select(
        pl.col("stream_id")
        .str.strip_prefix(REGISTRY_PREFIX)
        .str.replace(r"^([^-]+)-", "$1:")
        .alias("player_id"),
        pl.when(~_is_placeholder("name")).then(pl.col("name")).alias("name"),
        pl.col("country"),
        _birth_year("birth").alias("birth_year"),
        pl.col("global_position").alias("position"),
    )


def project(events: pl.DataFrame) -> Projection:
    """The games, registrations and registry rows of ``events`` (a ``read_frame`` frame).

    Only streams whose events are all in ``events`` project correctly: pass whole streams.
    """
    tournament = events.filter(pl.col("stream_id").str.starts_with(TOURNAMENT_PREFIX))
    tournaments = _tournaments(tournament)
    ids = _player_id(tournaments, _players(tournament))
    seat_a = ids.select("stream_id", pl.col("player").alias("white"), pl.col("player_id"))
    seat_b = ids.select("stream_id", pl.col("player").alias("black"), pl.col("player_id"))
    games = (
        _boards(tournament)
        .filter(pl.col("black").is_not_null())
        .join(_results(tournament), on=["stream_id", "round", "board"], how="inner")
        .filter(pl.col("outcome").is_in(list(_RATED_OUTCOMES)))
        .join(tournaments, on="stream_id", how="inner")
        .join(_round_dates(tournament), on=["stream_id", "round"], how="left")
        .with_columns(pl.coalesce("round_date", "date").alias("date"))
        .filter(pl.col("weight").is_not_null() & pl.col("game").is_in(_GAMES))
        .join(seat_a, on=["stream_id", "white"], how="inner")
        .join(seat_b, on=["stream_id", "black"], how="inner", suffix="_b")
        .filter(pl.col("player_id") != pl.col("player_id_b"))
    )
    is_go = pl.col("game") == "go"
    table = games.select(
        "date",
        "event",
        pl.col("player_id").alias("player_a"),
        pl.col("player_id_b").alias("player_b"),
        pl.col("outcome").replace_strict(_RATED_OUTCOMES, return_dtype=pl.Float64).alias("score_a"),
        "weight",
        "game",
        pl.when(pl.col("game").is_in(_COLOURED_GAMES) & ~pl.col("unmarked"))
        .then(pl.lit("white"))
        .alias("color_a"),
        pl.when(is_go).then(pl.col("handicap").fill_null(0)).alias("handicap"),
        pl.when(is_go).then(pl.col("komi")).alias("komi"),
        "rating_type",
        pl.col("stream_id").alias("stream"),
        "round",
        "board",
        pl.col("rpos").alias("position"),
        "event_start",
        "event_end",
    ).sort("date", "event", "round", "board")
    registrations = (
        ids.filter(pl.col("player_id").is_not_null())
        .sort("position")
        .unique(["stream_id", "player_id"], keep="last", maintain_order=True)
        .select(pl.col("stream_id").alias("stream"), *list(REGISTRATIONS_SCHEMA)[1:])
    )
    return Projection(
        games=table.cast(pl.Schema(GAMES_TABLE_SCHEMA)),
        registrations=registrations.cast(pl.Schema(REGISTRATIONS_SCHEMA)),
        registry=_registry(events.filter(pl.col("stream_id").str.starts_with(REGISTRY_PREFIX))),
    )


def players_table(registrations: pl.DataFrame, registry: pl.DataFrame) -> pl.DataFrame:
    """One row per player id (:data:`ratings.games.PLAYERS_SCHEMA` plus ``rating``): the
    registry's name and country when it has them, else the latest tournament registration's;
    ``rating`` and ``grade`` (go rank) are the ones the player's earliest registration that
    has them gave (a method's prior)."""
    latest = (
        pl.concat(
            [
                registrations.select(
                    "player_id", "name", "country", "birth_year", "position"
                ).with_columns(pl.lit(0).alias("source")),
                registry.with_columns(pl.lit(1).alias("source")),
            ],
            how="vertical_relaxed",
        )
        .sort("source", "position")
        .group_by("player_id")
        .agg(pl.col(c).drop_nulls().last() for c in ("name", "country", "birth_year"))
    )
    first = (
        registrations.sort("position")
        .group_by("player_id")
        .agg(pl.col(c).drop_nulls().first() for c in ("rating", "grade"))
    )
    return (
        latest.join(first, on="player_id", how="left")
        .sort("player_id")
        .cast(pl.Schema({**PLAYERS_SCHEMA, "rating": pl.Float64(), "grade": pl.Utf8()}))
    )


TOURNAMENT_MARKS: dict[str, pl.DataType] = {
    "event": pl.Utf8(),
    "last_day": pl.Date(),
    "last_position": pl.Int64(),
}
"""Per tournament of a games table: the latest of its games' dates and its stated last day,
and the log position of its latest game (:func:`tournament_marks`)."""

_MARKED = ("event", "date", "event_end", "position")


def tournament_marks(games: pl.DataFrame) -> pl.DataFrame:
    """:data:`TOURNAMENT_MARKS` of ``games`` (a table with ``event``, ``date``, ``event_end``
    and ``position``), sorted by event: enough to tell the tournaments a FIDE run may rate
    without reading their games (a tournament ends no later than ``last_day``, and its first
    result was recorded no later than ``last_position``).

    >>> day = dt.date
    >>> games = pl.DataFrame({"event": ["A", "A", "B"], "date": [day(2026, 1, 2),
    ...     day(2026, 1, 9), day(2026, 2, 1)], "event_end": [day(2026, 1, 10)] * 2 + [None],
    ...     "position": [5, 7, 3]})
    >>> tournament_marks(games).rows()
    [('A', datetime.date(2026, 1, 10), 7), ('B', datetime.date(2026, 2, 1), 3)]
    """
    return (
        games.group_by("event")
        .agg(
            pl.max_horizontal(pl.col("date").max(), pl.col("event_end").max()).alias("last_day"),
            pl.col("position").max().alias("last_position"),
        )
        .sort("event")
        .cast(pl.Schema(TOURNAMENT_MARKS))
    )


# ---------------------------------------------------------------------------- materialised


class EventSource(Protocol):
    """What the cache reads from a store."""

    def read_frame(
        self, after_position: int = 0, stream_prefix: str | None = None
    ) -> pl.DataFrame: ...

    def log_epoch(self) -> int: ...


class CachedStore(EventSource, Protocol):
    """A store that keeps projection caches (`events.store.Store.open_cache`)."""

    def open_cache(
        self, name: str, tables: Mapping[str, Mapping[str, pl.DataType]]
    ) -> TableCache: ...


@dataclass(frozen=True, slots=True)
class SyncReport:
    """What a :meth:`GamesCache.sync` did."""

    rebuilt: bool
    streams: int
    """Tournament streams projected (all of them on a rebuild)."""
    games: int
    """Rows in the games table afterwards."""
    checkpoint: int
    """Last log position read."""
    source_position: int
    """Last position of an event the table depends on (tournament and registry streams)."""
    seconds: float


_META_KEYS = ("version", "epoch", "checkpoint", "source_position", "checkpoint_id")


def _last_position(frame: pl.DataFrame) -> int:
    return int(frame.select(pl.col("global_position").max()).item() or 0)


def _id_hash(event_id: str) -> int:
    """A 63-bit fingerprint of the checkpoint event's id (the meta table holds integers)."""
    return int.from_bytes(hashlib.sha256(event_id.encode()).digest()[:8], "big") >> 1


_REGISTRY_SCHEMA: dict[str, pl.DataType] = {
    "player_id": pl.Utf8(),
    "name": pl.Utf8(),
    "country": pl.Utf8(),
    "birth_year": pl.Int64(),
    "position": pl.Int64(),
}

CACHE_TABLES: dict[str, dict[str, pl.DataType]] = {
    "games": GAMES_TABLE_SCHEMA,
    "registrations": REGISTRATIONS_SCHEMA,
    "registry": _REGISTRY_SCHEMA,
}
"""The tables of the games cache."""


class GamesCache:
    """The games table materialised in a projection cache, kept up to date from the log.

    The store decides where the cache lives (:meth:`for_store`); ``GamesCache()`` is an
    in-memory cache.

    >>> cache = GamesCache()
    >>> cache.games().height
    0
    """

    def __init__(
        self, cache: TableCache | str = ":memory:", *, incremental_limit: int = 64
    ) -> None:
        self._cache = (
            cache
            if isinstance(cache, TableCache)
            else TableCache(cache, CACHE_TABLES, name="games")
        )
        self.path = self._cache.path
        self.incremental_limit = incremental_limit
        """Above this many touched streams, re-read all tournament streams in one scan."""
        if self._cache.meta().get("version", PROJECTION_VERSION) != PROJECTION_VERSION:
            # Another version's tables may have other columns: start them afresh.
            self._cache.recreate()

    @classmethod
    def for_store(cls, store: CachedStore) -> GamesCache:
        """The store's own games cache (beside a DuckDB file, in the cache folder for a
        server)."""
        return cls(store.open_cache("games", CACHE_TABLES))

    def close(self) -> None:
        self._cache.close()

    def __enter__(self) -> GamesCache:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def source_position(self) -> int:
        return self._cache.meta().get("source_position", 0)

    def sync(self, store: EventSource) -> SyncReport:
        """Bring the table up to the end of the log: incrementally, or by a rebuild when the
        log's epoch (or this module's projection version) changed since the checkpoint."""
        started = time.perf_counter()
        meta = self._cache.meta()
        epoch = store.log_epoch()
        fresh = all(k in meta for k in _META_KEYS) and (
            meta["version"] == PROJECTION_VERSION and meta["epoch"] == epoch
        )
        after = meta["checkpoint"] if fresh else 0
        # Read from the checkpoint event itself, to see that it is still the one we read.
        new = store.read_frame(after_position=max(after - 1, 0))
        if after:
            head = new.head(1)
            if head.height == 0 or (
                head.item(0, "global_position") != after
                or _id_hash(str(head.item(0, "event_id"))) != meta.get("checkpoint_id")
            ):
                fresh, after = False, 0  # another log under the same name
                new = store.read_frame()
            else:
                new = new.slice(1)
        checkpoint = _last_position(new) or after
        relevant = new.filter(
            pl.col("stream_id").str.starts_with(TOURNAMENT_PREFIX)
            | pl.col("stream_id").str.starts_with(REGISTRY_PREFIX)
        )
        source = _last_position(relevant)
        source = max(source, meta.get("source_position", 0) if fresh else 0)
        touched = (
            relevant.filter(pl.col("stream_id").str.starts_with(TOURNAMENT_PREFIX))
            .get_column("stream_id")
            .unique()
            .sort()
            .to_list()
        )
        projection: Projection | None = None
        if fresh and relevant.height == 0:
            pass  # nothing the tables depend on: only the checkpoint moves
        elif fresh and touched:
            # Re-project touched streams whole: results join pairings and registrations. A
            # stream begun after the checkpoint is whole in what was just read; only the
            # others are read again (a month of new tournaments reads none of the history).
            arrived = relevant.filter(pl.col("stream_id").str.starts_with(TOURNAMENT_PREFIX))
            began = (
                arrived.group_by("stream_id")
                .agg(pl.col("stream_version").min())
                .filter(pl.col("stream_version") == 0)
                .get_column("stream_id")
            )
            older = sorted(set(touched) - set(began.to_list()))
            parts = [arrived.filter(pl.col("stream_id").is_in(began.implode()))]
            if len(older) > self.incremental_limit:
                parts.append(store.read_frame(stream_prefix=TOURNAMENT_PREFIX))
            else:
                parts += [
                    store.read_frame(stream_prefix=s).filter(pl.col("stream_id") == s)
                    for s in older
                ]
            events = pl.concat(
                [parts[0], *(p.filter(pl.col("stream_id").is_in(older)) for p in parts[1:])],
                how="vertical",
            ).sort("global_position")
            registry_events = relevant.filter(pl.col("stream_id").str.starts_with(REGISTRY_PREFIX))
            projection = project(pl.concat([events, registry_events], how="vertical"))
        else:
            projection = project(relevant)
        last_id = new["event_id"][-1] if new.height else None
        self._cache.write(
            clear=not fresh,
            delete=dict.fromkeys(("games", "registrations"), ("stream", touched))
            if fresh
            else None,
            inserts={
                "games": projection.games,
                "registrations": projection.registrations,
                "registry": projection.registry,
            }
            if projection is not None
            else {},
            meta={
                "version": PROJECTION_VERSION,
                "epoch": epoch,
                "checkpoint": checkpoint,
                "source_position": source,
                "checkpoint_id": _id_hash(str(last_id))
                if last_id is not None
                else meta.get("checkpoint_id", 0),
            },
        )
        return SyncReport(
            rebuilt=not fresh,
            streams=len(touched),
            games=self._cache.count("games"),
            checkpoint=checkpoint,
            source_position=source,
            seconds=time.perf_counter() - started,
        )

    def games(self, *, full: bool = False) -> pl.DataFrame:
        """The games table (:data:`ratings.games.GAMES_SCHEMA`; ``full`` adds where each game
        is in the log), sorted by date, event, round, board."""
        columns = GAMES_TABLE_SCHEMA if full else GAMES_SCHEMA
        return self._cache.read(
            "games", list(columns), order_by=["date", "event", "round", "board"]
        )

    def tournaments(self, before: dt.date) -> pl.DataFrame:
        """:func:`tournament_marks` of the games dated before ``before``: four columns of the
        table read, one row per tournament given."""
        games = self._cache.read(
            "games", list(_MARKED), where="date < $before", params={"before": before}
        )
        return tournament_marks(games)

    def games_of(self, events: Sequence[str], before: dt.date) -> pl.DataFrame:
        """The games of the tournaments ``events`` dated before ``before`` (the full table's
        columns, in :meth:`games`' order): only their rows are read."""
        return self._cache.read(
            "games",
            list(GAMES_TABLE_SCHEMA),
            order_by=["date", "event", "round", "board"],
            where="date < $before AND event IN (SELECT unnest($events))",
            params={"before": before, "events": list(events)},
        )

    def players(self) -> pl.DataFrame:
        """The players table (:data:`ratings.games.PLAYERS_SCHEMA`), sorted by id."""
        return players_table(self._cache.read("registrations"), self._cache.read("registry"))
