"""What the Dubov system (C.04.4.1, rules from 1 February 2026) knows about each player.

Article 1 of the rules: the ranking (score, then TPN), colour differences and preferences
(1.6: absolute, strong, mild; a player without games has a mild preference for Black), the
average rating of opponents (1.7: ARO, over games played, rounded half up), upfloats and the
maximum upfloater (1.8: MaxT = 2 + rounds // 5), and who may not receive the PAB (C2: a player
who had it or already won a game by forfeit).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from pairing.swiss.model import Colour, SwissInput
from pairing.swiss.state import MatchScore, PlayerState, build_states, invert

__all__ = ["DubovPlayer", "Strength", "dubov_players"]


class Strength(IntEnum):
    """Strength of a colour preference (Article 1.6)."""

    MILD = 1
    STRONG = 2
    ABSOLUTE = 3


@dataclass(frozen=True, slots=True)
class DubovPlayer:
    """One player to pair, with the facts the Dubov articles read."""

    number: int
    """TPN: the pairing number."""
    score: int
    """Points in tenths, without acceleration."""
    rank_score: int
    """Points in tenths with acceleration: the score that ranks players."""
    preference: Colour
    strength: Strength
    colours: tuple[Colour, ...]
    """Colours of the games played, oldest first."""
    opponents: frozenset[int]
    """TPNs of the opponents met over the board."""
    aro: int
    upfloats: int
    upfloated_last_round: bool
    maximum_upfloater: bool
    bye_received: bool
    """Had the PAB or won a game by forfeit (C2)."""

    @property
    def played(self) -> int:
        """Games played over the board."""
        return len(self.colours)


def _preference(colours: tuple[Colour, ...]) -> tuple[Colour, Strength]:
    """Article 1.6: the colour a player should get next, and how strongly."""
    if not colours:
        return Colour.BLACK, Strength.MILD
    difference = sum(1 if c is Colour.WHITE else -1 for c in colours)
    lower = Colour.BLACK if difference > 0 else Colour.WHITE
    repeated = len(colours) > 1 and colours[-1] is colours[-2]
    if abs(difference) > 1:
        return lower, Strength.ABSOLUTE
    if repeated:
        return invert(colours[-1]), Strength.ABSOLUTE
    if difference:
        return lower, Strength.STRONG
    return invert(colours[-1]), Strength.MILD


def _upfloats(p: PlayerState, states: list[PlayerState], rounds: int) -> tuple[int, bool]:
    """Games against a higher-scored opponent (scores before that round), and whether the
    last round was one."""
    count, last = 0, False
    for index, r in enumerate(p.rounds[:rounds]):
        if not r.played:
            last = False
            continue
        back = rounds - index
        last = states[r.opponent].score_back(rounds, back) > p.score_back(rounds, back)
        count += last
    return count, last


def dubov_players(swiss: SwissInput) -> list[DubovPlayer]:
    """The players present in the round to pair, in ranking order (Article 1.2)."""
    states = build_states(swiss)
    ratings = {p.number: p.rating for p in swiss.players}
    max_t = 2 + swiss.total_rounds // 5
    rounds = swiss.rounds_played
    players: list[DubovPlayer] = []
    for p in states:
        if p.number in swiss.absent:
            continue
        games = [r for r in p.rounds if r.played]
        colours = tuple(r.colour for r in games)
        preference, strength = _preference(colours)
        opponents = [states[r.opponent].number for r in games]
        total = sum(ratings[o] for o in opponents)
        aro = (2 * total + len(opponents)) // (2 * len(opponents)) if opponents else 0
        upfloats, last = _upfloats(p, states, rounds)
        players.append(
            DubovPlayer(
                number=p.number,
                score=p.score,
                rank_score=p.score_back(rounds),
                preference=preference,
                strength=strength,
                colours=colours,
                opponents=frozenset(opponents),
                aro=aro,
                upfloats=upfloats,
                upfloated_last_round=last,
                maximum_upfloater=upfloats >= max_t,
                bye_received=any(
                    not r.played and r.participated and r.score == MatchScore.WIN for r in p.rounds
                ),
            )
        )
    players.sort(key=lambda d: (-d.rank_score, d.number))
    return players
