"""The tournament state and its fold, moved to `decide.state` (the write side, issue 43):
this re-export keeps the old imports working until the lead removes it after the merge."""

from decide.state import (
    BoardState,
    Pairing,
    PlayerState,
    RequestState,
    RoundState,
    TournamentState,
    evolve,
    project,
)

__all__ = [
    "BoardState",
    "Pairing",
    "PlayerState",
    "RequestState",
    "RoundState",
    "TournamentState",
    "evolve",
    "project",
]
