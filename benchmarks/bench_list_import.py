"""`arbiter ratings import` of a FIDE list of FIDE's size, and a FIDE list run from it.

A synthetic combined XML list of 1.2 million players (FIDE's ``players_list_xml_foa.xml``
layout, every field of every player, seeded) is written to a temporary folder; the CLI imports
it into a fresh DuckDB store in a child process (wall time, CPU time and peak RSS of that
process from ``RUSAGE_CHILDREN``: the store's ``init`` before it is far smaller; on a shared
machine the wall time follows the load, the CPU time less so). Then a second child opens
the store and computes the December 2025 list from the imported November list with 100,000
games of 2,000 tournaments among 150,000 listed players and 2,000 newcomers
(:func:`pipelines.jobs.fide_lists.run_from_lists`: the list read from the store, the run, the
1.2-million-row listing shaped), and writes ``ratings.csv`` and ``ratings.parquet``; it
reports its own wall times and peak RSS. Targets (issue 32): import ≤ 30 s and ≤ 2 GB.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

LISTED = 1_200_000
GAMES = 100_000
EVENTS = 2_000
ACTIVE = 150_000
NEWCOMERS = 2_000
FIRST_ID = 1_000_000
LIST_DATE = dt.date(2025, 11, 1)
AS_OF = dt.date(2025, 12, 1)
SEED = 20251101


def _peak_mb(who: int = resource.RUSAGE_SELF) -> float:
    return round(resource.getrusage(who).ru_maxrss / 1024, 1)


def write_xml(path: Path, players: int = LISTED, seed: int = SEED) -> int:
    """FIDE's combined XML list of ``players`` players; return its size in bytes."""
    rng = np.random.default_rng(seed)
    step = 100_000
    titles = np.array(["", "", "", "", "", "", "FM", "IM", "GM", "CM"])
    feds = np.array(["USA", "GER", "IND", "RUS", "FRA", "ESP", "NOR", "CHN", "ITA", "BRA"])
    with path.open("w", encoding="utf-8") as out:
        out.write('<?xml version="1.0" encoding="UTF-8"?>\n<playerslist>\n')
        for begin in range(0, players, step):
            n = min(step, players - begin)
            rating = rng.integers(1400, 2850, n)
            rated = rng.random(n) > 0.1
            rapid = rng.random(n) > 0.5
            k = rng.choice([10, 20, 40], n)
            games = rng.integers(0, 12, n)
            born = rng.integers(1940, 2018, n)
            female = rng.random(n) < 0.12
            inactive = rng.random(n) < 0.4
            title = titles[rng.integers(0, len(titles), n)]
            fed = feds[rng.integers(0, len(feds), n)]
            chunk = []
            for i in range(n):
                pid = FIRST_ID + begin + i
                flag = ("w" if female[i] else "") + ("i" if inactive[i] else "")
                std = (rating[i], games[i], k[i]) if rated[i] else ("", "", "")
                rap = (rating[i] - 20, 0, k[i]) if rapid[i] else ("", "", "")
                chunk.append(
                    f"<player>\n<fideid>{pid}</fideid>\n<name>Player{pid}, Test</name>\n"
                    f"<country>{fed[i]}</country>\n<sex>{'F' if female[i] else 'M'}</sex>\n"
                    f"<title>{title[i]}</title>\n<w_title></w_title>\n<o_title></o_title>\n"
                    f"<foa_title></foa_title>\n<rating>{std[0]}</rating>\n"
                    f"<games>{std[1]}</games>\n<k>{std[2]}</k>\n"
                    f"<rapid_rating>{rap[0]}</rapid_rating>\n<rapid_games>{rap[1]}</rapid_games>\n"
                    f"<rapid_k>{rap[2]}</rapid_k>\n<blitz_rating></blitz_rating>\n"
                    f"<blitz_games></blitz_games>\n<blitz_k></blitz_k>\n"
                    f"<birthday>{born[i]}</birthday>\n<flag>{flag}</flag>\n</player>\n"
                )
            out.write("".join(chunk))
        out.write("</playerslist>\n")
    return path.stat().st_size


