"""The pieces every log-to-file builder needs: the state, and metadata by event."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from decide.state import PlayerState, TournamentState, project
from events.schema import PlayerRegistered, RoundPaired
from events.store import RecordedEvent

__all__ = ["LogView", "view_of"]


@dataclass(frozen=True, slots=True)
class LogView:
    state: TournamentState
    created_meta: dict[str, Any]
    player_meta: dict[int, dict[str, Any]]
    round_meta: dict[int, dict[str, Any]]
    """Metadata of the latest ``RoundPaired`` of each round."""

    def players(self) -> list[PlayerState]:
        """Players in start order (pairing number, else id)."""
        return sorted(
            self.state.players.values(),
            key=lambda p: (p.pairing_number if p.pairing_number is not None else p.id, p.id),
        )


def view_of(events: Sequence[RecordedEvent]) -> LogView:
    state = project(e.event for e in events)
    player_meta: dict[int, dict[str, Any]] = {}
    round_meta: dict[int, dict[str, Any]] = {}
    for e in events:
        if e.event_type == "PlayerRegistered":
            event = e.event
            assert isinstance(event, PlayerRegistered)
            player_meta[event.player] = e.meta
        elif e.event_type == "RoundPaired":
            paired = e.event
            assert isinstance(paired, RoundPaired)
            round_meta[paired.round] = e.meta
    return LogView(state, events[0].meta if events else {}, player_meta, round_meta)
