"""Self-registrations and check-in as the CLI, the API and the manage page list them."""

from __future__ import annotations

from typing import Any

from decide.state import TournamentState
from pipelines.commands.registration import window

__all__ = ["check_in_view", "requests_view"]


def requests_view(state: TournamentState, *, private: bool = True) -> list[dict[str, Any]]:
    """One row per request, in order: number, name, status, the player id it became. The
    entry's other fields (birth, FIDE id ...) only when ``private`` (the director's view)."""
    rows = []
    for number, r in sorted(state.requests.items()):
        row: dict[str, Any] = {"request": number, "name": r.entry.name, "status": r.status}
        if private:
            row |= r.entry.model_dump(exclude={"name"})
        row |= {"player": r.player, "reason": r.reason}
        rows.append(row)
    return rows


def check_in_view(state: TournamentState) -> dict[str, Any]:
    """The window and, per player (by start rank), whether he is checked in."""
    ranks = state.start_ranks()
    span = window(state)
    return {
        "opens": None if span is None else span[0].isoformat(timespec="minutes"),
        "closes": None if span is None else span[1].isoformat(timespec="minutes"),
        "round_1_paired": 1 in state.rounds,
        "players": [
            {
                "id": pid,
                "number": ranks[pid],
                "name": state.players[pid].name,
                "checked_in": state.players[pid].checked_in,
            }
            for pid in sorted(state.players, key=ranks.__getitem__)
        ],
    }
