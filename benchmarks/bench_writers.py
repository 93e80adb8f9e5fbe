"""Writers: 8 `arbiter` processes at a time entering results and late entries into one tournament.

Eight writer loops run for 30 s on one DuckDB file and on one throwaway PostgreSQL database
(tests/postgres.py, durable settings). Each loop runs one `arbiter` command after the other
(a process each, as a director at a terminal): `player add` with a name of its own, then a
result on a round-1 board of its own (`result T 1 B 1-0`), and so on. The tournament is made
in bulk beforehand: 400 players, round 1 paired (200 boards; writer w takes boards w+1,
w+9, ...; a loop whose boards are used up only adds players).

Then the log is read back (`arbiter log T --format json`) and every command is looked up in
it by what it appends (a player's name; a result's round and board):

* ``issued``: commands run; ``landed``: exit 0; ``refused``: another exit, by its stderr line;
* ``lost``: exit 0 but not in the log (must be 0); ``duplicated``: in the log more than once
  (must be 0); ``refused_but_appended``: a non-zero exit whose event is in the log (must be 0);
* ``wait_s``: each command's wall time from start to exit (its queue or retry wait included):
  p50, p95, max.

The eight loops, the stores and the other work of the machine share its 2 cores: a command
takes about 1 s of CPU time, so 8 at once wait mostly for a core, not for the store.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks.stores import on_both_stores

WRITERS = 8
SECONDS = 30.0
PLAYERS = 400
TID = "writers"
ARBITER = str(Path(sys.executable).parent / "arbiter")

Key = tuple[str, str]
"""What a command appends: ("add", name) or ("result", "round/board")."""


@dataclass(frozen=True, slots=True)
class Issued:
    key: Key
    returncode: int
    seconds: float
    reason: str
    """The last line of stderr of a refused command ('' when it landed)."""


def prepare(url: str, players: int = PLAYERS) -> int:
    """The tournament, written in bulk (set-up, not measured): `players` registered and
    round 1 paired; returns its number of boards."""
    from events.domain import Board, Game, System
    from events.provenance import current_origin
    from events.schema import PlayerRegistered, RoundPaired
    from events.store import NewEvent
    from events.stores import init_store, open_store
    from pipelines.commands import tournaments

    init_store(url)
    with open_store(url) as store:
        tournaments.create(
            store, {"name": "Writers Open", "game": Game.CHESS, "system": System.SWISS,
                    "rounds": 5, "id": TID},
        )  # fmt: skip
        meta = current_origin().metadata()
        boards = tuple(
            Board(board=b + 1, white=2 * b + 1, black=2 * b + 2) for b in range(players // 2)
        )
        events: list[Any] = [
            PlayerRegistered(player=i, name=f"Seed {i:03d}, A", rating=2600 - i)
            for i in range(1, players + 1)
        ]
        events.append(RoundPaired(round=1, boards=boards))
        version = store.stream_version(f"tournament-{TID}")
        store.append(f"tournament-{TID}", [NewEvent(e, metadata=meta) for e in events], version)
    return len(boards)


def _command(writer: int, step: int, writers: int, boards: int) -> tuple[Key, list[str]]:
    board = writer + 1 + writers * (step // 2)
    if step % 2 == 1 and board <= boards:
        return ("result", f"1/{board}"), ["result", TID, "1", str(board), "1-0"]
    name = f"Writer{writer}, Step{step}"
    return ("add", name), ["player", "add", TID, "--name", name, "--rating", "1500"]


def _loop(
    url: str,
    writer: int,
    writers: int,
    boards: int,
    until: float,
    commands: int | None,
    env: dict[str, str],
) -> list[Issued]:
    issued: list[Issued] = []
    step = 0
    while (commands is None and time.monotonic() < until) or (
        commands is not None and step < commands
    ):
        key, args = _command(writer, step, writers, boards)
        started = time.monotonic()
        done = subprocess.run(
            [ARBITER, "--store", url, "--as", f"writer{writer}", *args],
            capture_output=True, text=True, timeout=600, check=False, env=env,
        )  # fmt: skip
        seconds = time.monotonic() - started
        reason = "" if done.returncode == 0 else (done.stderr.strip().splitlines() or ["?"])[-1]
        issued.append(Issued(key, done.returncode, seconds, reason))
        step += 1
    return issued


def appended(url: str) -> Counter[Key]:
    """How many times the log holds each writer's key (read back with `arbiter log`)."""
    done = subprocess.run(
        [ARBITER, "--store", url, "log", TID, "--format", "json"],
        capture_output=True, text=True, timeout=600, check=True,
    )  # fmt: skip
    found: Counter[Key] = Counter()
    for event in json.loads(done.stdout):
        payload = event["payload"]
        if event["type"] == "PlayerRegistered" and payload["name"].startswith("Writer"):
            found["add", payload["name"]] += 1
        elif event["type"] == "ResultRecorded":
            found["result", f"{payload['round']}/{payload['board']}"] += 1
    return found


def _seconds(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 2) if ordered else 0.0


def measure(
    url: str,
    *,
    writers: int = WRITERS,
    seconds: float = SECONDS,
    commands: int | None = None,
    store_timeout: float | None = None,
) -> dict[str, Any]:
    """`writers` loops on a fresh store at `url`, for `seconds` (or `commands` each);
    `store_timeout`: the commands' bounded wait for a busy store (``$ARBITER_STORE_TIMEOUT``;
    default 10 s)."""
    env = dict(os.environ)
    if store_timeout is not None:
        env["ARBITER_STORE_TIMEOUT"] = str(store_timeout)
    boards = prepare(url)
    until = time.monotonic() + seconds
    wall = time.monotonic()
    with ThreadPoolExecutor(writers) as pool:
        loops = list(
            pool.map(lambda w: _loop(url, w, writers, boards, until, commands, env), range(writers))
        )
    wall = time.monotonic() - wall
    issued = [i for loop in loops for i in loop]
    found = appended(url)
    landed = [i for i in issued if i.returncode == 0]
    refused = [i for i in issued if i.returncode != 0]
    waits = [i.seconds for i in issued]
    return {
        "writers": writers,
        "store_timeout_s": float(env.get("ARBITER_STORE_TIMEOUT", "10")),
        "seconds": round(wall, 1),
        "issued": len(issued),
        "landed": len(landed),
        "refused": len(refused),
        "refused_reasons": dict(Counter(f"exit {i.returncode}: {i.reason}" for i in refused)),
        "lost": sum(1 for i in landed if found[i.key] == 0),
        "duplicated": sum(1 for i in issued if found[i.key] > 1),
        "refused_but_appended": sum(1 for i in refused if found[i.key] > 0),
        "unknown_appends": sum(1 for key in found if key not in {i.key for i in issued}),
        "wait_s": {
            "p50": round(statistics.median(waits), 2) if waits else 0.0,
            "p95": _seconds(waits, 0.95),
            "max": round(max(waits), 2) if waits else 0.0,
        },
        "commands_per_s": round(len(landed) / wall, 2),
    }


def run() -> dict[str, Any]:
    return on_both_stores(lambda store, _folder: measure(store), "bench-writers-")


if __name__ == "__main__":
    print(json.dumps(run(), indent=2))
