"""``--rules``: the edition of the Dutch rules a chess tournament is paired with."""

from __future__ import annotations

from events.domain import Game, System
from events.errors import UserError
from pipelines.chess_swiss import DUTCH_RULES

__all__ = ["dutch_rules"]


def dutch_rules(text: str, game: Game, system: System) -> str:
    """The edition named by ``text``, checked against the tournament's game and system.

    :raises UserError: for an unknown edition, or rules given for another system.
    """
    if game is not Game.CHESS or system not in (System.DUTCH, System.SWISS):
        raise UserError(
            f"--rules applies to the chess Dutch system, not to {game.value} {system.value}"
        )
    edition = text.strip()
    if edition not in DUTCH_RULES:
        known = ", ".join(sorted(DUTCH_RULES))
        raise UserError(f"unknown --rules '{text}' (known editions: {known})")
    return edition
