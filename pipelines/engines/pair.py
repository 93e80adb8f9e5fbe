"""``arbiter pair``: the boards of the next round, by the registry's engine for the tournament."""

from __future__ import annotations

from decide.state import TournamentState
from events.domain import Board
from pipelines.engines import registry

__all__ = ["Notes", "pair_next_round"]

Notes = list[str] | None
"""Where an engine writes its explanation, one line per board, when the director asks."""


def pair_next_round(
    state: TournamentState, round_no: int, notes: Notes = None, bye: int | None = None
) -> list[Board]:
    """Boards of round `round_no`; with `notes`, each engine says why, board by board.

    ``bye``: the player the director gives the bye of an odd field (gopair's ``-bye``).

    :raises PairingUnavailable: no engine for the tournament's system (an imported event).
    :raises PairingError: the engine cannot pair the round.
    """
    engine = registry.find(
        state.game, state.system, state.settings.pairing_params.chess.rules or None
    )
    boards, explanation = engine.pair_live(state, round_no, bye=bye, explain=notes is not None)
    if notes is not None:
        notes.extend(explanation)
    return boards
