"""The undo deciders: rounds taken back into the archive (`undo`) and brought back
(`restore`).

An undo appends no event: it archives the stream's tail (`events.store.Store.truncate`). The
decider says where the cut falls (just before the round's pairing, so the round, the rounds
after it and everything entered since go), or refuses a round that is not paired; the service
cuts there. A restore names one of the tournament's own truncations (the store says whether
its cut point is still the stream's head).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from decide.errors import CommandError
from decide.state import TournamentState
from events.schema import RoundPaired
from events.store import RecordedEvent, Truncation

__all__ = ["Cut", "restore", "undo"]


@dataclass(frozen=True, slots=True)
class Cut:
    """Where `undo` cuts the stream: the last version kept, and the reason recorded."""

    keep_through: int
    reason: str


def undo(
    state: TournamentState,
    round_no: int,
    *,
    stream: Sequence[RecordedEvent],
    reason: str | None,
) -> Cut:
    """Take round ``round_no`` and everything after it back: the cut just before its
    pairing (``stream``: the tournament's recorded events), refused when it is not paired.
    ``reason``: the director's, else "undo to before round N"."""
    paired_at = next(
        (
            e.version
            for e in stream
            if isinstance(e.event, RoundPaired) and e.event.round == round_no
        ),
        None,
    )
    if paired_at is None:
        raise CommandError(
            f"{state.id}: round {round_no} is not paired "
            f"(last paired round: {state.last_round or 'none'})"
        )
    return Cut(paired_at - 1, reason or f"undo to before round {round_no}")


def restore(
    state: TournamentState, truncation_id: int | None, *, truncations: Sequence[Truncation]
) -> int | None:
    """The truncation to restore (``truncation_id``, or None: the latest), refused when it
    is not one of the tournament's (``truncations``: its own, as the store keeps them)."""
    if truncation_id is not None:
        mine = {t.truncation_id for t in truncations}
        if truncation_id not in mine:
            known = ", ".join(map(str, sorted(mine))) or "none"
            raise CommandError(
                f"{state.id}: no truncation {truncation_id} (its truncations: {known})"
            )
    return truncation_id
