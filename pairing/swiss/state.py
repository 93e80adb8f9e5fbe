"""Derived per-player facts used by the Swiss systems: scores in tenths, colour preferences.

Scores are integers (ten times the points) so every comparison is exact. The colour fields
follow C.04.3 A.6 (2025: article 1.7) as the reference engine reads them: unplayed rounds are
skipped, a preference is absolute for a colour difference above 1 or two equal colours in a
row, strong for a difference of 1, mild otherwise.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from decimal import Decimal

from pairing.swiss.model import Colour, HistoryEntry, Result, Scoring, SwissInput, SwissPlayer

__all__ = ["MatchScore", "PlayerState", "Round", "build_states", "tenths"]


class MatchScore:
    """Outcome of one round as an int: 0 loss, 1 draw, 2 win."""

    LOSS = 0
    DRAW = 1
    WIN = 2


_WINS = frozenset({Result.WIN, Result.WIN_UNRATED, Result.FORFEIT_WIN, Result.FULL_BYE, Result.PAB})
_DRAWS = frozenset({Result.DRAW, Result.DRAW_UNRATED, Result.HALF_BYE})
_NO_GAME = frozenset(
    {
        Result.FORFEIT_WIN,
        Result.FORFEIT_LOSS,
        Result.HALF_BYE,
        Result.FULL_BYE,
        Result.PAB,
        Result.ZERO_BYE,
        Result.BLANK,
    }
)


def tenths(value: Decimal) -> int:
    """Points as an exact integer number of tenths."""
    scaled = value * 10
    if scaled != scaled.to_integral_value():
        raise ValueError(f"points must be multiples of 0.1, found {value}")
    return int(scaled)


@dataclass(frozen=True, slots=True)
class Round:
    """One round of history in engine terms."""

    opponent: int
    """0-based index of the opponent, or the player's own index when there was none."""
    colour: Colour
    score: int
    played: bool
    participated: bool
    """Paired (with an opponent, or as the PAB, or a forfeit win without opponent)."""
    points: int


@dataclass(frozen=True, slots=True)
class PlayerState:
    """A player's derived state before the round to pair."""

    index: int
    number: int
    rating: int
    rounds: tuple[Round, ...]
    score: int
    """Points in tenths, without acceleration."""
    accelerations: tuple[int, ...]
    colour_preference: Colour
    colour_imbalance: int
    repeated_colour: Colour
    strong_preference: bool
    played_games: int

    @property
    def absolute_imbalance(self) -> bool:
        """|white - black| > 1."""
        return self.colour_imbalance > 1

    @property
    def absolute_preference(self) -> bool:
        """Absolute colour preference (imbalance > 1 or two equal colours in a row)."""
        return self.colour_imbalance > 1 or self.repeated_colour is not Colour.NONE

    def acceleration(self, round_index: int) -> int:
        """Fictitious points (tenths) for the 0-based round index."""
        return self.accelerations[round_index] if round_index < len(self.accelerations) else 0

    def score_back(self, rounds_played: int, rounds_back: int = 0) -> int:
        """Score with acceleration as it was ``rounds_back`` rounds before the round to pair."""
        score = self.score
        for index in range(rounds_played - rounds_back, rounds_played):
            score -= self.rounds[index].points
        return score + self.acceleration(rounds_played - rounds_back)


def invert(colour: Colour) -> Colour:
    """The other colour; NONE stays NONE."""
    if colour is Colour.WHITE:
        return Colour.BLACK
    if colour is Colour.BLACK:
        return Colour.WHITE
    return Colour.NONE


def _round(index: int, entry: HistoryEntry, scoring: dict[str, int]) -> Round:
    opponent = index if entry.opponent is None else entry.opponent - 1
    result = entry.result
    score = (
        MatchScore.WIN
        if result in _WINS
        else MatchScore.DRAW
        if result in _DRAWS
        else MatchScore.LOSS
    )
    played = opponent != index and entry.colour is not Colour.NONE and result not in _NO_GAME
    participated = opponent != index or result in (Result.PAB, Result.FORFEIT_WIN)
    if score == MatchScore.LOSS:
        points = (
            (scoring["loss"] if played else scoring["forfeit_loss"])
            if participated
            else scoring["zero_bye"]
        )
    elif score == MatchScore.WIN:
        points = scoring["pab"] if opponent == index and participated else scoring["win"]
    else:
        points = scoring["draw"]
    return Round(opponent, entry.colour, score, played, participated, points)


def _player(player: SwissPlayer, rounds_played: int, scoring: dict[str, int]) -> PlayerState:
    index = player.number - 1
    entries = list(player.history) + [HistoryEntry()] * (rounds_played - len(player.history))
    rounds = tuple(_round(index, e, scoring) for e in entries)
    white = black = consecutive = 0
    last = Colour.NONE
    for r in rounds:
        if not r.played:
            continue
        if r.colour is Colour.WHITE:
            white += 1
        else:
            black += 1
        consecutive = 1 if consecutive == 0 or r.colour is not last else consecutive + 1
        last = r.colour
    lower = Colour.BLACK if white > black else Colour.WHITE
    imbalance = abs(white - black)
    if imbalance > 1:
        preference = lower
    elif consecutive > 1:
        preference = invert(last)
    elif imbalance > 0:
        preference = lower
    elif consecutive:
        preference = invert(last)
    else:
        preference = Colour.NONE
    repeated = last if consecutive > 1 else Colour.NONE
    absolute = imbalance > 1 or repeated is not Colour.NONE
    return PlayerState(
        index=index,
        number=player.number,
        rating=player.rating,
        rounds=rounds,
        score=sum(r.points for r in rounds),
        accelerations=tuple(tenths(a) for a in player.accelerations),
        colour_preference=preference,
        colour_imbalance=imbalance,
        repeated_colour=repeated,
        strong_preference=not absolute and imbalance > 0,
        played_games=sum(r.played for r in rounds),
    )


def scoring_tenths(scoring: Scoring) -> dict[str, int]:
    """The scoring values in tenths, keyed by field name."""
    return {f.name: tenths(getattr(scoring, f.name)) for f in fields(scoring)}


def build_states(swiss: SwissInput) -> list[PlayerState]:
    """Derived state of every player, indexed by pairing number - 1."""
    scoring = scoring_tenths(swiss.scoring)
    return [
        _player(p, swiss.rounds_played, scoring)
        for p in sorted(swiss.players, key=lambda p: p.number)
    ]


def forbidden_opponents(swiss: SwissInput, states: list[PlayerState]) -> list[set[int]]:
    """Indexes each player must not meet: earlier opponents and forbidden pairs (C1)."""
    forbidden: list[set[int]] = [set() for _ in states]
    for p in states:
        forbidden[p.index].update(r.opponent for r in p.rounds if r.played)
    for group in swiss.forbidden:
        for a in group:
            forbidden[a - 1].update(b - 1 for b in group if b != a)
    return forbidden
