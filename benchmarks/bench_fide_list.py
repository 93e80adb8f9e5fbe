"""The FIDE list run (ratings/fide_run.py) at the size of FIDE's standard list.

A synthetic period: two imported lists of 1.2 million players (the previous list and the one
before it, ids as FIDE prints them), 100,000 games in 2,000 tournaments of 50 games each, a
fifth of which started in the month before the period (they read the older list), among
150,000 listed players and 2,000 newcomers no list carries. Figures: the wall time of
:func:`ratings.fide_run.run_fide_list` (best of ``repeats``), the rows it returns, and the
process's peak RSS before and after (the frames themselves are built first).
"""

from __future__ import annotations

import datetime as dt
import resource
import time
from typing import Any

import numpy as np
import polars as pl

LISTED = 1_200_000
GAMES = 100_000
EVENTS = 2_000
ACTIVE = 150_000
NEWCOMERS = 2_000
LIST_DATE = dt.date(2025, 12, 1)


def _peak_mb() -> float:
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


def _lists(rng: np.random.Generator) -> dict[dt.date, pl.DataFrame]:
    ids = pl.Series("player_id", np.arange(1_000_000, 1_000_000 + LISTED)).cast(pl.Utf8)
    rating = rng.integers(1400, 2850, LISTED)
    rated = rng.random(LISTED) > 0.1
    frame = pl.DataFrame(
        {
            "player_id": ids,
            "rating": pl.Series(np.where(rated, rating, 0)).replace(0, None),
            "k": pl.Series(rng.choice([10, 20, 40], LISTED)),
            "games": pl.Series(np.zeros(LISTED, dtype=np.int64)),
            "birth_year": pl.Series(rng.integers(1940, 2018, LISTED)),
            "sex": pl.Series(rng.choice(["M", "F"], LISTED)),
            "flag": pl.Series(rng.choice(["", "i", "w", "wi"], LISTED)).replace("", None),
        }
    ).cast({"rating": pl.Int64, "k": pl.Int64, "games": pl.Int64, "birth_year": pl.Int64})
    older = frame.with_columns(pl.col("rating") - 3)
    return {dt.date(2025, 10, 1): older, dt.date(2025, 11, 1): frame}


def _games(rng: np.random.Generator) -> pl.DataFrame:
    pool = np.concatenate(
        [
            np.char.add(
                "fide:", (1_000_000 + rng.choice(LISTED, ACTIVE, replace=False)).astype(str)
            ),
            np.char.add("new:", np.arange(NEWCOMERS).astype(str)),
        ]
    )
    pool = np.char.add(pool, "")  # one dtype for both halves
    a = rng.integers(0, len(pool), GAMES)
    b = (a + rng.integers(1, len(pool), GAMES)) % len(pool)
    event = rng.integers(0, EVENTS, GAMES)
    early = event < EVENTS // 5
    start = np.where(early, -4, event % 20)  # days after 1 November 2025
    base = np.datetime64("2025-11-01")
    starts = base + start.astype("timedelta64[D]")
    ends = starts + np.timedelta64(4, "D")
    return chess_games(pool, a, b, event, starts, ends, rng.choice([0.0, 0.5, 1.0], GAMES))


def chess_games(
    pool: Any, a: Any, b: Any, event: Any, starts: Any, ends: Any, scores: Any
) -> pl.DataFrame:
    """The games table of chess games between ``pool[a]`` and ``pool[b]`` (numpy arrays), each
    of event ``event-N`` started and ended on those days, White the first player."""
    from ratings.games import GAMES_OPTIONAL, GAMES_SCHEMA

    n = len(a)
    return pl.DataFrame(
        {
            "date": starts,
            "event": np.char.add("event-", event.astype(str)),
            "player_a": pool[a].astype(str),
            "player_b": pool[b].astype(str),
            "score_a": scores,
            "weight": np.ones(n),
            "game": ["chess"] * n,
            "color_a": ["white"] * n,
            "handicap": [None] * n,
            "komi": [None] * n,
            "event_start": starts,
            "event_end": ends,
        }
    ).cast(pl.Schema({**GAMES_SCHEMA, **GAMES_OPTIONAL}))


def run(repeats: int = 3) -> dict[str, Any]:
    from ratings.fide_run import run_fide_list

    rng = np.random.default_rng(20251201)
    lists = _lists(rng)
    games = _games(rng)
    built = _peak_mb()
    seconds = []
    result = None
    for _ in range(repeats):
        started = time.perf_counter()
        result = run_fide_list(games, lists, list_date=LIST_DATE)
        seconds.append(time.perf_counter() - started)
    assert result is not None
    return {
        "listed_players": LISTED,
        "games": games.height,
        "events": EVENTS,
        "seconds_best": round(min(seconds), 2),
        "seconds_all": [round(s, 2) for s in seconds],
        "new_list_rows": result.new_list.height,
        "changes_rows": result.changes.height,
        "tournament_rows": result.tournaments.height,
        "game_rows": result.games.height,
        "peak_rss_mb_inputs_built": built,
        "peak_rss_mb": _peak_mb(),
    }


if __name__ == "__main__":
    import json

    print(json.dumps(run(), indent=2))
