"""The games table and players table that every rating method reads.

The projection layer produces these frames from the event log; the rating modules only read
them. :func:`validate_games` and :func:`validate_players` check a frame against the schema and
raise :class:`SchemaError` naming the frame, the column (and row) and what was found versus
what was expected.
"""

from __future__ import annotations

import datetime as dt
import enum
from collections.abc import Mapping, Sequence

import polars as pl

from events.errors import UserError


class GameKind(enum.StrEnum):
    """The game a result belongs to."""

    CHESS = "chess"
    GO = "go"
    OTHELLO = "othello"
    CARROM = "carrom"


class Color(enum.StrEnum):
    """Player a's colour, when the format records it."""

    WHITE = "white"
    BLACK = "black"


GAMES_SCHEMA: Mapping[str, pl.DataType] = {
    "date": pl.Date(),
    "event": pl.Utf8(),
    "player_a": pl.Utf8(),
    "player_b": pl.Utf8(),
    "score_a": pl.Float64(),
    "weight": pl.Float64(),
    "game": pl.Utf8(),
    "color_a": pl.Utf8(),
    "handicap": pl.Int64(),
    "komi": pl.Float64(),
}
"""Column → dtype of the games table. One row is one game seen from player a."""

GAMES_NULLABLE = frozenset({"color_a", "handicap", "komi"})
"""Columns of the games table that may hold nulls."""

GAMES_OPTIONAL: Mapping[str, pl.DataType] = {
    "event_start": pl.Date(),
    "event_end": pl.Date(),
}
"""Columns a games table may add, checked for type when present, nullable: the tournament's
first and last day. A method that needs them (the FIDE list run, :mod:`ratings.fide_run`)
falls back to the earliest and latest ``date`` of the event where they are absent or null."""

PLAYERS_SCHEMA: Mapping[str, pl.DataType] = {
    "player_id": pl.Utf8(),
    "name": pl.Utf8(),
    "country": pl.Utf8(),
    "birth_year": pl.Int64(),
}
"""Required columns of the players table; methods may read further optional columns."""

PLAYERS_NULLABLE = frozenset({"name", "country", "birth_year"})

PLAYERS_OPTIONAL: Mapping[str, pl.DataType] = {
    "rating": pl.Float64(),
    "games": pl.Int64(),
    "k_reached_2400": pl.Boolean(),
}
"""Method-specific columns; checked for type when present (FIDE: prior rating, games, K=10)."""

_SCORES = (0.0, 0.5, 1.0)


