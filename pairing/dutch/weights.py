"""Edge weights of the Dutch system (2025 rules) as exact integers.

Every criterion of C.04.3 (2025) that can be expressed per pair is a bit field of one integer,
most significant first (pairing.md 2.5): compatibility and completion (C1-C5), pairs and
scores in the current bracket (C6, C7), in the next bracket (C8), unplayed games of the bye
assignee (C9), colour preferences (C10-C13), repeated floats (C14-C17) and their scores
(C18-C21), then empty low-order room for the generation-order tie-breaks the engine adds.
Field widths: ``size_bits`` holds a count of players of one score group, ``groups_shift`` one
bit per score group per member (a score group's bit block is wide enough to count its members).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from pairing.swiss.model import Colour
from pairing.swiss.state import PlayerState, invert

__all__ = ["Float", "RoundContext", "colour_preferences_compatible"]


class Float(Enum):
    """Float direction of a player in a past round."""

    DOWN = 0
    UP = 1
    NONE = 2


def colour_preferences_compatible(a: Colour, b: Colour) -> bool:
    """Both preferences can be granted (they differ, or one player has none)."""
    return a is not b or a is Colour.NONE or b is Colour.NONE


@dataclass
class RoundContext:
    """Everything the weights need about the round being paired."""

    players: list[PlayerState]
    rounds_played: int
    total_rounds: int
    win: int
    draw: int
    loss: int
    forbidden: list[set[int]]
    score: list[int] = field(default_factory=list)
    """Accelerated score (tenths) before the round, by player index."""
    size_bits: int = 1
    groups_shift: int = 0
    group_shift: dict[int, int] = field(default_factory=dict)
    played_games_rank: dict[int, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.score = [p.score_back(self.rounds_played) for p in self.players]
        self._floats: dict[tuple[int, int], Float] = {}
        self._eligible = [
            not any(not r.played and r.points >= self.win for r in p.rounds) for p in self.players
        ]
        # Read for every pair of players: computed once.
        self._absolute = [p.absolute_preference for p in self.players]
        self._not_candidate: dict[int, list[bool]] = {}

    def eligible_for_bye(self, p: PlayerState) -> bool:
        """C2: no PAB for a player who already scored a win's points without playing."""
        return self._eligible[p.index]

    def compatible(self, a: PlayerState, b: PlayerState) -> bool:
        """C1 (no rematch, no prohibited pair) and C3 (absolute colour preferences)."""
        if b.index in self.forbidden[a.index]:
            return False
        if not self._absolute[a.index] or not self._absolute[b.index]:
            return True
        if a.colour_preference is not b.colour_preference:
            return True
        threshold = (self.rounds_played * max(self.win, self.draw)) >> 1
        return self.rounds_played >= self.total_rounds - 1 and (
            self.score[a.index] > threshold or self.score[b.index] > threshold
        )

    def float_of(self, p: PlayerState, rounds_back: int) -> Float:
        """Float of ``p`` in the round ``rounds_back`` rounds before the one to pair."""
        key = (p.index, rounds_back)
        cached = self._floats.get(key)
        if cached is not None:
            return cached
        match = p.rounds[self.rounds_played - rounds_back]
        if not match.played:
            # 2025 rules: without a game only scoring more than a loss is a (down)float.
            result = Float.DOWN if match.points > self.loss else Float.NONE
        else:
            own = p.score_back(self.rounds_played, rounds_back)
            other = self.players[match.opponent].score_back(self.rounds_played, rounds_back)
            result = Float.DOWN if own > other else Float.UP if own < other else Float.NONE
        self._floats[key] = result
        return result

    def total_shift(self) -> int:
        """Number of bits below the completion field in every edge weight."""
        # Completion, then the current-bracket, next-bracket and C9 fields, then the tail.
        b, g = self.size_bits, self.groups_shift
        return b + g + b + g + b + self._tail_bits()

    def _tail_bits(self) -> int:
        """Width of the colour, float and tie-break fields, below the PAB field of C9."""
        backs = min(self.rounds_played, 2)
        return (
            4 * self.size_bits
            + backs * 2 * (self.size_bits + self.groups_shift)
            + self.tie_break_bits()
        )

    def tie_break_bits(self) -> int:
        """Width of the low room the engine's generation-order tie-breaks use."""
        return 3 * self.size_bits + 1

    def max_weight(self) -> int:
        """An upper bound on every edge weight, with two spare bits (finalised pairs use it)."""
        return (1 << (self.total_shift() + 2)) - 1

    def _colour_bits(self, weight: int, p: PlayerState, o: PlayerState) -> int:
        b = self.size_bits
        same = p.colour_preference is o.colour_preference
        weight = (weight << b) | (not p.absolute_imbalance or not o.absolute_imbalance or not same)
        if p.colour_imbalance == o.colour_imbalance:
            repeat_ok = (
                p.repeated_colour is Colour.NONE or p.repeated_colour is not o.repeated_colour
            )
        else:
            wider = o if p.colour_imbalance > o.colour_imbalance else p
            repeat_ok = wider.repeated_colour is not invert(p.colour_preference)
        weight = (weight << b) | (
            not p.absolute_preference or not o.absolute_preference or not same or repeat_ok
        )
        weight = (weight << b) | colour_preferences_compatible(
            p.colour_preference, o.colour_preference
        )
        return (weight << b) | (
            (not p.strong_preference and not p.absolute_preference)
            or (not o.strong_preference and not o.absolute_preference)
            or (p.absolute_preference and o.absolute_preference)
            or not same
        )

    def is_bye_candidate(self, p: PlayerState, bye_score: int) -> bool:
        """Eligible for the PAB and not above the score the PAB goes to."""
        return self.eligible_for_bye(p) and self.score[p.index] <= bye_score

    def completion(self, a: PlayerState, b: PlayerState, bye_score: int) -> int:
        """The top field of :meth:`edge` (0 if incompatible); outside every bracket the weight
        is just this, shifted left by :meth:`total_shift`."""
        if not self.compatible(a, b):
            return 0
        not_candidate = self._not_candidate.get(bye_score)
        if not_candidate is None:
            not_candidate = [not self.is_bye_candidate(p, bye_score) for p in self.players]
            self._not_candidate[bye_score] = not_candidate
        return 1 + not_candidate[a.index] + not_candidate[b.index]

    def edge(
        self,
        higher: PlayerState,
        lower: PlayerState,
        in_current: bool,
        in_next: bool,
        bye_score: int,
        single_downfloater_is_bye: bool,
    ) -> int:
        """Weight of pairing ``higher`` (earlier in the order) with ``lower``; 0 if forbidden."""
        w = self.completion(higher, lower, bye_score)
        if not w:
            return 0
        b, g = self.size_bits, self.groups_shift
        s_high, s_low = self.score[higher.index], self.score[lower.index]
        w = (w << b) | in_current
        w <<= g
        if in_current:
            w |= 1 << self.group_shift[s_high]
        w = (w << b) | in_next
        w <<= g
        if in_next:
            w |= 1 << self.group_shift[s_high]
        w <<= b
        if single_downfloater_is_bye:
            if s_high == bye_score:
                w |= self.played_games_rank[higher.played_games]
            if s_low == bye_score:
                w += self.played_games_rank[lower.played_games]
        if not in_current:
            # Colour and float fields count in the current bracket only: all zero here.
            return w << self._tail_bits()
        w = self._colour_bits(w, lower, higher)
        for back in (1, 2):
            if self.rounds_played < back:
                continue
            w <<= b
            w |= self.float_of(lower, back) is Float.DOWN
            w += s_high <= s_low and self.float_of(higher, back) is Float.DOWN
            w <<= b
            w |= not (s_high > s_low and self.float_of(lower, back) is Float.UP)
        for back in (1, 2):
            if self.rounds_played < back:
                continue
            w <<= g
            w += int(self.float_of(lower, back) is Float.DOWN) << self.group_shift[s_low]
            w += int(self.float_of(higher, back) is Float.DOWN) << self.group_shift[s_high]
            w <<= g
            if not (self.float_of(lower, back) is Float.UP and s_high > s_low):
                w |= 1 << self.group_shift[s_high]
        return w << self.tie_break_bits()
