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

from pairing.dutch.edge_parts import EdgeParts
from pairing.dutch.facts import Float, RoundFacts, colour_preferences_compatible, tie_break_bits
from pairing.swiss.state import PlayerState, Round

__all__ = ["BracketEdges", "Float", "RoundContext", "colour_preferences_compatible"]


@dataclass
class RoundContext(RoundFacts):
    """Everything the 2025 weights need about the round being paired."""

    size_bits: int = 1
    groups_shift: int = 0
    group_shift: dict[int, int] = field(default_factory=dict)
    played_games_rank: dict[int, int] = field(default_factory=dict)

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
        """The top field of the edge weights (0 if incompatible; :class:`BracketEdges` has
        the rest); outside every bracket the weight is just this, shifted left by
        :meth:`total_shift`."""
        if not self.compatible(a, b):
            return 0
        return (
            1
            + (not self.is_bye_candidate(a, bye_score))
            + (not self.is_bye_candidate(b, bye_score))
        )

    def completion_rows(self, order: list[PlayerState], bye_score: int) -> list[list[int]]:
        """The weights outside every bracket, :meth:`completion` shifted left by
        :meth:`total_shift`, of every pair of ``order`` (rows and columns in its order)."""
        unit = 1 << self.total_shift()
        # Three values in all: each entry refers to one of them (a 2,000-player round would
        # otherwise hold 4 million wide integers).
        values = [0, unit, 2 * unit, 3 * unit]
        own = [1 + (not self.is_bye_candidate(p, bye_score)) for p in order]
        rows: list[list[int]] = []
        for i, a in enumerate(order):
            extra = own[i] - 1
            compatible = self.compatible_row(a, order)
            row = [values[extra + w] if ok else 0 for ok, w in zip(compatible, own, strict=True)]
            row[i] = 0
            rows.append(row)
        return rows


class BracketEdges(EdgeParts):
    """The edge weights of one bracket of the 2025 rules (fields as in the module docstring),
    assembled from parts (:mod:`pairing.dutch.edge_parts`)."""

    def __init__(
        self,
        ctx: RoundContext,
        players: list[PlayerState],
        cur_end: int,
        bye_score: int,
        single_downfloater_is_bye: bool,
    ) -> None:
        """``players``: the bracket (``cur_end`` of them) and the next score group, in rank
        order; ``single_downfloater_is_bye``: C9 weighs the unplayed games of who floats."""
        super().__init__(ctx, players, cur_end, ctx.size_bits)
        self.ctx = ctx
        b, g = ctx.size_bits, ctx.groups_shift
        # From the bottom: the tie-break room, C18-C21 (per round back: the downfloats'
        # scores, then the upfloats'), C14-C17 (repeated downfloats, then upfloats), the colour
        # fields, C9, then the next bracket (its scores, its pairs), this bracket (its scores,
        # its pairs) and completion on top.
        self._at_colour = self._lay_float_fields(ctx.tie_break_bits(), b, g)
        at_c9 = self._at_colour + 4 * b
        at_next_scores = at_c9 + b
        at_next_pairs = at_next_scores + g
        at_scores = at_next_pairs + b
        at_pairs = at_scores + g
        at_completion = at_pairs + b
        assert at_completion == ctx.total_shift()
        self._inside = (1 << at_completion) + (1 << at_pairs)
        self._outside = (1 << at_completion) + (1 << at_next_pairs)
        for i, (p, s) in enumerate(zip(players, self.score, strict=True)):
            own = int(not ctx.is_bye_candidate(p, bye_score)) << at_completion
            if single_downfloater_is_bye and s == bye_score:
                own += ctx.played_games_rank[p.played_games] << at_c9
            group = 1 << ctx.group_shift[s]
            high, low = own + (group << at_scores), own
            for k, back in enumerate(self._backs):
                if self._down_mask[i] >> k & 1:
                    high += group << self._at_c[back]
                    low += (1 << self._at_a[back]) + (group << self._at_c[back])
            self._high_in.append(high)
            self._low_in.append(low)
            self._high_out.append(own + (group << at_next_scores))
            self._low_out.append(own)

    def _float_part(self, si: int, li: int) -> int:
        """The float fields C14-C21 of a bracket pair that depend on both ends: a higher
        player's downfloat counts when it does not drop now, and an upfloat again is charged."""
        score, group_shift = self.score, self.ctx.group_shift
        drops = score[si] > score[li]
        part = 0
        for k, back in enumerate(self._backs):
            down, up = self._down_mask[si] >> k & 1, self._up_mask[li] >> k & 1
            if not drops:
                part += down << self._at_a[back]
            if not (drops and up):
                part += 1 << self._at_b[back]
                part += (1 << group_shift[score[si]]) << self._at_d[back]
        return part