def months_before(day: dt.date, months: int) -> dt.date:
    """The first day of the month ``months`` before ``day``'s month (0: its own month)."""
    index = day.year * 12 + day.month - 1 - months
    return dt.date(index // 12, index % 12 + 1, 1)


class SchemaError(UserError):
    """A games or players frame that does not match the schema."""


def _where(frame_name: str, column: str, row: int | None = None) -> str:
    return f"{frame_name}:{column}" if row is None else f"{frame_name}:{column}:row {row}"


def _check_columns(
    frame: pl.DataFrame,
    schema: Mapping[str, pl.DataType],
    nullable: frozenset[str],
    frame_name: str,
    *,
    required: bool,
) -> None:
    for column, dtype in schema.items():
        if column not in frame.columns:
            if required:
                raise SchemaError(
                    f"{_where(frame_name, column)}: column missing; expected {dtype} "
                    f"(found columns {', '.join(frame.columns)})"
                )
            continue
        found = frame.schema[column]
        if found != dtype and not (found == pl.Null and column in nullable):
            raise SchemaError(
                f"{_where(frame_name, column)}: found dtype {found}, expected {dtype}"
            )
        if column not in nullable:
            nulls = frame.get_column(column).is_null()
            if nulls.any():
                row = int(nulls.arg_max() or 0)
                raise SchemaError(
                    f"{_where(frame_name, column, row)}: found null, expected a value"
                )


def _first_bad(mask: pl.Series) -> int | None:
    """Row index of the first True in mask, or None."""
    if not mask.any():
        return None
    return int(mask.arg_max() or 0)


def validate_games(frame: pl.DataFrame, *, frame_name: str = "games") -> pl.DataFrame:
    """Check a games table against :data:`GAMES_SCHEMA` and the value rules; return it.

    Value rules: score_a ∈ {0, ½, 1}; weight > 0 and finite; game a :class:`GameKind`;
    color_a null or a :class:`Color`; handicap ≥ 0; a player never plays themselves; where
    both are given, a tournament does not end before it starts (:data:`GAMES_OPTIONAL`).

    :raises SchemaError: on the first violation, naming column and row.
    """
    _check_columns(frame, GAMES_SCHEMA, GAMES_NULLABLE, frame_name, required=True)
    _check_columns(frame, GAMES_OPTIONAL, frozenset(GAMES_OPTIONAL), frame_name, required=False)
    checks: Sequence[tuple[str, pl.Expr, str]] = (
        ("score_a", ~pl.col("score_a").is_in(_SCORES), "one of 0, 0.5, 1"),
        ("weight", ~(pl.col("weight").is_finite() & (pl.col("weight") > 0)), "a positive weight"),
        ("game", ~pl.col("game").is_in([k.value for k in GameKind]), "chess/go/othello/carrom"),
        (
            "color_a",
            pl.col("color_a").is_not_null() & ~pl.col("color_a").is_in([c.value for c in Color]),
            "null, white or black",
        ),
        ("handicap", pl.col("handicap").is_not_null() & (pl.col("handicap") < 0), "≥ 0 or null"),
        ("player_b", pl.col("player_a") == pl.col("player_b"), "an opponent other than player_a"),
    )
    if {"event_start", "event_end"} <= set(frame.columns):
        checks = (
            *checks,
            ("event_end", pl.col("event_end") < pl.col("event_start"), "a day ≥ event_start"),
        )
    if frame.height == 0:
        return frame
    flags = frame.select([expr.fill_null(value=False).alias(column) for column, expr, _ in checks])
    for column, _, expected in checks:
        row = _first_bad(flags.get_column(column))
        if row is not None:
            found = frame.get_column(column)[row]
            raise SchemaError(
                f"{_where(frame_name, column, row)}: found {found!r}, expected {expected}"
            )
    return frame


def validate_players(frame: pl.DataFrame, *, frame_name: str = "players") -> pl.DataFrame:
    """Check a players table against :data:`PLAYERS_SCHEMA` (and optional columns); return it.

    :raises SchemaError: on a missing column, a wrong dtype, a null id or a duplicate id.
    """
    _check_columns(frame, PLAYERS_SCHEMA, PLAYERS_NULLABLE, frame_name, required=True)
    _check_columns(frame, PLAYERS_OPTIONAL, frozenset(PLAYERS_OPTIONAL), frame_name, required=False)
    duplicated = _first_bad(~frame.get_column("player_id").is_first_distinct())
    if duplicated is not None:
        found = frame.get_column("player_id")[duplicated]
        raise SchemaError(
            f"{_where(frame_name, 'player_id', duplicated)}: found duplicate id {found!r}, "
            "expected unique ids"
        )
    return frame


def games_frame(
    *,
    date: Sequence[dt.date],
    player_a: Sequence[str],
    player_b: Sequence[str],
    score_a: Sequence[float],
    game: GameKind | str,
    event: Sequence[str] | str = "",
    weight: Sequence[float] | float = 1.0,
    color_a: Sequence[str | None] | None = None,
    handicap: Sequence[int | None] | None = None,
    komi: Sequence[float | None] | None = None,
    event_start: Sequence[dt.date | None] | dt.date | None = None,
    event_end: Sequence[dt.date | None] | dt.date | None = None,
) -> pl.DataFrame:
    """Build a validated games table from columns; scalars are broadcast, omitted optionals null.

    ``event_start`` and ``event_end`` (:data:`GAMES_OPTIONAL`) add their columns only when
    given.

    >>> import datetime as dt
    >>> games_frame(date=[dt.date(2024, 1, 6)], player_a=["A"], player_b=["B"],
    ...             score_a=[1.0], game="chess").shape
    (1, 10)
    """
    n = len(date)

    def column(value: Sequence[object] | object, name: str) -> list[object]:
        if isinstance(value, Sequence) and not isinstance(value, str):
            if len(value) != n:
                raise SchemaError(
                    f"games:{name}: found {len(value)} values, expected {n} (one per game)"
                )
            return list(value)
        return [value] * n

    data: dict[str, list[object]] = {
        "date": list(date),
        "event": column(event, "event"),
        "player_a": column(player_a, "player_a"),
        "player_b": column(player_b, "player_b"),
        "score_a": [float(s) for s in column(score_a, "score_a")],  # type: ignore[arg-type]
        "weight": [float(w) for w in column(weight, "weight")],  # type: ignore[arg-type]
        "game": column(str(game), "game"),
        "color_a": column(color_a, "color_a"),
        "handicap": column(handicap, "handicap"),
        "komi": column(komi, "komi"),
    }
    schema = dict(GAMES_SCHEMA)
    for name, days in (("event_start", event_start), ("event_end", event_end)):
        if days is not None:
            data[name] = column(days, name)
            schema[name] = GAMES_OPTIONAL[name]
    return validate_games(pl.DataFrame(data, schema=schema))
