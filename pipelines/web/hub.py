"""The server's projection cache, kept up to date from the log by one follower thread.

The follower reads the log after the last position it applied and folds each event into the
working state of its stream (`decide.state.evolve`, the same fold the commands use); after
each batch every changed tournament is published as an immutable `TournamentView`, whose
renderings (standings, pairings, crosstable, JSON bytes) are computed once per version on first
use. A page read is therefore a dictionary lookup. When the log's epoch changes (an undo or a
restore rewrote history) everything is rebuilt from the start of the log.

How the follower learns of new events:

* PostgreSQL: it keeps the store open and waits on LISTEN/NOTIFY (`Store.wait_for_events`);
* DuckDB: it never keeps the file open (the CLI must be able to write). It watches the file's
  and its WAL's size and modification time every 50 ms and opens the store for a moment when
  they differ from what they were when this server last closed it (and every few seconds
  regardless), so a CLI command and the server work side by side, and the server's own writes
  cost no second open.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import os
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from decide.state import TournamentState, evolve
from events.errors import ArbiterError, UserError
from events.schema import TEAM_EVENTS, Event, RatingListPublished
from events.store import RecordedEvent, Store
from events.stores import is_server_url, open_store
from pipelines.commands.base import STREAM_PREFIX, Snapshot
from pipelines.views import teams as team_views
from pipelines.views import tournament as views
from pipelines.views.output import Format, render
from pipelines.web.accounts import ACCOUNTS_STREAM, Accounts
from projections import crosstable as xt
from projections.standings import AsOf, StandingRow, as_of, standings
from projections.teams import TeamsState, team_state

log = logging.getLogger("arbiter.serve")

RATINGLIST_PREFIX = "ratinglist-"


class StoreAccess:
    """How the server reaches the store: one shared connection pool on PostgreSQL, a short
    open-use-close on DuckDB (one at a time in this process), so the file's lock is never
    held between requests."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.is_server = is_server_url(url)
        self._lock = threading.RLock()
        self._shared: Store | None = open_store(url) if self.is_server else None
        self.seen: tuple[int, ...] | None = None
        """DuckDB: the file's signature when this process last closed it. Every user of
        `open` syncs the hub before leaving it, and no other process can write while the file
        is open here, so the hub has seen everything up to this signature."""

    @contextmanager
    def open(self) -> Iterator[Store]:
        if self._shared is not None:
            yield self._shared
            return
        with self._lock:
            store = open_store(self.url)
            try:
                yield store
                self.seen = self.file_signature()
            finally:
                store.close()

    def file_signature(self) -> tuple[int, ...]:
        """Size and mtime of the DuckDB file and its WAL: they change with every commit."""
        out: list[int] = []
        for path in (self.url, self.url + ".wal"):
            try:
                st = os.stat(path)
                out += [st.st_size, st.st_mtime_ns]
            except OSError:
                out += [-1, -1]
        return tuple(out)

    def behind(self) -> bool:
        """DuckDB: the file changed since this process last closed it (another process wrote,
        and the follower has not read it yet); a stat, the file is not opened."""
        return self._shared is None and self.file_signature() != self.seen

    def close(self) -> None:
        if self._shared is not None:
            self._shared.close()


