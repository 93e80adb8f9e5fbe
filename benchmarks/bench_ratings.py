"""Rating benchmarks: WOF reproduction figures and fit timings.

``run()`` returns:

* ``reproduction``: per official snapshot (othello/ratings/joueurs_*.txt), our list against it
  under several views of which results it used (tests/ratings/wof_reference.py):
  ``archive_state`` (the default: the events and calculation date the snapshot itself
  records), the current archive and generic reporting-lag rules at that calculation date, and
  the current archive with the best of the candidate list months (a fit, for comparison);
  per World Championship file the embedded ratings against the list of the month before.
* ``timings``: parsing the .ELO archive and fitting the full WOF list on it (target <= 3 s).
* ``synthetic``: 10M games / 1M players (target <= 60 s, peak RSS <= 4 GB). Heavy: it runs
  only with ``ARBITER_BENCH_HEAVY=1``; the size can be changed with ``ARBITER_BENCH_GAMES`` and
  ``ARBITER_BENCH_PLAYERS``.

Run alone with ``python -m benchmarks.bench_ratings`` from the repository root.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import resource
import threading
import time
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
import psutil  # type: ignore[import-untyped]

from ingest.elo import parse_elo
from ratings.games import GAMES_SCHEMA, months_before
from ratings.wof import fit_wof
from tests.ratings.wof_reference import (
    agreement,
    archive_events,
    archive_games,
    archive_state,
    best_candidate,
    compare,
    read_player_file,
    reporting_lag,
    snapshot_date,
)

TESTDATA = Path(__file__).resolve().parent.parent.parent / "shared" / "testdata" / "othello"
WOC_FILES = (
    "2012/20121108_WOC_2012.ELO",
    "2013/20131024_WOC_2013.ELO",
    "2015/20151029_WOC_2015.ELO",
    "2019/20191009_WOC_2019.ELO",
    "2025/20251113_WOC_2025.ELO",
)


class _PeakRss:
    """Samples this process's resident set size in a background thread."""

    def __init__(self, interval: float = 0.05) -> None:
        self._process = psutil.Process()
        self._interval = interval
        self._stop = threading.Event()
        self.peak = self._process.memory_info().rss
        self._thread = threading.Thread(target=self._sample, daemon=True)

    def _sample(self) -> None:
        while not self._stop.is_set():
            self.peak = max(self.peak, self._process.memory_info().rss)
            self._stop.wait(self._interval)

    def __enter__(self) -> _PeakRss:
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._stop.set()
        self._thread.join()
        self.peak = max(self.peak, self._process.memory_info().rss)


def _threads() -> dict[str, Any]:
    return {
        "cpu_count": os.cpu_count(),
        "polars_threads": pl.thread_pool_size(),
        "OPENBLAS_NUM_THREADS": os.environ.get("OPENBLAS_NUM_THREADS"),
        "note": "the WOF solver does no BLAS calls (sparse matvec and numpy reductions only)",
        "load_average": [round(x, 2) for x in os.getloadavg()],
    }


LAG_VARIANTS: dict[str, tuple[int, tuple[str, ...] | None]] = {
    "japan_lag_90d": (90, ("Japan",)),
    "all_lag_30d": (30, None),
    "all_lag_60d": (60, None),
    "all_lag_90d": (90, None),
}
"""Generic reporting-delay rules: (days, countries or None for all) left out before the cutoff."""


def snapshot_variants(path: Path, games: pl.DataFrame, events: pl.DataFrame) -> dict[str, Any]:
    official = read_player_file(path)
    state = archive_state(games, events, official, snapshot_date(path))
    as_of = state.as_of
    recorded = games.filter(pl.col("event").is_in(list(state.events)))
    figures: dict[str, Any] = {
        "as_of": f"{as_of}",
        "archive_state": compare(recorded, as_of, official).as_dict(),
        "current_archive": compare(games, as_of, official).as_dict(),
    }
    for name, (days, countries) in LAG_VARIANTS.items():
        kept = reporting_lag(games, events, as_of, dt.timedelta(days=days), countries)
        figures[name] = compare(kept, as_of, official).as_dict()
    best = best_candidate(path, games)
    figures["current_archive_best_month"] = {"as_of": f"{best.as_of}", **best.agreement.as_dict()}
    return figures


def reproduction() -> dict[str, Any]:
    root = TESTDATA / "elo"
    games, events = archive_games(root), archive_events(root)
    snapshots = {
        path.name: snapshot_variants(path, games, events)
        for path in sorted((TESTDATA / "ratings").glob("joueurs_*.txt"))
    }
    championships: dict[str, Any] = {}
    for name in WOC_FILES:
        event = parse_elo(root / name)
        official = pl.DataFrame(
            {
                "player_id": [str(p.wof_id) for p in event.players],
                "rating": [p.rating or None for p in event.players],
            },
            schema={"player_id": pl.Utf8, "rating": pl.Int64},
        )
        ours = fit_wof(games, months_before(event.start, 0)).players
        championships[name] = agreement(ours, official).as_dict()
    return {"snapshots": snapshots, "world_championships": championships}


