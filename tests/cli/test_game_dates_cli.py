"""Each game is dated by its round's date (issue 33, part 4: `ratings show` dated every game of
an event on its first day although each round has its date).

Through the `arbiter` command in a subprocess: a two-day chess event whose round dates are
stated at creation, then one of them moved by `tournament edit`; `ratings show` prints each
game on its round's day. (Without round dates a game keeps the event's start date:
tests/cli/test_ratings_cli.py.)
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.web.serving import cli


def _dates(store: str, player: str) -> dict[int, str]:
    shown = json.loads(cli(store, "ratings", "show", player, "-f", "json"))
    return {g["round"]: g["date"] for g in shown["games"]}


def _event(store: str, tid: str, *dates: str) -> None:
    cli(store, "tournament", "create", "--name", tid, "--id", tid, "--system", "dutch",
        "--rounds", "2", "--start", "2026-03-07", "--end", "2026-03-09", *dates)  # fmt: skip
    for i in range(1, 5):
        cli(store, "player", "add", tid, "--name", f"{tid} {i}, X", "--rating", str(1900 + 50 * i),
            "--fide-id", f"10000{i}", "--federation", "NOR")  # fmt: skip
    for rnd in (1, 2):
        cli(store, "pair", tid)
        cli(store, "result", tid, str(rnd), "1", "1-0")
        cli(store, "result", tid, str(rnd), "2", "1/2-1/2")


def test_games_dated_by_their_rounds(tmp_path: Path) -> None:
    store = str(tmp_path / "s.duckdb")
    _event(store, "gd", "--round-date", "1=2026-03-07", "--round-date", "2=2026-03-08")
    assert _dates(store, "fide:100001") == {1: "2026-03-07", 2: "2026-03-08"}
    cli(store, "tournament", "edit", "gd", "--round-date", "2=2026-03-09")
    assert _dates(store, "fide:100001") == {1: "2026-03-07", 2: "2026-03-09"}
