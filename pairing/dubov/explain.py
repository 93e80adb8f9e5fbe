"""Human-readable reasons for a Dubov round: one line per board, then the PAB.

Per board: the score of each player (an upfloater's too), each player's colour preference
(Article 1.6: absolute, strong or mild) and whether it is met, and the ARO that orders G1
(Article 1.7). The PAB line gives the facts of Article 3.1.
"""

from __future__ import annotations

from decimal import Decimal

from pairing.dubov.players import DubovPlayer, dubov_players
from pairing.swiss.model import Colour, SwissInput, SwissRound

__all__ = ["explain"]

_NAME = {Colour.WHITE: "White", Colour.BLACK: "Black"}


def _points(tenths: int) -> str:
    return str(Decimal(tenths) / 10)


def _colour(p: DubovPlayer, got: Colour) -> str:
    verdict = "met" if p.preference is got else "not met"
    return f"{p.number} {p.strength.name.lower()} preference for {_NAME[p.preference]} {verdict}"


def explain(swiss: SwissInput, result: SwissRound) -> list[str]:
    """Reasons for ``result``, the Dubov pairing of round ``swiss.round_to_pair``."""
    players = {p.number: p for p in dubov_players(swiss)}
    lines: list[str] = []
    for board, (w, b) in enumerate(result.boards, start=1):
        white, black = players[w], players[b]
        if white.rank_score == black.rank_score:
            groups = f"both in score group {_points(white.rank_score)}"
        else:
            high, low = (white, black) if white.rank_score > black.rank_score else (black, white)
            groups = (
                f"{low.number} upfloats from {_points(low.rank_score)} to "
                f"{_points(high.rank_score)} ({low.upfloats} earlier upfloats)"
            )
        colours = "; ".join((_colour(white, Colour.WHITE), _colour(black, Colour.BLACK)))
        aro = f"ARO {white.number}: {white.aro}, {black.number}: {black.aro}"
        lines.append(f"board {board}: {w} - {b}: {groups}; {colours}; {aro}")
    if result.pab is not None:
        p = players[result.pab]
        eligible = [q for q in players.values() if not q.bye_received]
        lowest = min(q.rank_score for q in eligible)
        lines.append(
            f"PAB: {p.number}: {len(players)} players present (odd); no earlier PAB or "
            f"forfeit win (C2); score {_points(p.rank_score)}, lowest eligible score "
            f"{_points(lowest)} (3.1.3); {p.played} games played (3.1.4); TPN {p.number} "
            "(3.1.5: the largest among equals that lets the round be completed)"
        )
    return lines
