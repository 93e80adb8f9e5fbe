"""What every decider shares: an event built from the user's input, the player a command
names and how a message says him (`numbered`), the next player id."""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import ValidationError

from decide.errors import CommandError, UnknownPlayer
from decide.state import TournamentState
from events.schema import EventBase

__all__ = ["known_player", "new_event", "next_player_id", "numbered"]

E = TypeVar("E", bound=EventBase)


def new_event(cls: type[E], context: str, **fields: Any) -> E:
    """An event built from the user's input: a field its schema refuses is a `CommandError`
    naming the field. (The limits every text and number is held to, `ingest.limits`, are
    the service's check before it appends: `pipelines.commands.base.append`.)"""
    try:
        return cls(**fields)
    except ValidationError as exc:
        raise CommandError.from_validation(exc, context) from None


def known_player(state: TournamentState, player: int) -> None:
    """Refuse a player id the tournament does not have."""
    if player not in state.players:
        raise UnknownPlayer(f"{state.id}: no player {player}")


def next_player_id(state: TournamentState) -> int:
    """The id a new player gets: never one a player had, removed players' included."""
    return max(state.players.keys() | state.removed, default=0) + 1


def numbered(state: TournamentState, player: int, ranks: dict[int, int] | None = None) -> str:
    """A player as every message says him: by his pairing number (start rank) and name,
    ``No. 4 (Berg, Anna)`` (issue 47: one number per player, as the user sees it). Before
    round 1 is paired the number is the field's order as it stands. ``ranks``: the state's
    start ranks, when the caller has them."""
    rank = (ranks or state.start_ranks()).get(player)
    said = f"No. {rank}" if rank is not None else f"id:{player}"
    return f"{said} ({state.players[player].name})"
