"""The rating-list pipeline on the whole WOF archive: ingest, project the games table, run WOF.

Steps, each timed: ingest the 7,938 .ELO files into a fresh DuckDB store (the ingest job),
rebuild the games table, a no-op incremental sync, an incremental sync after one more
tournament, then the WOF list end to end (files, diff, charts, publication) twice. Peak RSS is
the process's high-water mark after each step.
"""

from __future__ import annotations

import datetime as dt
import resource
import tempfile
import time
from pathlib import Path
from typing import Any

from events.domain import Board, Game, Outcome, System
from events.schema import (
    EventBase,
    PlayerRegistered,
    ResultRecorded,
    RoundPaired,
    TournamentCreated,
)
from events.store import NewEvent, Store
from events.stores import open_store

ARCHIVE = Path(__file__).resolve().parent.parent.parent / "shared" / "testdata" / "othello" / "elo"


def _peak_mb() -> float:
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


def _ingest(store: Store, files: list[Path]) -> tuple[str, int]:
    from pipelines.jobs.ingest import ingest

    report = ingest(store, files)
    return "pipelines.jobs.ingest", int(report.summary()["games"])


def _one_more_tournament(store: Store) -> None:
    """A 12-player round robin between archive ids, as a late-submitted file would add."""
    events: list[EventBase] = [
        TournamentCreated(
            tournament_id="bench-late",
            name="late",
            game=Game.OTHELLO,
            system=System.IMPORTED,
            rounds=11,
            start_date=dt.date(2025, 10, 4),
        ),
        *(PlayerRegistered(player=i, name=f"P{i}", ids={"wof": str(i)}) for i in range(1, 13)),
    ]
    seats = list(range(1, 13))
    for r in range(1, 12):
        pairs = [(seats[i], seats[11 - i]) for i in range(6)]
        boards = tuple(Board(board=b, white=w, black=k) for b, (w, k) in enumerate(pairs, 1))
        events.append(RoundPaired(round=r, boards=boards))
        events.extend(
            ResultRecorded(round=r, board=b, outcome=Outcome.WHITE_WINS) for b in range(1, 7)
        )
        seats = [seats[0], seats[-1], *seats[1:-1]]
    store.append("tournament-bench-late", [NewEvent(e) for e in events], -1)


def run() -> dict[str, Any]:
    from pipelines.jobs.ratings import RunRequest, run_list
    from projections.games import GamesCache
    from ratings.methods import Method

    files = sorted(ARCHIVE.glob("*/*.ELO"))
    if not files:
        return {"skipped": f"archive not found: {ARCHIVE}"}
    figures: dict[str, Any] = {"files": len(files)}
    with tempfile.TemporaryDirectory(prefix="bench-ratings-") as tmp:
        root = Path(tmp)
        store = open_store(str(root / "wof.duckdb"))
        try:
            t = time.perf_counter()
            figures["ingest_path"], figures["games_ingested"] = _ingest(store, files)
            figures["ingest_seconds"] = round(time.perf_counter() - t, 2)
            figures["peak_rss_mb_after_ingest"] = _peak_mb()

            cache = GamesCache.for_store(store)
            report = cache.sync(store)
            figures["project_rebuild_seconds"] = round(report.seconds, 2)
            figures["games_table_rows"] = report.games
            figures["peak_rss_mb_after_projection"] = _peak_mb()
            figures["sync_noop_seconds"] = round(cache.sync(store).seconds, 3)
            _one_more_tournament(store)
            figures["sync_one_tournament_seconds"] = round(cache.sync(store).seconds, 3)

            for label in ("wof_run_seconds", "wof_rerun_seconds"):
                t = time.perf_counter()
                result = run_list(
                    store,
                    cache,
                    RunRequest(
                        method=Method.WOF, as_of=dt.date(2025, 11, 1), output=root / "lists"
                    ),
                )
                figures[label] = round(time.perf_counter() - t, 2)
            figures["listed_players"] = result.players
            figures["official_players"] = result.official
            figures["peak_rss_mb_after_runs"] = _peak_mb()
            cache.close()
        finally:
            store.close()
    return figures


if __name__ == "__main__":
    print(run())
