"""Players who enter themselves: the event's registration mode and the entry they give.

`Entry` is what a self-registration stores (`RegistrationRequested`), checked by the same rules
as every registration (`decide.inputs.PlayerInput`) before it is stored.
"""

from __future__ import annotations

from enum import StrEnum

from pydantic import Field

from events.frozen import Frozen

__all__ = ["Entry", "Registration"]


class Registration(StrEnum):
    """Whether players may enter themselves on the event's page."""

    CLOSED = "closed"
    """Only the director registers players."""
    OPEN = "open"
    """An entry is registered at once."""
    APPROVAL = "approval"
    """An entry waits until the director approves (or declines) it."""


class Entry(Frozen):
    """A player's own entry (the fields a registration form asks)."""

    name: str = Field(min_length=1)
    rating: int | None = Field(None, ge=0)
    federation: str | None = None
    fide_id: str | None = None
    title: str | None = None
    birth: str | None = None
    sex: str | None = None
    club: str | None = None
    rank: str | None = None
