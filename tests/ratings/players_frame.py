"""The players frame a FIDE list run reads beside its lists (``run_fide_list(players=...)``),
built from rows for the tests."""

from __future__ import annotations

import polars as pl

PLAYER_COLUMNS = {
    "player_id": pl.Utf8,
    "name": pl.Utf8,
    "country": pl.Utf8,
    "birth_year": pl.Int64,
    "rating": pl.Float64,
    "games": pl.Int64,
}


def players_frame(rows: list[tuple[str, str, float | None, int, int | None]]) -> pl.DataFrame:
    """One row per ``(player_id, name, rating, games, birth_year)``; no country."""
    return pl.DataFrame(
        [(pid, name, None, birth, rating, games) for pid, name, rating, games, birth in rows],
        schema=PLAYER_COLUMNS,
        orient="row",
    )
