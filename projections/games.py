"""The games table the rating lists read: one row per rated game of every tournament in the log.

:func:`project` is pure: it turns events (the frame ``Store.read_frame`` returns) into the games
table of :mod:`ratings.games` plus a players table, with polars expressions over the JSON
payloads (no per-event model validation, so the whole WOF archive projects in seconds).
:class:`GamesCache` keeps the result materialised in a DuckDB file, advanced incrementally from a
checkpoint position and rebuilt when the store's ``log_epoch`` changes (a truncation or restore
rewrote history).

Which boards are rated games: both players present, a known over-the-board outcome (``1-0``,
``0-1``, draw). Byes, forfeits, double results (go ``0-0``/``1-1``) and unknown results are not
games. A player's id is the federation id of the tournament's game first (``fide:`` for chess,
``egd:`` for go, ``wof:`` for othello), then any other federation id, then the registry stream
that ingest linked the player to, then ``local:<tournament>#<number>``. A player the file does
not name (``??????``) gets no id, and the game is not rated.

A game is dated by its tournament's start date (then its end date, then the day its result was
recorded), as the WOF archive dates games by the file's start date.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import duckdb
import polars as pl

from events.duckdb_store import transaction
from events.errors import RetryableError
from ratings.games import GAMES_SCHEMA, PLAYERS_SCHEMA

__all__ = [
    "CLASS_WEIGHTS",
    "GAMES_TABLE_SCHEMA",
    "GamesCache",
    "Projection",
    "SyncReport",
    "cache_path_for",
    "project",
]

TOURNAMENT_PREFIX = "tournament-"
REGISTRY_PREFIX = "player-"

PROJECTION_VERSION = 3
"""Bump when the rows this module produces change; a cache of another version is rebuilt."""

GAMES_TABLE_SCHEMA: dict[str, pl.DataType] = {
    **GAMES_SCHEMA,
    "stream": pl.Utf8(),
    "round": pl.Int64(),
    "board": pl.Int64(),
    "position": pl.Int64(),
}
"""The materialised table: the ratings games schema plus where each game is in the log."""

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

CLASS_WEIGHTS: dict[str, float] = {"A": 1.0, "B": 0.75, "C": 0.5, "D": 0.25}
"""EGF tournament classes (ratings.md §4.4); class X events are not rated."""

_RATED_OUTCOMES = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}
_OWN_SCHEME = {"chess": "fide", "go": "egd", "othello": "wof"}
_GAMES = ("chess", "go", "othello", "carrom")
_ID_KEYS = {"fide": "fide_id", "egd": "egd_pin", "wof": "wof", "ffg": "ffg", "aga": "aga"}
_COLOURED_GAMES = ("chess", "go", "othello")

_CREATED = pl.Struct(
    {
        "tournament_id": pl.Utf8,
        "game": pl.Utf8,
        "start_date": pl.Utf8,
        "end_date": pl.Utf8,
        "pairing_params": pl.Struct(
            {"egf_class": pl.Utf8, "rating_class": pl.Utf8, "rating_weight": pl.Float64}
        ),
    }
)
_IDS = pl.Struct(dict.fromkeys(("egd_pin", "wof", "ffg", "aga", "registry"), pl.Utf8))
_PLAYER = pl.Struct(
    {
        "player": pl.Int64,
        "name": pl.Utf8,
        "federation": pl.Utf8,
        "fide_id": pl.Utf8,
        "birth": pl.Utf8,
        "rating": pl.Float64,
        "rank": pl.Utf8,
        "ids": _IDS,
    }
)
_BOARD = pl.Struct(
    {
        "board": pl.Int64,
        "white": pl.Int64,
        "black": pl.Int64,
        "handicap": pl.Int64,
        "komi": pl.Float64,
    }
)
_ROUND = pl.Struct({"round": pl.Int64, "boards": pl.List(_BOARD)})
_ROUND_META = pl.Struct({"elo_colours": pl.Utf8})
_RESULT = pl.Struct({"round": pl.Int64, "board": pl.Int64, "outcome": pl.Utf8})
_REGISTRY = pl.Struct({"name": pl.Utf8, "country": pl.Utf8, "birth": pl.Utf8})


@dataclass(frozen=True)
class Projection:
    """Games and registrations of a set of tournament streams, and the registry's players."""

    games: pl.DataFrame
    """:data:`GAMES_TABLE_SCHEMA`, sorted by date, event, round, board."""
    registrations: pl.DataFrame
    """:data:`REGISTRATIONS_SCHEMA`: one row per (stream, player id)."""
    registry: pl.DataFrame
    """player_id, name, country, birth_year, position: one row per registry event."""


def _of_type(events: pl.DataFrame, *types: str) -> pl.DataFrame:
    return events.filter(pl.col("event_type").is_in(types))


def _decode(frame: pl.DataFrame, dtype: pl.Struct, column: str = "payload") -> pl.DataFrame:
    return frame.with_columns(pl.col(column).str.json_decode(dtype).alias("_p")).unnest("_p")