@dataclass
class TournamentView:
    """One tournament at one stream version; never changed once published."""

    state: TournamentState
    version: int
    position: int
    created_at: dt.datetime
    team_events: tuple[Event, ...] = ()
    """A team event's teams, rosters, line-ups, matches and team records, in log order
    (`events.schema.TEAM_EVENTS`: what the team views read beside `state`)."""
    _memo: dict[Any, Any] = field(default_factory=dict)
    _lock: threading.RLock = field(default_factory=threading.RLock)

    def _cached(self, key: Any, make: Callable[[], Any]) -> Any:
        value = self._memo.get(key)
        if value is None:
            with self._lock:
                value = self._memo.get(key)
                if value is None:
                    value = make()
                    self._memo[key] = value
        return value

    @property
    def id(self) -> str:
        return self.state.id

    @property
    def is_team(self) -> bool:
        """Its tables rank teams: a team tournament (team Swiss, team round robin), or a go
        event with teams, as ``arbiter standings`` and ``crosstable`` rank them."""
        return self.state.has_teams

    def teams(self) -> TeamsState:
        """A team event's teams and matches, folded once per version."""
        teams: TeamsState = self._cached(
            "teams", lambda: team_state(self.team_events, self.state.last_round)
        )
        return teams

    def team_tables(self) -> team_views.TeamTables:
        """A team event's standings and histories (`pipelines.views.teams.team_tables`)."""
        tables: team_views.TeamTables = self._cached(
            "team_tables", lambda: team_views.team_tables(self.state, self.teams())
        )
        return tables

    def as_of(self) -> AsOf:
        """The round the standings are after, and the rounds in play (a team event: the
        team standings' round)."""
        shown: AsOf = self._cached(
            "as_of",
            lambda: (
                team_views.team_as_of(self.state, self.teams())
                if self.is_team
                else as_of(self.state)
            ),
        )
        return shown

    def standings(self) -> list[StandingRow]:
        """The players' standings.

        :raises UserError: a team event: its standings rank teams (`team_tables`).
        """
        if self.is_team:
            raise UserError(f"{self.id}: a team event; its standings rank teams")
        rows: list[StandingRow] = self._cached("standings", lambda: standings(self.state, None))
        return rows

    def standings_json(self) -> bytes:
        """Byte for byte what ``arbiter standings --format json`` prints (a team event: the
        teams' standings)."""

        def make() -> bytes:
            if self.is_team:
                rows = team_views.team_standings_view(self.team_tables().ranked)
            else:
                rows = views.standings_view(self.standings())
            return render(rows, Format.JSON).encode()

        data: bytes = self._cached("standings.json", make)
        return data

    def pairings(self, round_no: int) -> list[dict[str, Any]]:
        rows: list[dict[str, Any]] = self._cached(
            ("pairings", round_no), lambda: views.pairings_view(self.state, round_no)
        )
        return rows

    def pairings_json(self, round_no: int) -> bytes:
        data: bytes = self._cached(
            ("pairings.json", round_no),
            lambda: render(self.pairings(round_no), Format.JSON).encode(),
        )
        return data

    def matches(self, round_no: int) -> list[dict[str, Any]]:
        """A team round's matches, then its PAB team (`pipelines.views.teams.team_round_view`);
        ``round_no`` must be paired."""
        rows: list[dict[str, Any]] = self._cached(
            ("matches", round_no), lambda: team_views.team_round_view(self.teams(), round_no)
        )
        return rows

    def matches_json(self, round_no: int) -> bytes:
        """What ``arbiter pair --format json`` prints of team round ``round_no``."""
        data: bytes = self._cached(
            ("matches.json", round_no),
            lambda: render(self.matches(round_no), Format.JSON).encode(),
        )
        return data

    def crosstable(self) -> xt.Crosstable:
        """The players' crosstable by rank (an individual event)."""
        table: xt.Crosstable = self._cached(
            "crosstable", lambda: xt.crosstable(self.state, None, order="rank")
        )
        return table

    def crosstable_json(self) -> bytes:
        """The crosstable's JSON: a team event's as ``arbiter crosstable --format json`` prints
        it (teams in standings order); an individual event's players by rank."""

        def make() -> bytes:
            if self.is_team:
                rows = team_views.team_crosstable_view(self.team_tables())
            else:
                rows = views.crosstable_view(self.crosstable())
            return render(rows, Format.JSON).encode()

        data: bytes = self._cached("crosstable.json", make)
        return data

    def summary(self) -> dict[str, Any]:
        s = self.state.settings
        shown = self.as_of()
        return {
            "id": self.id,
            "name": s.name,
            "game": s.game.value,
            "system": s.system.value,
            "players": len(self.state.players),
            "rounds_paired": self.state.last_round,
            "rounds": self.state.total_rounds,
            "standings_after_round": shown.after,
            "rounds_in_play": list(shown.in_play),
            "standings_as_of": shown.caption,
            "start_date": (s.start_date or self.created_at.date()).isoformat(),
            "city": s.city,
            "version": self.version,
        }


@dataclass(frozen=True, slots=True)
class ListEntry:
    name: str
    method: str
    as_of: dt.date
    players: int
    output: str
    content_sha256: str
    as_of_position: int
    position: int


