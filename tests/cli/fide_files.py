"""FIDE's reference calculations as the files a rating officer has: lists in FIDE's XML format
and events as FIDE TRF-16 files, built from ``../shared/testdata/chess/fide_ratings/`` (read
in place, never copied). Shared by the CLI tests that drive `ratings run --method fide`,
`standings --rating-change`, `ratings show` and the web player card.

An opponent whose rating FIDE capped (``capped_marker``) is listed 100 points beyond the cap:
the record does not give the real rating, and any beyond the cap rates the same. Opponents of
the published player-periods get ids of their own (9xxxxxxx).
"""

from __future__ import annotations

import datetime as dt
import json
import shlex
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.cli.list_files import fide_xml
from tests.cli.test_rating_list_import_cli import arbiter
from tests.conftest import require_testdata

Json = dict[str, Any]

ListRows = list[tuple[int, int | None, int | None]]
"""A list's rows: FIDE id, standard rating (None: unrated), K."""

Event = tuple[str, dt.date, dt.date, list["TrfPlayer"]]
"""An event: name, first and last day, players."""


def read_reference(name: str) -> Json:
    """A reference file of ``chess/fide_ratings`` (the test skips when the data is absent)."""
    path: Path = require_testdata("chess", "fide_ratings", name)
    data: Json = json.loads(path.read_text(encoding="utf-8"))
    return data


# ------------------------------------------------------------------------ the files written


@dataclass
class TrfPlayer:
    """A TRF ``001`` line: the player's FIDE id, the rating the file gives, and per round the
    opponent's number, own colour and result (``1``, ``=``, ``0``)."""

    number: int
    fide_id: int
    rating: int | None
    rounds: dict[int, tuple[int, str, str]] = field(default_factory=dict)

    def line(self, last_round: int) -> str:
        points = sum({"1": 1.0, "=": 0.5, "0": 0.0}[r] for _, _, r in self.rounds.values())
        head = (
            f"001 {self.number:4d} m    {f'Player {self.fide_id}':<33} {self.rating or 0:4d} "
            f"USA {self.fide_id:>11} {'':10} {points:4.1f}"
        )
        cells = []
        for n in range(1, last_round + 1):
            if n in self.rounds:
                opponent, colour, result = self.rounds[n]
                cells.append(f"  {opponent:4d} {colour} {result}")
            else:
                cells.append("  0000 - -")  # not paired in that round: a zero-point bye
        return head.ljust(89) + "".join(cells)


def write_trf(
    path: Path, name: str, start: dt.date, end: dt.date, players: Sequence[TrfPlayer]
) -> Path:
    """FIDE TRF-16: the event's name and dates (012, 042, 052), then one 001 line a player."""
    rounds = max((n for p in players for n in p.rounds), default=0)
    lines = [
        f"012 {name}",
        f"042 {start:%Y/%m/%d}",
        f"052 {end:%Y/%m/%d}",
        f"062 {len(players)}",
        *(p.line(rounds) for p in players),
    ]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def month(key: str) -> dt.date:
    return dt.date.fromisoformat(key + "-01")


def write_list(path: Path, rows: Iterable[tuple[int, int | None, int | None]]) -> Path:
    """A FIDE XML list: id, standard rating (None: unrated), K."""
    return fide_xml(
        path,
        [
            {"fideid": fide_id, "name": f"Player {fide_id}", "country": "USA", "sex": "M",
             "rating": rating, "k": k, "games": 0 if rating else None}
            for fide_id, rating, k in rows
        ],
    )  # fmt: skip


RESULTS = {1.0: ("1", "0"), 0.5: ("=", "="), 0.0: ("0", "1")}
OTHER = {"w": "b", "b": "w"}


@dataclass(frozen=True)
class PublishedCase:
    """A published player-period's files: lists by date, events, the list it is rated on,
    the events reported late."""

    lists: dict[dt.date, ListRows]
    events: list[Event]
    period: dt.date
    late: list[str]


