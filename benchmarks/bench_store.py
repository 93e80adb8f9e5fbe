"""Event store figures: bulk append, replay of a large tournament, single-command latency."""

from __future__ import annotations

import random
import statistics
import tempfile
import time
from pathlib import Path

import polars as pl

from decide.state import project
from events.domain import Board, Game, Outcome, System
from events.schema import (
    EventBase,
    PlayerRegistered,
    ResultRecorded,
    RoundPaired,
    TournamentCreated,
)
from events.store import NewEvent
from events.stores import open_store
from pipelines.commands import players, results, rounds, tournaments
from tests.events.bulk import bulk_frame


def peak_rss_mb() -> float:
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def bulk_events(streams: int = 1000, per_stream: int = 1000) -> pl.DataFrame:
    """A bulk-append frame of ``streams`` x ``per_stream`` small PlayerRegistered events."""
    n = streams * per_stream
    idx = pl.col("i")
    return pl.DataFrame({"i": pl.int_range(0, n, eager=True)}).select(
        stream_id=pl.format("tournament-{}", idx // per_stream),
        stream_version=idx % per_stream,
        event_id=pl.format("bench-{}", idx),
        event_type=pl.lit("PlayerRegistered"),
        schema_version=pl.lit(1),
        payload=pl.concat_str(
            pl.lit('{"type":"PlayerRegistered","player":'),
            (idx % per_stream + 1).cast(pl.String),
            pl.lit(',"name":"Player number '),
            idx.cast(pl.String),
            pl.lit('","rating":'),
            (1500 + idx % 1000).cast(pl.String),
            pl.lit("}"),
        ),
        metadata=pl.lit('{"actor":"bench"}'),
    )


def bulk_append(tmp: Path, streams: int = 1000, per_stream: int = 1000) -> dict[str, float]:
    n = streams * per_stream
    frame = bulk_events(streams, per_stream)
    with open_store(str(tmp / "bulk.duckdb")) as store:
        started = time.perf_counter()
        store.append_frame(frame)
        seconds = time.perf_counter() - started
    return {"events": n, "seconds": round(seconds, 3), "events_per_second": round(n / seconds)}


def big_tournament(players: int = 1200, rounds: int = 23, seed: int = 1) -> list[EventBase]:
    rng = random.Random(seed)
    events: list[EventBase] = [
        TournamentCreated(
            tournament_id="big",
            name="Big Open",
            game=Game.CHESS,
            system=System.DUTCH,
            rounds=rounds,
        )
    ]
    events += [
        PlayerRegistered(player=i, name=f"Player {i:04d}", rating=2700 - i, federation="FID")
        for i in range(1, players + 1)
    ]
    ids = list(range(1, players + 1))
    outcomes = [Outcome.WHITE_WINS, Outcome.BLACK_WINS, Outcome.DRAW]
    for rnd in range(1, rounds + 1):
        rng.shuffle(ids)
        boards = tuple(
            Board(board=k + 1, white=ids[2 * k], black=ids[2 * k + 1]) for k in range(players // 2)
        )
        events.append(RoundPaired(round=rnd, boards=boards))
        events += [
            ResultRecorded(round=rnd, board=b.board, outcome=rng.choice(outcomes)) for b in boards
        ]
    return events


def replay(tmp: Path) -> dict[str, float]:
    events = big_tournament()
    path = tmp / "replay.duckdb"
    with open_store(str(path)) as store:
        store.append_frame(bulk_frame("tournament-big", 0, [NewEvent(e) for e in events]))
    times = []
    for _ in range(5):
        started = time.perf_counter()
        with open_store(str(path)) as store:
            state = project(e.event for e in store.read_stream("tournament-big"))
        times.append(time.perf_counter() - started)
    assert len(state.players) == 1200
    assert state.last_round == 23
    return {
        "events": len(events),
        "median_seconds": round(statistics.median(times), 3),
        "best_seconds": round(min(times), 3),
    }


def command_latency(tmp: Path, repeats: int = 30) -> dict[str, float | str]:
    path = tmp / "latency.duckdb"
    with open_store(str(path)) as store:
        tid = tournaments.create(
            store, {"name": "Latency", "game": Game.CHESS, "system": System.ROUNDROBIN, "rounds": 5}
        )
        for i in range(6):
            players.add(store, tid, {"name": f"P{i}", "rating": 2000 - i})
        rounds.pair(store, tid)
    times = []
    for i in range(repeats):
        started = time.perf_counter()
        with open_store(str(path)) as store:  # what one CLI command does: open, read, append, close
            entry = {"round": 1, "board": 1, "result": ["1-0", "0-1"][i % 2], "correct": i > 0}
            results.record_one(store, tid, entry)
        times.append(time.perf_counter() - started)
    warm = times[1:]
    return {
        "repeats": repeats,
        "median_ms": round(statistics.median(warm) * 1000, 1),
        "p95_ms": round(sorted(warm)[int(0.95 * len(warm))] * 1000, 1),
        "note": "in-process: open store, read stream, validate, append one event, close "
        "(excludes interpreter start-up)",
    }


def cli_process_latency(tmp: Path, repeats: int = 5) -> dict[str, float]:
    import os
    import subprocess
    import sys

    env = {**os.environ, "ARBITER_STORE": str(tmp / "latency.duckdb")}
    exe = str(Path(sys.executable).parent / "arbiter")
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        subprocess.run([exe, "standings", "latency"], env=env, capture_output=True, check=True)
        times.append(time.perf_counter() - started)
    return {"median_ms": round(statistics.median(times) * 1000, 1), "repeats": repeats}


def run() -> dict[str, object]:
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        figures: dict[str, object] = {
            "bulk_append_1M": bulk_append(tmp),
            "replay_1200_players_23_rounds": replay(tmp),
            "single_event_command": command_latency(tmp),
            "cli_process_standings": cli_process_latency(tmp),
        }
    figures["peak_rss_mb"] = round(peak_rss_mb())
    figures["targets"] = {
        "bulk_append_events_per_second": ">= 200000",
        "replay_seconds": "<= 1",
        "single_event_command_ms": "<= 50 warm",
    }
    return figures
