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

from pairing.dutch.facts import Float, RoundFacts, colour_preferences_compatible, tie_break_bits
from pairing.swiss.state import PlayerState, Round

__all__ = ["Float", "RoundContext", "colour_preferences_compatible"]


@dataclass
class RoundContext(RoundFacts):
    """Everything the 2025 weights need about the round being paired."""

    size_bits: int = 1
    groups_shift: int = 0
    group_shift: dict[int, int] = field(default_factory=dict)
    played_games_rank: dict[int, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        super().__post_init__()
        self._not_candidate: dict[int, list[bool]] = {}

    def bye_eligible(self, p: PlayerState) -> bool:
        """C2 (2025): no PAB for a player who already scored a win's points without playing."""
        return not any(not r.played and r.points >= self.win for r in p.rounds)

    def unplayed_float(self, match: Round) -> Float:
        """2025 rules: without a game only scoring more than a loss is a (down)float."""
        return Float.DOWN if match.points > self.loss else Float.NONE

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
        return tie_break_bits(self.size_bits)

    def max_weight(self) -> int:
        """An upper bound on every edge weight, with two spare bits (finalised pairs use it)."""
        return (1 << (self.total_shift() + 2)) - 1

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
        w = self.colour_bits(w, lower, higher, b)
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
