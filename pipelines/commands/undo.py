"""Undo and restore: the services that take rounds back into the archive and bring them back
(decided by `decide.undo`; `events.store` keeps the archive, and the log's rules on what may
be restored are the store's)."""

from __future__ import annotations

from typing import Any

from decide import undo as decide
from events.schema import RoundPaired
from events.store import Store, Truncation
from pipelines.commands.base import actor, checked_text, load

__all__ = ["restore", "truncations", "undo"]


def undo(store: Store, tournament_id: str, round_no: int, reason: str | None) -> Truncation:
    """Archive the stream back to just before round `round_no` was paired
    (`decide.undo.undo`)."""
    if reason is not None:
        checked_text("reason", reason, tournament_id)
    loaded = load(store, tournament_id)
    cut = decide.undo(loaded.state, round_no, stream=loaded.events, reason=reason)
    return store.truncate(loaded.stream_id, cut.keep_through, loaded.version, actor(), cut.reason)


def restore(store: Store, tournament_id: str, truncation_id: int | None = None) -> Truncation:
    """Bring back the events of an undo (the latest, or ``truncation_id``) whose cut point is
    the stream's head (`decide.undo.restore`)."""
    loaded = load(store, tournament_id)
    chosen = decide.restore(
        loaded.state, truncation_id, truncations=store.truncations(loaded.stream_id)
    )
    return store.restore(loaded.stream_id, actor(), chosen)


def truncations(store: Store, tournament_id: str) -> list[dict[str, Any]]:
    """Every undo of the tournament: id, version range, what it held, restored or not."""
    loaded = load(store, tournament_id)
    rows = []
    for t in store.truncations(loaded.stream_id):
        archived = store.archived(t.truncation_id)
        rounds = sorted({e.event.round for e in archived if isinstance(e.event, RoundPaired)})
        rows.append(
            {
                "id": t.truncation_id,
                "versions": f"{t.from_version}..{t.to_version}",
                "events": t.event_count,
                "rounds": ",".join(map(str, rounds)) or "-",
                "by": t.actor,
                "at": f"{t.truncated_at:%Y-%m-%d %H:%M}",
                "reason": t.reason,
                "restorable": t.restored_at is None and t.from_version == loaded.version + 1,
                "restored": "" if t.restored_at is None else f"{t.restored_at:%Y-%m-%d %H:%M}",
            }
        )
    return rows
