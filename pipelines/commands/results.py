"""Results: the service that enters a board's result or corrects it, one at a time or a
round's worth at once. The rule is the decider's (`decide.results`); every door enters results
through `record` (`arbiter result`, `arbiter results --file`, `batch`, the API, the manage
form).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from decide import results as decide
from decide.inputs import ResultInput
from decide.results import Entered, TeamMatches
from events.errors import UserError
from events.store import Store
from pipelines.commands.base import Loaded, Snapshot, append, decided_again, snapshot
from projections.teams import TeamsState, match_boards, team_state

__all__ = ["Entered", "StoreMatches", "record", "record_one"]


class StoreMatches(TeamMatches):
    """A team tournament's matches, read from its team events the first time a result
    entered ``M.B`` asks (a state the caller held, the server's, comes without its events)."""

    def __init__(self, store: Store, loaded: Snapshot) -> None:
        self._store = store
        self._loaded = loaded
        self._teams: TeamsState | None = None

    def _read(self) -> TeamsState:
        if self._teams is None:
            loaded = self._loaded
            stream = (
                loaded.events
                if isinstance(loaded, Loaded)
                else self._store.read_stream(loaded.stream_id, loaded.version)
            )
            self._teams = team_state(e.event for e in stream)
        return self._teams

    def count(self, round_no: int) -> int | None:
        paired = self._read().rounds.get(round_no)
        return None if paired is None else len(paired.matches)

    def boards(self, round_no: int, match_no: int) -> tuple[int, ...] | None:
        found = match_boards(self._loaded.state, self._read(), round_no, match_no)
        return None if found is None else tuple(b.board for b in found)


@decided_again
def record(
    store: Store,
    tournament_id: str,
    entries: Sequence[tuple[ResultInput | Mapping[str, Any], Any]],
    *,
    known: Snapshot | None = None,
    command: str | None = None,
    located: Callable[[Any, UserError], UserError] | None = None,
) -> list[Entered]:
    """Enter results in one append (all or none, `decide.results.results`). ``entries``
    pairs each result with where it came from; ``located(where, error)`` turns a refusal
    into one naming that place (a results file's line and column)."""
    loaded = snapshot(store, tournament_id, known)
    matches = StoreMatches(store, loaded) if loaded.state.system.is_team else TeamMatches.none()
    events = decide.results(loaded.state, entries, matches=matches, located=located)
    if events:
        meta = {} if command is None else {"command": command}
        append(store, loaded, events, **meta)
    return events


def record_one(
    store: Store,
    tournament_id: str,
    entry: ResultInput | Mapping[str, Any],
    *,
    known: Snapshot | None = None,
) -> Entered:
    """Enter (or correct) one board's result."""
    (event,) = record(store, tournament_id, [(entry, None)], known=known)
    return event
