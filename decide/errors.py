"""The refusals of the write side: a command the tournament's state does not allow."""

from __future__ import annotations

from events.errors import NotFound, UserError

__all__ = ["CommandError", "UnknownPlayer", "UnknownTournament"]


class CommandError(UserError):
    """A request the tournament's state does not allow; nothing was appended."""


class UnknownTournament(CommandError, NotFound):
    """No tournament stream has this id."""


class UnknownPlayer(CommandError, NotFound):
    """The tournament has no player with this id."""
