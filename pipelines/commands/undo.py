"""Undo and restore: rounds taken back into the archive and brought back (`events.store`
keeps the archive; the log's rules on what may be restored are the store's)."""

from __future__ import annotations

from typing import Any

from events.schema import RoundPaired
from events.store import Store, Truncation
from pipelines.commands.base import CommandError, actor, checked_text, load

__all__ = ["restore", "truncations", "undo"]


def undo(store: Store, tournament_id: str, round_no: int, reason: str | None) -> Truncation:
    """Archive the stream back to just before round `round_no` was paired."""
    if reason is not None:
        checked_text("reason", reason, tournament_id)
    loaded = load(store, tournament_id)
    paired_at = next(
        (
            e.version
            for e in loaded.events
            if isinstance(e.event, RoundPaired) and e.event.round == round_no
        ),
        None,
    )
    if paired_at is None:
        raise CommandError(
            f"{tournament_id}: round {round_no} is not paired "
            f"(last paired round: {loaded.state.last_round or 'none'})"
        )
    return store.truncate(
        loaded.stream_id,
        paired_at - 1,
        loaded.version,
        actor(),
        reason or f"undo to before round {round_no}",
    )


def restore(store: Store, tournament_id: str, truncation_id: int | None = None) -> Truncation:
    """Bring back the events of an undo (the latest, or ``truncation_id``) whose cut point is
    the stream's head."""
    loaded = load(store, tournament_id)
    if truncation_id is not None:
        mine = {t.truncation_id for t in store.truncations(loaded.stream_id)}
        if truncation_id not in mine:
            known = ", ".join(map(str, sorted(mine))) or "none"
            raise CommandError(
                f"{tournament_id}: no truncation {truncation_id} (its truncations: {known})"
            )
    return store.restore(loaded.stream_id, actor(), truncation_id)


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