def published_case(case: Json) -> PublishedCase:
    """One player-period as files to write: the player on every list FIDE quotes, each
    tournament a TRF of the player and their opponents (one game a round), each opponent on
    the list in force at the tournament's start. A tournament that ended before the period's
    previous list was reported late (F-P05's first): its name is in ``late``."""
    me = int(case["fide_id"])
    period = month(case["rating_period"])
    previous = max(month(k) for k in case["published_list_ratings"] if month(k) < period)
    lists: dict[dt.date, list[tuple[int, int | None, int | None]]] = {}
    for key, rating in case["published_list_ratings"].items():
        if month(key) < period:
            lists.setdefault(month(key), []).append((me, rating, case["published_list_k"].get(key)))
    events = []
    late = []
    next_id = 90_000_000 + 10_000 * int(case["id"][-2:])
    for tournament in case["tournaments"]:
        start = dt.date.fromisoformat(tournament["start"])
        end = dt.date.fromisoformat(tournament["end"])
        ro = int(tournament["Ro"])
        player = TrfPlayer(1, me, ro)
        players = [player]
        for g, game in enumerate(tournament["games"], start=1):
            used = int(game["opponent_rating_used"])
            real = used if not game["capped_marker"] else used + (100 if used > ro else -100)
            next_id += 1
            lists.setdefault(start.replace(day=1), []).append((next_id, real, None))
            colour = game["colour"][0]
            mine, theirs = RESULTS[float(game["score"])]
            player.rounds[g] = (g + 1, colour, mine)
            players.append(TrfPlayer(g + 1, next_id, real, {g: (1, OTHER[colour], theirs)}))
        name = f"e{tournament['event_id']}"
        events.append((name, start, end, players))
        if end < previous:
            late.append(name)
    return PublishedCase(lists, events, period, late)


def championship_case() -> tuple[Json, PublishedCase]:
    """The 2025 US Championship as files: the October 2025 list of its twelve players, the
    event's TRF (one 001 line a player, the games of the record), rated on the November list."""
    data = read_reference("us_championship_2025.json")
    event = data["event"]
    number = {p["fide_id"]: n for n, p in enumerate(data["players"], start=1)}
    players = {
        p["fide_id"]: TrfPlayer(number[p["fide_id"]], p["fide_id"], p["list_2025_10"]["rating"])
        for p in data["players"]
    }
    for game in data["games"]:
        white, black = game["white"], game["black"]
        mine, theirs = {"1-0": ("1", "0"), "0-1": ("0", "1"), "1/2-1/2": ("=", "=")}[game["result"]]
        players[white].rounds[game["round"]] = (number[black], "w", mine)
        players[black].rounds[game["round"]] = (number[white], "b", theirs)
    october: ListRows = [
        (p["fide_id"], p["list_2025_10"]["rating"], p["list_2025_10"]["k"]) for p in data["players"]
    ]
    events: list[Event] = [
        (
            f"e{event['event_id']}",
            dt.date.fromisoformat(event["start"]),
            dt.date.fromisoformat(event["end"]),
            sorted(players.values(), key=lambda p: p.number),
        )
    ]
    return data, PublishedCase(
        {month("2025-10"): october}, events, month(event["rating_period"]), []
    )


def officer_run(
    tmp_path: Path,
    lists: Mapping[dt.date, Iterable[tuple[int, int | None, int | None]]],
    events: Sequence[tuple[str, dt.date, dt.date, Sequence[TrfPlayer]]],
    as_of: dt.date,
    *extra: str,
) -> tuple[Path, Path]:
    """:func:`officer_batch` with nothing after the run: the store and OUT."""
    store, out, _ = officer_batch(tmp_path, lists, events, as_of, *extra)
    return store, out


def officer_batch(
    tmp_path: Path,
    lists: Mapping[dt.date, Iterable[tuple[int, int | None, int | None]]],
    events: Sequence[tuple[str, dt.date, dt.date, Sequence[TrfPlayer]]],
    as_of: dt.date,
    *extra: str,
    then: Sequence[Sequence[str]] = (),
) -> tuple[Path, Path, str]:
    """As an officer works, through the CLI: a new store, the lists imported, the events'
    TRF files ingested, one ``ratings run --method fide --as-of AS_OF -o OUT`` (``extra``
    appended), then the commands ``then``; the store, OUT and what the batch printed. The
    commands run in order in one `arbiter batch` (one process: each would load polars again
    on its own; no test here is about a single call)."""
    store = tmp_path / "arbiter.duckdb"
    lines = [["store", "init"]]
    for day, rows in sorted(lists.items()):
        path = write_list(tmp_path / f"list-{day:%Y-%m}.xml", rows)
        lines.append(["ratings", "import", str(path), "--date", day.isoformat()])
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    for name, start, end, players in events:
        write_trf(inbox / f"{name}.trf", name, start, end, players)
    lines.append(["ingest", str(inbox)])
    out = tmp_path / "list"
    lines.append(
        ["ratings", "run", "--method", "fide", "--as-of", as_of.isoformat(), "-o", str(out),
         *extra]
    )  # fmt: skip
    lines += [list(line) for line in then]
    script = tmp_path / "officer.txt"
    script.write_text("".join(shlex.join(line) + "\n" for line in lines), encoding="utf-8")
    return store, out, arbiter(store, "batch", str(script)).stdout
