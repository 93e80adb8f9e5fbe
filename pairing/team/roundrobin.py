"""Team round robin: the Berger tables (Handbook C.05 Annex 1) applied to teams.

The team a Berger table gives White has White on board 1; the board colours then alternate
inside the match (`pairing.team.boards`), so board 1's colour alternates from round to round
as the table alternates it for players.
"""

from __future__ import annotations

from pairing.roundrobin import pair_round_robin
from pairing.team.model import TeamPair, TeamRound

__all__ = ["pair_team_round_robin"]


def pair_team_round_robin(teams: list[int], round_no: int, cycles: int = 1) -> TeamRound:
    """Round ``round_no`` for teams listed by pairing number (index 0 is team 1).

    >>> pair_team_round_robin([1, 2, 3, 4], 1).pairs[0]
    TeamPair(white=1, black=4)
    """
    pairs: list[TeamPair] = []
    pab = None
    for board in pair_round_robin(teams, round_no, cycles):
        if board.black is None:
            pab = board.white
        else:
            pairs.append(TeamPair(white=board.white, black=board.black))
    return TeamRound(pairs=tuple(pairs), pab=pab)
