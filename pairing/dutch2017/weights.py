"""Edge weights of the Dutch system, 2017 rules (C.04.3 as in force 2017-2025), as exact ints.

The 2017 rules judge a bracket by its pairing score difference (PSD): the score differences of
its pairs plus, for each downfloater, its score less the lowest score below. Each distinct
difference gets its own bit field, wider ones more significant, so that a sum of edge weights
compares PSDs lexicographically, largest difference first (``SD`` below). A pair's weight
rewards the downfloats it avoids and charges its own difference.

Fields of one bracket's edge weight, most significant first (``b`` bits hold a count of the
bracket's residents, ``SD`` the score differences):

======================  ==============================================================
special brackets only   completion and PAB eligibility (C.4, C.2): 1 + ineligible ends
b                       pairs in the bracket (C.5)
SD                      PSD of the bracket (C.6)
next bits / b + 3       pairs in the next bracket (C.7), or completion with the last group
SD                      PSD of the next bracket (C.7)
4 x b                   colour preferences (C.8-C.11)
2 x b per round back    repeated downfloats, repeated upfloats (C.12-C.15), 1 and 2 rounds
2 x SD per round back   their score differences (C.16-C.19)
8 x b + 1               room for the engine's generation-order tie-breaks
======================  ==============================================================

"Special" brackets are the penultimate pairing bracket (PPB) and the collapsed last bracket:
every player still unpaired is in them, so completion is weighed directly. The other brackets
see only their own players and the next score group; completion of the whole round is checked
after each (:mod:`pairing.dutch2017.completion`).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from pairing.dutch.edge_parts import EdgeParts
from pairing.dutch.facts import Float, RoundFacts, tie_break_bits
from pairing.swiss.state import PlayerState, Round

__all__ = ["BracketWeights", "Facts2017"]

# A downfloater's score is counted from the lowest score below plus one point (tenths).
_POINT = 10


def _bits(value: int) -> int:
    """Bits to write ``value`` (0 for 0), as bbpPairings counts them."""
    return value.bit_length()


@dataclass
class Facts2017(RoundFacts):
    """The facts of a round as the 2017 rules read them."""

    def bye_eligible(self, p: PlayerState) -> bool:
        """C.2 (2017): no PAB for a player who had one or already scored a forfeit win."""
        return not any(not r.played and r.participated and r.score == 2 for r in p.rounds)

    def unplayed_float(self, match: Round) -> Float:
        """2017 rules (A.4): a player who did not play a round counts as having floated down."""
        del match
        return Float.DOWN


class BracketWeights(EdgeParts):
    """The edge weights of one pairing bracket and the score group below it."""

    def __init__(
        self,
        facts: Facts2017,
        players: list[PlayerState],
        mdp_count: int,
        cur_end: int,
        special: bool,
        final: bool,
    ) -> None:
        """``players``: the bracket (MDPs first, then residents, ``cur_end`` in all) and the
        players below it in rank order; ``special``: the PPB or the last bracket (everybody
        below is in ``players``); ``final``: the score group below is the last one."""
        self.player_bits = _bits(cur_end - mdp_count)
        super().__init__(facts, players, cur_end, self.player_bits)
        self.mdp_count = mdp_count
        self.special = special
        self.final = final
        score = self.score
        self.lowest = score[-1]
        differences: list[int] = []
        for pi in range(cur_end):
            differences.append(score[pi] - self.lowest + _POINT)
            first = max(mdp_count, pi + 1)
            for oi in range(first, cur_end):
                # One entry per opponent score: a player meets one opponent at most.
                if oi <= first or score[oi] < score[oi - 1]:
                    differences.append(score[pi] - score[oi])
        shift = 0
        self.shifts: dict[int, int] = {}
        for difference, count in sorted(Counter(differences).items()):
            self.shifts[difference] = shift
            shift += _bits(count)
        self.sd_bits = shift
        self.next_bits = _bits(len(players) - cur_end)
        self._downfloat = [self.shifts[s - self.lowest + _POINT] for s in score[:cur_end]]
        self._layout()

    def max_weight(self) -> int:
        """An upper bound on every edge weight, with room for the matcher (fixed pairs)."""
        if self.special:  # completion, at most 3, on top
            return (1 << (self._at_top + 2)) - 1
        return (1 << (self._at_pairs + 1)) - 1

    def base(self) -> list[list[int]]:
        """``base[li][si]``: the weight of the pair si < li; rows of MDPs are empty (MDPs do
        not meet each other)."""
        return self.rows(self.mdp_count)

    def _layout(self) -> None:
        """Each field's lowest bit, the constants and the parts one player decides
        (:mod:`pairing.dutch.edge_parts`)."""
        facts, players = self.facts, self.players
        pb, sd, cur_end = self.player_bits, self.sd_bits, self.cur_end
        # From the bottom: the tie-break room, C16-C19 (per round back: the downfloats' score
        # differences, then the upfloats'), C12-C15 (repeated downfloats, then upfloats),
        # the colour fields, the next bracket (its PSD, then its pairs), this bracket's PSD
        # and pairs, and, in a special bracket, completion on top.
        position = self._lay_float_fields(tie_break_bits(pb), pb, sd)
        self._at_colour = position
        position += 4 * pb
        at_next_psd = at_next = 0
        if not self.special:
            at_next_psd, at_next = position, position + sd
            position += sd + (max(pb, self.next_bits) + 3 if self.final else self.next_bits)
        self._at_psd, self._at_pairs = position, position + sd
        self._at_top = at_top = self._at_pairs + pb
        # Completion (1 + each end not eligible for the PAB): on top in a special bracket, in
        # the next bracket's pairs field when that is the last group; else the next bracket's
        # pairs field holds 1 for a pair outside this bracket.
        at_completion = at_top if self.special else at_next if self.final else None
        outside = at_top if self.special else at_next
        self._inside = 1 << self._at_pairs
        self._outside = 1 << outside
        if at_completion is not None:
            self._inside += 1 << at_completion
        for i, p in enumerate(players):
            ineligible = 0
            if at_completion is not None and not facts.eligible_for_bye(p):
                ineligible = 1 << at_completion
            down_mask = self._down_mask[i]
            self._low_out.append(ineligible)
            if i >= cur_end:
                self._high_out.append(ineligible)
                self._high_in.append(0)
                self._low_in.append(0)
                continue
            downfloat = 1 << self._downfloat[i]
            own = downfloat << self._at_psd
            if not self.special:
                own += downfloat << at_next_psd
            self._high_out.append(ineligible + (0 if self.special else downfloat << at_next_psd))
            high = low = own + ineligible
            for k, back in enumerate(self._backs):
                if down_mask >> k & 1:
                    high += downfloat << self._at_c[back]
                    low += (1 << self._at_a[back]) + (downfloat << self._at_c[back])
            self._high_in.append(high)
            self._low_in.append(low)

    def _float_part(self, si: int, li: int) -> int:
        """The part of a bracket pair's weight its score difference decides, with the float
        history of the two ends: its PSD charge and what a drop in score does to C12-C19."""
        difference = self._difference(si, li)
        drops = self.score[si] > self.score[li]
        part = -(difference << self._at_psd)
        for k, back in enumerate(self._backs):
            down, up = self._down_mask[si] >> k & 1, self._up_mask[li] >> k & 1
            if not drops:
                # C12/C14: a higher player who floated down does not drop now.
                part += down << self._at_a[back]
                continue
            # C13/C15 and C17/C19: the lower player floats up again; C16/C18: the higher
            # player's repeated downfloat counts its score difference.
            part -= up << self._at_b[back]
            part -= (down * difference) << self._at_c[back]
            part -= (up * difference) << self._at_d[back]
        return part

    def _difference(self, si: int, li: int) -> int:
        return 1 << self.shifts[self.score[si] - self.score[li]]