def _arbiter(store: Path, *args: str) -> subprocess.CompletedProcess[str]:
    exe = Path(sys.executable).parent / "arbiter"
    env = {**os.environ, "ARBITER_STORE": str(store)}
    return subprocess.run([str(exe), *args], capture_output=True, text=True, env=env, check=True)


def _games(rng: np.random.Generator) -> Any:
    """100,000 games of tournaments that started in November 2025 and ended before December."""
    from benchmarks.bench_fide_list import chess_games

    listed = np.char.add(
        "fide:", (FIRST_ID + rng.choice(LISTED, ACTIVE, replace=False)).astype(str)
    )
    pool = np.concatenate([listed, np.char.add("new:", np.arange(NEWCOMERS).astype(str))])
    a = rng.integers(0, len(pool), GAMES)
    b = (a + rng.integers(1, len(pool), GAMES)) % len(pool)
    event = rng.integers(0, EVENTS, GAMES)
    starts = np.datetime64("2025-11-01") + (event % 25).astype("timedelta64[D]")
    ends = starts + np.timedelta64(4, "D")
    return chess_games(pool, a, b, event, starts, ends, rng.choice([0.0, 0.5, 1.0], GAMES))


def list_run(store_path: str, out: str) -> dict[str, Any]:
    """The child of the run: the December list from the imported November list."""
    import polars as pl

    from events.stores import open_store
    from pipelines.jobs.fide_lists import run_from_lists
    from ratings.games import PLAYERS_SCHEMA
    from ratings.lists import list_kind
    from ratings.methods import Method

    games = _games(np.random.default_rng(SEED + 1))
    players = pl.DataFrame(schema={**PLAYERS_SCHEMA, "rating": pl.Float64})
    kind = list_kind(Method.FIDE)
    built = _peak_mb()
    store = open_store(store_path)
    try:
        started = time.perf_counter()
        result = run_from_lists(store, kind, games, players, as_of=AS_OF)
        computed = time.perf_counter() - started
    finally:
        store.close()
    assert result is not None
    folder = Path(out)
    started = time.perf_counter()
    result.listing.write_csv(folder / "ratings.csv")
    result.listing.write_parquet(folder / "ratings.parquet", compression="zstd")
    written = time.perf_counter() - started
    return {
        "run_seconds": round(computed, 2),
        "write_seconds": round(written, 2),
        "listing_rows": result.listing.height,
        "rated_games": result.games,
        "players_who_played": result.runs[-1].changes.height,
        "peak_rss_mb_games_built": built,
        "peak_rss_mb": _peak_mb(),
    }


def run() -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="bench-list-import-") as tmp:
        root = Path(tmp)
        xml = root / "players_list_xml_foa.xml"
        started = time.perf_counter()
        size = write_xml(xml)
        generated = time.perf_counter() - started
        store = root / "arbiter.duckdb"
        _arbiter(store, "store", "init")
        started = time.perf_counter()
        done = _arbiter(store, "ratings", "import", str(xml), "--date", LIST_DATE.isoformat())
        imported = time.perf_counter() - started
        import_peak = _peak_mb(resource.RUSAGE_CHILDREN)
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)  # with the small store init
        import_cpu = usage.ru_utime + usage.ru_stime
        child = subprocess.run(
            [sys.executable, "-m", "benchmarks.bench_list_import", "--run", str(store), tmp],
            capture_output=True,
            text=True,
            check=True,
        )
        figures = json.loads(child.stdout)
        return {
            "listed_players": LISTED,
            "xml_mb": round(size / 2**20, 1),
            "generate_seconds": round(generated, 2),
            "import_seconds": round(imported, 2),
            "import_peak_rss_mb": import_peak,
            "import_cpu_seconds": round(import_cpu, 2),
            "import_output": done.stdout.strip().splitlines(),
            "store_mb": round(store.stat().st_size / 2**20, 1),
            "run": {"games": GAMES, "events": EVENTS, **figures},
            "load_average": [round(x, 2) for x in os.getloadavg()],
        }


if __name__ == "__main__":
    if sys.argv[1:2] == ["--run"]:
        print(json.dumps(list_run(sys.argv[2], sys.argv[3])))
    else:
        print(json.dumps(run(), indent=2))