class Hub:
    """Projections of the whole log, as of `position`; `sync` brings them up to date."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.position = 0
        self.epoch: int | None = None
        self.generation = 0
        """Raised after each sync that applied anything, once its views are published."""
        self.views: dict[str, TournamentView] = {}
        self.accounts = Accounts()
        self.lists: list[ListEntry] = []
        self._work: dict[str, tuple[TournamentState, int, int, dt.datetime]] = {}
        """Each tournament's working state (folded in place), position, stream version and
        creation time."""
        self._team_events: dict[str, list[Event]] = {}
        """Each team event's team events (`TournamentView.team_events`)."""
        self._listeners: list[Callable[[set[str]], None]] = []
        self.warmers: list[Callable[[TournamentView], object]] = []
        """Run on a new view before it is published (pages of the new version rendered off
        the request path, so no reader waits for them)."""

    def subscribe(self, listener: Callable[[set[str]], None]) -> None:
        """`listener(changed tournament ids)` runs (on the follower's thread) after a sync."""
        self._listeners.append(listener)

    def sync(self, store: Store) -> set[str]:
        """Apply what the log has after `position`; the ids of the tournaments that changed."""
        with self._lock:
            changed: set[str] = set()
            start = (self.epoch, self.position)
            epoch = store.log_epoch()
            if epoch != self.epoch:
                if self.epoch is not None:
                    changed |= set(self.views)
                self._reset(epoch)
            while True:
                batch = store.read_all(self.position, limit=5000)
                if not batch:
                    break
                for event in batch:
                    self._apply(event, changed)
                    self.position = event.position
            for tid in changed:
                self._publish(tid)
            if (self.epoch, self.position) != start:
                self.generation += 1
        if changed:
            for listener in self._listeners:
                listener(changed)
        return changed

    def _reset(self, epoch: int) -> None:
        self.epoch = epoch
        self.position = 0
        self.views = {}
        self._work = {}
        self._team_events = {}
        self.accounts = Accounts()
        self.lists = []

    def _apply(self, e: RecordedEvent, changed: set[str]) -> None:
        sid = e.stream_id
        if sid.startswith(STREAM_PREFIX):
            tid = sid.removeprefix(STREAM_PREFIX)
            work = self._work.get(tid)
            state = evolve(work[0] if work else None, e.event)
            self._work[tid] = (state, e.position, e.version, work[3] if work else e.recorded_at)
            if isinstance(e.event, TEAM_EVENTS):
                self._team_events.setdefault(tid, []).append(e.event)
            changed.add(tid)
        elif sid == ACCOUNTS_STREAM:
            self.accounts.apply(e.event)
        elif sid.startswith(RATINGLIST_PREFIX):
            event = e.event
            if isinstance(event, RatingListPublished):
                self.lists.append(
                    ListEntry(
                        sid.removeprefix(RATINGLIST_PREFIX),
                        event.method,
                        event.as_of,
                        event.players,
                        event.output,
                        event.content_sha256,
                        event.as_of_position,
                        e.position,
                    )
                )

    def _publish(self, tid: str) -> None:
        work = self._work.get(tid)
        if work is None:
            self.views.pop(tid, None)
            return
        state, position, version, created = work
        team_events = tuple(self._team_events.get(tid, ()))
        view = TournamentView(state.detached_copy(), version, position, created, team_events)
        try:
            view.standings_json()
            for warm in self.warmers:
                warm(view)
        except ArbiterError as exc:  # the page says it when asked; the server stays up
            log.warning("%s: not warmed: %s", tid, exc)
        self.views[tid] = view

    def view(self, tid: str) -> TournamentView | None:
        return self.views.get(tid)

    def snapshot(self, tid: str) -> Snapshot | None:
        """The published state of a tournament, for a command to decide on without reading
        and folding its stream again (the append's version check still guards it)."""
        view = self.views.get(tid)
        if view is None:
            return None
        return Snapshot(STREAM_PREFIX + tid, view.state, view.version)


class Follower:
    """The thread that keeps a `Hub` up to date with the log."""

    POLL = 0.05
    REFRESH = 5.0

    def __init__(self, hub: Hub, access: StoreAccess) -> None:
        self.hub = hub
        self.access = access
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="arbiter-follower", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)

    def _run(self) -> None:
        last_sync = 0.0
        while not self._stop.is_set():
            try:
                if self.access.is_server:
                    with self.access.open() as store:
                        self.hub.sync(store)
                        store.wait_for_events(self.hub.position, 1.0)
                    continue
                changed = self.access.file_signature() != self.access.seen
                if changed or time.monotonic() - last_sync > self.REFRESH:
                    with self.access.open() as store:
                        self.hub.sync(store)
                    last_sync = time.monotonic()
            except ArbiterError as exc:  # busy file, lost server: try again shortly
                log.warning("log follower: %s", exc)
                self._stop.wait(0.5)
            except Exception:
                log.exception("log follower failed; retrying")
                self._stop.wait(1.0)
            self._stop.wait(self.POLL)


def summaries_json(hub: Hub) -> bytes:
    rows = [v.summary() for v in sorted(hub.views.values(), key=lambda v: v.id)]
    return json.dumps(rows, ensure_ascii=False, indent=2).encode()
