"""``rules`` (``--rules``): the edition of the Dutch rules a chess tournament is paired with
(the editions are the registry's lines for the system); ``accelerate`` (``--accelerate``): Baku
acceleration on the FIDE Swiss systems."""

from __future__ import annotations

from events.domain import Game, System
from events.errors import UserError, braced
from pipelines.engines.registry import editions

__all__ = ["ACCELERATED", "acceleration", "dutch_rules"]


def dutch_rules(text: str, game: Game, system: System) -> str:
    """The edition named by ``text``, checked against the tournament's game and system.

    :raises UserError: for an unknown edition, or rules given for another system.
    """
    known = editions(game, system)
    if game is not Game.CHESS or not known:
        raise UserError.naming(
            "{0} applies to the chess Dutch system, not to "
            + braced(f"{game.value} {system.value}"),
            "rules",
        )
    edition = text.strip()
    if edition not in known:
        raise UserError.naming(
            "unknown {0} " + braced(f"'{text}' (known editions: {', '.join(sorted(known))})"),
            "rules",
        )
    return edition


ACCELERATED = frozenset({System.DUTCH, System.BURSTEIN, System.DUBOV})
"""The systems Baku acceleration applies to (C.04.7 is written for the FIDE Swiss systems)."""


def acceleration(text: str, game: Game, system: System) -> str | None:
    """``baku`` (or ``none``), checked against the tournament's game and system.

    :raises UserError: for an unknown method, or acceleration on another system.
    """
    method = text.strip().lower()
    if method not in ("baku", "none"):
        raise UserError.naming(
            "unknown {0} " + braced(f"'{text}' (known: baku, none)"), "accelerate"
        )
    if method == "none":
        return None
    if game is not Game.CHESS or system not in ACCELERATED:
        raise UserError.naming(
            "{0} applies to the chess Dutch, Burstein and Dubov systems, not to "
            + braced(f"{game.value} {system.value}"),
            "accelerate",
        )
    return method
