"""Team pairing: FIDE Team Swiss (C.04.6), team round robin, board colours inside a match."""

from pairing.team.boards import board_colours
from pairing.team.model import (
    ColourType,
    MatchKind,
    PrimaryScore,
    TeamEntry,
    TeamHistory,
    TeamPair,
    TeamRound,
    TeamSwissInput,
)
from pairing.team.roundrobin import pair_team_round_robin
from pairing.team.swiss import TeamSwissError, pair, pair_round

__all__ = [
    "ColourType",
    "MatchKind",
    "PrimaryScore",
    "TeamEntry",
    "TeamHistory",
    "TeamPair",
    "TeamRound",
    "TeamSwissError",
    "TeamSwissInput",
    "board_colours",
    "pair",
    "pair_round",
    "pair_team_round_robin",
]