def archive_timing(repeats: int = 3) -> dict[str, Any]:
    root = TESTDATA / "elo"
    start = time.perf_counter()
    games = archive_games(root)  # cached after the first call in this process
    parse_seconds = time.perf_counter() - start
    as_of = dt.date(2026, 1, 1)
    walls = []
    fit = None
    for _ in range(repeats):
        start = time.perf_counter()
        fit = fit_wof(games, as_of)
        walls.append(time.perf_counter() - start)
    assert fit is not None
    return {
        "games": games.height,
        "players": fit.players.height,
        "rated": int(fit.players.get_column("rating").is_not_null().sum()),
        "listed": fit.listing.height,
        "official": int(fit.listing.get_column("official").sum()),
        "parse_seconds_first_call": round(parse_seconds, 3),
        "fit_seconds_best": round(min(walls), 3),
        "fit_seconds_all": [round(w, 3) for w in walls],
        "newton_steps": fit.newton_steps,
        "cg_iterations": fit.cg_iterations,
    }


def synthetic_games(n_games: int, n_players: int, seed: int = 1) -> pl.DataFrame:
    """Synthetic Swiss events over five years: 32 players, 7 rounds, 5 % draws.

    Players belong to regions of 5,000; an event draws 90 % of its field from one region and
    10 % from anywhere. Each round pairs neighbours in a noisy strength order, as Swiss
    pairing by score does.
    """
    rng = np.random.default_rng(seed)
    field, rounds, region_size = 32, 7, 5000
    regions = max(1, n_players // region_size)
    strength = rng.normal(0.0, 1.2, n_players)
    n_events = -(-n_games // (field // 2 * rounds))
    region = rng.integers(0, regions, (n_events, 1))
    local = region * region_size + rng.integers(0, min(region_size, n_players), (n_events, field))
    anywhere = rng.integers(0, n_players, (n_events, field))
    players = np.where(rng.random((n_events, field)) < 0.9, local % n_players, anywhere)
    day = rng.integers(0, 5 * 365, n_events)
    a_parts, b_parts = [], []
    for _ in range(rounds):
        keys = strength[players] + rng.normal(0.0, 0.7, players.shape)
        order = np.take_along_axis(players, np.argsort(keys, axis=1), axis=1)
        a_parts.append(order[:, 0::2])
        b_parts.append(order[:, 1::2])
    a = np.concatenate(a_parts, axis=1).ravel()[:n_games]
    b = np.concatenate(b_parts, axis=1).ravel()[:n_games]
    days = np.repeat(day, field // 2 * rounds)[:n_games]
    keep = a != b  # a player drawn twice into one field
    a, b, days = a[keep], b[keep], days[keep]
    p = 1.0 / (1.0 + np.exp(-(strength[a] - strength[b])))
    score = np.where(rng.random(a.size) < 0.05, 0.5, (rng.random(a.size) < p).astype(np.float64))
    frame = pl.DataFrame(
        {
            "date": pl.Series(np.datetime64("2021-01-01") + days.astype("timedelta64[D]")).cast(
                pl.Date
            ),
            "a": a,
            "b": b,
            "score_a": score,
        }
    )
    return frame.select(
        "date",
        pl.lit("synthetic").alias("event"),
        pl.format("p{}", pl.col("a")).alias("player_a"),
        pl.format("p{}", pl.col("b")).alias("player_b"),
        "score_a",
        pl.lit(1.0).alias("weight"),
        pl.lit("othello").alias("game"),
        pl.lit(None, dtype=pl.Utf8).alias("color_a"),
        pl.lit(None, dtype=pl.Int64).alias("handicap"),
        pl.lit(None, dtype=pl.Float64).alias("komi"),
    ).cast(dict(GAMES_SCHEMA))  # type: ignore[arg-type]


def synthetic_timing(n_games: int, n_players: int) -> dict[str, Any]:
    start = time.perf_counter()
    games = synthetic_games(n_games, n_players)
    generate_seconds = time.perf_counter() - start
    with _PeakRss() as peak:
        start = time.perf_counter()
        fit = fit_wof(games, dt.date(2026, 1, 1))
        wall = time.perf_counter() - start
    return {
        "games": games.height,
        "players": n_players,
        "generate_seconds": round(generate_seconds, 2),
        "fit_seconds": round(wall, 2),
        "games_per_second": round(games.height / wall),
        "newton_steps": fit.newton_steps,
        "cg_iterations": fit.cg_iterations,
        "rated": int(fit.players.get_column("rating").is_not_null().sum()),
        "peak_rss_gb_during_fit": round(peak.peak / 2**30, 2),
        "max_rss_gb_process": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20, 2),
    }


def run() -> dict[str, Any]:
    """Every figure of this benchmark (the heavy synthetic run only when enabled)."""
    figures: dict[str, Any] = {"threads": _threads()}
    if (TESTDATA / "elo").exists():
        figures["archive"] = archive_timing()
        figures["reproduction"] = reproduction()
    else:
        figures["archive"] = {"skipped": f"{TESTDATA / 'elo'} not found"}
    if os.environ.get("ARBITER_BENCH_HEAVY") == "1":
        n_games = int(os.environ.get("ARBITER_BENCH_GAMES", "10000000"))
        n_players = int(os.environ.get("ARBITER_BENCH_PLAYERS", "1000000"))
        figures["synthetic"] = synthetic_timing(n_games, n_players)
    else:
        figures["synthetic"] = {"skipped": "set ARBITER_BENCH_HEAVY=1 (10M games, 1M players)"}
    return figures


if __name__ == "__main__":
    print(json.dumps(run(), indent=2))
