"""Order inside a Burstein scoregroup: Sonneborn-Berger, Buchholz, Median (pairing.md 3).

As bbpPairings computes them: an unplayed round counts as a draw in an opponent's adjusted
score, and the player's own unplayed rounds are scored against a virtual opponent whose score
starts at the draws of the rounds still to come. Players of different scores (a floater
within a scoregroup) compare by Buchholz and Median multiplied by their score.
"""

from __future__ import annotations

from typing import NamedTuple

from pairing.swiss.state import MatchScore, PlayerState, Round

__all__ = ["Metric", "metrics"]


class Metric(NamedTuple):
    """A player's tie-break scores (points in tenths, products of two such).

    Named tuples, as the other value classes of the Burstein engine: their classes take a
    sixth of a dataclass's time to make, which ``arbiter-pairings --burstein`` pays at start-up.
    """

    score: int
    sonneborn_berger: int
    buchholz: int
    median: int
    rank: int

    def key(self) -> tuple[int, int, int, int, int]:
        """The players' order, the first highest: by score, then (a scoregroup's order)
        Sonneborn-Berger, Buchholz, Median, the higher the better, and rank."""
        return (-self.score, -self.sonneborn_berger, -self.buchholz, -self.median, self.rank)

    def below(self, other: Metric) -> bool:
        """Whether this player comes after ``other`` in the scoregroup order."""
        if self.score == other.score:
            return self.key() > other.key()
        return (
            self.sonneborn_berger,
            self.buchholz * self.score,
            self.median * self.score,
            other.rank,
        ) < (
            other.sonneborn_berger,
            other.buchholz * other.score,
            other.median * other.score,
            self.rank,
        )


class _Points(NamedTuple):
    win: int
    draw: int
    forfeit_loss: int
    pab: int


def _virtual_opponent(p: PlayerState, r: Round, pts: _Points) -> int:
    if r.score == MatchScore.LOSS:
        return pts.win
    if r.score == MatchScore.DRAW:
        return pts.draw
    if r.opponent == p.index and r.participated and pts.pab < pts.win:
        return pts.win if pts.pab < pts.draw else pts.draw
    return pts.forfeit_loss


def _opponent_scores(
    p: PlayerState, rounds_played: int, adjusted: list[int], pts: _Points, acceleration: int
) -> tuple[list[int], list[int]]:
    """Per round: the (adjusted or virtual) opponent score, and the player's points."""
    virtual = (rounds_played - 1) * pts.draw + acceleration
    opponents: list[int] = []
    points: list[int] = []
    for r in p.rounds[:rounds_played]:
        opponents.append(
            adjusted[r.opponent] if r.played else virtual + _virtual_opponent(p, r, pts)
        )
        points.append(r.points)
        virtual += r.points - pts.draw
    return opponents, points


def metrics(
    players: list[PlayerState],
    rounds_played: int,
    scoring: dict[str, int],
    accelerations: list[int],
    ranks: dict[int, int],
) -> list[Metric]:
    """Tie-break scores of every player (by index), from the accelerated scores given."""
    pts = _Points(scoring["win"], scoring["draw"], scoring["forfeit_loss"], scoring["pab"])
    adjusted = [
        accelerations[p.index]
        + sum(r.points if r.played else pts.draw for r in p.rounds[:rounds_played])
        for p in players
    ]
    result: list[Metric] = []
    for p in players:
        opponents, points = _opponent_scores(
            p, rounds_played, adjusted, pts, accelerations[p.index]
        )
        buchholz = sum(opponents)
        median = 0
        if rounds_played > 2:
            median = buchholz - min(opponents) - max(opponents)
        result.append(
            Metric(
                score=p.score + accelerations[p.index],
                sonneborn_berger=sum(o * s for o, s in zip(opponents, points, strict=True)),
                buchholz=buchholz,
                median=median,
                rank=ranks.get(p.index, len(players) + p.index),
            )
        )
    return result
