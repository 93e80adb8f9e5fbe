"""The edge weights of one Dutch bracket, assembled from parts (both editions).

A weight is a sum of field values, each shifted to its field (a charge borrows from the fields
above, as a sum does). Each edition lays its fields out once per bracket and splits a weight
into a constant (one for a pair inside the bracket, one for a pair whose lower player is in the
next score group), a part each end decides alone (as the higher or as the lower player), the
float fields that depend on both ends (by their scores and float history: few distinct values,
computed once each) and the colour fields (by the two players' colour facts,
:meth:`pairing.dutch.facts.RoundFacts.colour_fields`).
"""

from __future__ import annotations

from abc import ABC, abstractmethod

from pairing.dutch.facts import RoundFacts
from pairing.swiss.state import PlayerState

__all__ = ["EdgeParts"]


class EdgeParts(ABC):
    """The parts of one bracket's edge weights; an edition fills them in."""

    def __init__(
        self, facts: RoundFacts, players: list[PlayerState], cur_end: int, bits: int
    ) -> None:
        """``players``: the bracket (``cur_end`` of them) and the players below it in rank
        order; ``bits``: the width of the colour fields."""
        self.facts = facts
        self.players = players
        self.cur_end = cur_end
        self.score = [facts.score[p.index] for p in players]
        self._bits = bits
        self._backs = facts.backs()
        masks = [facts.float_masks(p) for p in players]
        self._down_mask = [down for down, _ in masks]
        self._up_mask = [up for _, up in masks]
        self._at_colour = 0
        self._inside = 0
        self._outside = 0
        self._high_in: list[int] = []
        self._low_in: list[int] = []
        self._high_out: list[int] = []
        self._low_out: list[int] = []
        self._pair_parts: dict[tuple[int, int, int, int], int] = {}

    def _lay_float_fields(self, position: int, count_bits: int, score_bits: int) -> int:
        """Place the float fields from bit ``position`` up, the position above them: lowest
        the scores of repeated floats (per round back, of downfloats, then of upfloats:
        ``_at_c``, ``_at_d``, ``score_bits`` each), then the repeated floats themselves
        (downfloats, then upfloats: ``_at_a``, ``_at_b``, ``count_bits`` each), the round one
        back above the round two back."""
        self._at_a: dict[int, int] = {}
        self._at_b: dict[int, int] = {}
        self._at_c: dict[int, int] = {}
        self._at_d: dict[int, int] = {}
        for back in reversed(self._backs):
            self._at_d[back], self._at_c[back] = position, position + score_bits
            position += 2 * score_bits
        for back in reversed(self._backs):
            self._at_b[back], self._at_a[back] = position, position + count_bits
            position += 2 * count_bits
        return position

    @abstractmethod
    def _float_part(self, si: int, li: int) -> int:
        """The fields of a bracket pair that depend on both ends' scores and float history."""

    def _pair_part(self, si: int, li: int) -> int:
        """:meth:`_float_part`, computed once for each pair of scores and float histories."""
        score = self.score
        key = (score[si], score[li], self._down_mask[si], self._up_mask[li])
        part = self._pair_parts.get(key)
        if part is None:
            part = self._float_part(si, li)
            self._pair_parts[key] = part
        return part

    def _weight(self, si: int, li: int) -> int:
        """The weight of the bracket pair ``players[si]`` - ``players[li]``, si < li."""
        players = self.players
        colour = self.facts.colour_fields(players[li], players[si], self._bits)
        return (
            self._inside
            + self._low_in[li]
            + self._high_in[si]
            + self._pair_part(si, li)
            + (colour << self._at_colour)
        )

    def _classes(self, keys: list[tuple[int, ...]]) -> tuple[list[int], list[int]]:
        """Each position's class (the same key, the same class) and each class's first
        position, in order."""
        ids: dict[tuple[int, ...], int] = {}
        first: list[int] = []
        classes: list[int] = []
        for position, key in enumerate(keys):
            c = ids.setdefault(key, len(ids))
            if c == len(first):
                first.append(position)
            classes.append(c)
        return classes, first

    def rows(self, first: int) -> list[list[int]]:
        """``rows[li][si]``: the weight of pairing ``players[si]`` with the lower
        ``players[li]`` (0 if they cannot meet), for ``li >= first``; the rows before
        ``first`` are empty.

        A bracket pair's weight reads of the higher player only its own part, score, past
        downfloats and colour class, of the lower one the same with upfloats: players alike in
        that share their weights, computed once per class of each.
        """
        players, facts, cur_end, size = self.players, self.facts, self.cur_end, len(self.players)
        rows: list[list[int]] = [[] for _ in players]
        high_out = self._high_out
        for li in range(max(first, cur_end), size):
            outside = self._outside + self._low_out[li]
            compatible = facts.compatible_column(players[:li], players[li])
            pairs = zip(high_out, compatible, strict=False)
            rows[li] = [outside + h if ok else 0 for h, ok in pairs]
        if first >= cur_end:
            return rows
        score, colour = self.score, [facts.colour_class(p) for p in players[:cur_end]]
        higher, starts = self._classes(
            [(self._high_in[i], score[i], self._down_mask[i], colour[i]) for i in range(cur_end)]
        )
        lower, _ = self._classes(
            [(self._low_in[i], score[i], self._up_mask[i], colour[i]) for i in range(cur_end)]
        )
        # tables[c][h]: the weight of a lower player of class c with a higher one of class h,
        # filled as far as the classes met above the lower player reach.
        tables: dict[int, list[int]] = {}
        met = 0
        for li in range(first, cur_end):
            while met < len(starts) and starts[met] < li:
                met += 1
            table = tables.setdefault(lower[li], [])
            table.extend(self._weight(starts[h], li) for h in range(len(table), met))
            compatible = facts.compatible_column(players[:li], players[li])
            rows[li] = [table[h] if ok else 0 for h, ok in zip(higher, compatible, strict=False)]
        return rows
