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


def _event(store: str, folder: Path, tid: str, *dates: str) -> None:
    """The event typed by its director, in one `arbiter batch` process."""
    lines = [
        f"tournament create --name {tid} --id {tid} --system dutch --rounds 2 "
        f"--start 2026-03-07 --end 2026-03-09 {' '.join(dates)}",
        *(f"player add {tid} --name '{tid} {i}, X' --rating {1900 + 50 * i} "
          f"--fide-id 10000{i} --federation NOR" for i in range(1, 5)),
    ]  # fmt: skip
    for rnd in (1, 2):
        lines += [f"pair {tid}", f"result {tid} {rnd} 1 1-0", f"result {tid} {rnd} 2 1/2-1/2"]
    script = folder / f"{tid}.txt"
    script.write_text("\n".join(lines) + "\n")
    cli(store, "batch", str(script))


def test_games_dated_by_their_rounds(tmp_path: Path) -> None:
    store = str(tmp_path / "s.duckdb")
    _event(store, tmp_path, "gd", "--round-date", "1=2026-03-07", "--round-date", "2=2026-03-08")
    assert _dates(store, "fide:100001") == {1: "2026-03-07", 2: "2026-03-08"}
    cli(store, "tournament", "edit", "gd", "--round-date", "2=2026-03-09")
    assert _dates(store, "fide:100001") == {1: "2026-03-07", 2: "2026-03-09"}