def _birth_year(column: str) -> pl.Expr:
    return pl.col(column).str.extract(r"(\d{4})", 1).cast(pl.Int64, strict=False)


def _is_placeholder(column: str) -> pl.Expr:
    """Names converters invent for players a file does not name (``??????``, ``#123``)."""
    return pl.col(column).is_null() | (pl.col(column).str.strip_chars("?# 0123456789,") == "")


def _tournaments(events: pl.DataFrame) -> pl.DataFrame:
    created = _decode(_of_type(events, "TournamentCreated"), _CREATED).unnest("pairing_params")
    first_day = events.group_by("stream_id").agg(
        pl.col("recorded_at").min().dt.date().alias("first_day")
    )
    klass = pl.coalesce("rating_class", "egf_class").str.to_uppercase()
    return (
        created.join(first_day, on="stream_id", how="left")
        .select(
            "stream_id",
            pl.col("tournament_id").alias("event"),
            "game",
            pl.coalesce(
                pl.col("start_date").str.to_date(strict=False),
                pl.col("end_date").str.to_date(strict=False),
                "first_day",
            ).alias("date"),
            pl.coalesce(
                "rating_weight",
                klass.replace_strict(CLASS_WEIGHTS, default=None, return_dtype=pl.Float64),
                pl.when(klass.is_null()).then(pl.lit(1.0)),
            ).alias("weight"),
        )
        # A stream created twice cannot happen in a valid log; keep the latest anyway.
        .unique("stream_id", keep="last", maintain_order=True)
    )


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
    registered = _decode(_of_type(events, "PlayerRegistered"), _PLAYER).unnest("ids")
    updated = _decode(_of_type(events, "PlayerUpdated"), _PLAYER).drop("ids")
    both = pl.concat([registered, updated], how="diagonal_relaxed").sort("global_position")
    fields = [
        "name", "federation", "fide_id", "birth", "rating", "rank", "egd_pin", "wof", "ffg",
        "aga", "registry",
    ]  # fmt: skip
    return both.group_by("stream_id", "player", maintain_order=True).agg(
        *(pl.col(f).drop_nulls().last() for f in fields),
        pl.col("global_position").max(),
    )


def _boards(events: pl.DataFrame) -> pl.DataFrame:
    paired = (
        _decode(_of_type(events, "RoundPaired"), _ROUND)
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
        _decode(_of_type(events, "ResultRecorded", "ResultCorrected"), _RESULT)
        .sort("global_position")
        .unique(["stream_id", "round", "board"], keep="last", maintain_order=True)
        .select("stream_id", "round", "board", "outcome", pl.col("global_position").alias("rpos"))
    )


def _registry(events: pl.DataFrame) -> pl.DataFrame:
    rows = _decode(
        _of_type(events, "FederationPlayerRegistered", "FederationPlayerUpdated"), _REGISTRY
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
        pl.col("stream_id").alias("stream"),
        "round",
        "board",
        pl.col("rpos").alias("position"),
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


# ---------------------------------------------------------------------------- materialised


class EventSource(Protocol):
    """What the cache reads from a store."""

    def read_frame(
        self, after_position: int = 0, stream_prefix: str | None = None
    ) -> pl.DataFrame: ...

    def log_epoch(self) -> int: ...


class CacheBusy(RetryableError):
    """Another process holds the games cache file."""


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


def cache_path_for(store_path: str) -> str:
    """Where the cache of a store file lives: beside it (``arbiter.duckdb`` →
    ``arbiter.games.duckdb``); an in-memory store gets an in-memory cache."""
    if store_path == ":memory:":
        return ":memory:"
    path = Path(store_path)
    return str(path.with_name(path.stem + ".games.duckdb"))


def _connect(path: str, timeout: float = 10.0) -> duckdb.DuckDBPyConnection:
    deadline = time.monotonic() + timeout
    while True:
        try:
            return duckdb.connect(path)
        except duckdb.IOException as exc:
            if "lock" not in str(exc).lower() or time.monotonic() >= deadline:
                raise CacheBusy(f"{path}: games cache is busy or unreadable: {exc}") from exc
            time.sleep(0.05)


def _ddl(table: str, schema: dict[str, pl.DataType]) -> str:
    sql_types = {
        pl.Date(): "DATE",
        pl.Utf8(): "VARCHAR",
        pl.Float64(): "DOUBLE",
        pl.Int64(): "BIGINT",
    }
    columns = ", ".join(f'"{name}" {sql_types[dtype]}' for name, dtype in schema.items())
    return f"CREATE TABLE IF NOT EXISTS {table} ({columns})"


_REGISTRY_SCHEMA: dict[str, pl.DataType] = {
    "player_id": pl.Utf8(),
    "name": pl.Utf8(),
    "country": pl.Utf8(),
    "birth_year": pl.Int64(),
    "position": pl.Int64(),
}


class GamesCache:
    """The games table materialised in a DuckDB file, kept up to date from the log.

    >>> cache = GamesCache(":memory:")
    >>> cache.games().height
    0
    """

    def __init__(self, path: str = ":memory:", *, incremental_limit: int = 64) -> None:
        self.path = path
        self.incremental_limit = incremental_limit
        """Above this many touched streams, re-read all tournament streams in one scan."""
        if path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        self._con = _connect(path)
        self._con.execute("CREATE TABLE IF NOT EXISTS meta (key VARCHAR PRIMARY KEY, value BIGINT)")
        self._con.execute(_ddl("games", GAMES_TABLE_SCHEMA))
        self._con.execute(_ddl("registrations", REGISTRATIONS_SCHEMA))
        self._con.execute(_ddl("registry", _REGISTRY_SCHEMA))

    def close(self) -> None:
        self._con.close()

    def __enter__(self) -> GamesCache:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _meta(self) -> dict[str, int]:
        rows = self._con.execute("SELECT key, value FROM meta").fetchall()
        return {str(k): int(v) for k, v in rows}

    def _set_meta(self, values: dict[str, int]) -> None:
        for key, value in values.items():
            self._con.execute(
                "INSERT INTO meta VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = ?",
                [key, value, value],
            )

    @property
    def source_position(self) -> int:
        return self._meta().get("source_position", 0)

    def sync(self, store: EventSource) -> SyncReport:
        """Bring the table up to the end of the log: incrementally, or by a rebuild when the
        log's epoch (or this module's projection version) changed since the checkpoint."""
        started = time.perf_counter()
        meta = self._meta()
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
                fresh, after = False, 0  # another log under the same file name
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
        if fresh and touched:
            # Re-project touched streams whole: results join pairings and registrations.
            if len(touched) > self.incremental_limit:
                events = store.read_frame(stream_prefix=TOURNAMENT_PREFIX)
            else:
                events = pl.concat(
                    [
                        store.read_frame(stream_prefix=s).filter(pl.col("stream_id") == s)
                        for s in touched
                    ],
                    how="vertical",
                )
            events = events.filter(pl.col("stream_id").is_in(touched))
            registry_events = relevant.filter(pl.col("stream_id").str.starts_with(REGISTRY_PREFIX))
            projection = project(pl.concat([events, registry_events], how="vertical"))
        else:
            projection = project(relevant)
        with transaction(self._con) as con:
            if not fresh:
                for table in ("games", "registrations", "registry"):
                    con.execute(f"DELETE FROM {table}")
            elif touched:
                for table in ("games", "registrations"):
                    con.execute(f"DELETE FROM {table} WHERE list_contains(?, stream)", [touched])
            self._insert(con, "games", projection.games)
            self._insert(con, "registrations", projection.registrations)
            self._insert(con, "registry", projection.registry)
        last_id = new["event_id"][-1] if new.height else None
        self._set_meta(
            {
                "version": PROJECTION_VERSION,
                "epoch": epoch,
                "checkpoint": checkpoint,
                "source_position": source,
                "checkpoint_id": _id_hash(str(last_id))
                if last_id is not None
                else meta.get("checkpoint_id", 0),
            }
        )
        count = self._con.execute("SELECT count(*) FROM games").fetchall()[0][0]
        return SyncReport(
            rebuilt=not fresh,
            streams=len(touched),
            games=int(count),
            checkpoint=checkpoint,
            source_position=source,
            seconds=time.perf_counter() - started,
        )

    @staticmethod
    def _insert(con: duckdb.DuckDBPyConnection, table: str, frame: pl.DataFrame) -> None:
        if frame.height == 0:
            return
        con.register("_rows", frame.to_arrow())
        try:
            columns = ", ".join(f'"{c}"' for c in frame.columns)
            con.execute(f"INSERT INTO {table} ({columns}) SELECT {columns} FROM _rows")
        finally:
            con.unregister("_rows")

    def games(self, *, full: bool = False) -> pl.DataFrame:
        """The games table (:data:`ratings.games.GAMES_SCHEMA`; ``full`` adds where each game
        is in the log), sorted by date, event, round, board."""
        columns = GAMES_TABLE_SCHEMA if full else GAMES_SCHEMA
        select = ", ".join(f'"{c}"' for c in columns)
        frame: pl.DataFrame = self._con.sql(
            f"SELECT {select} FROM games ORDER BY date, event, round, board"
        ).pl()
        return frame.cast(pl.Schema(columns))

    def players(self) -> pl.DataFrame:
        """The players table (:data:`ratings.games.PLAYERS_SCHEMA`), sorted by id."""
        registrations: pl.DataFrame = self._con.sql("SELECT * FROM registrations").pl()
        registry: pl.DataFrame = self._con.sql("SELECT * FROM registry").pl()
        return players_table(
            registrations.cast(pl.Schema(REGISTRATIONS_SCHEMA)),
            registry.cast(pl.Schema(_REGISTRY_SCHEMA)),
        )
