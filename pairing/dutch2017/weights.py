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


class BracketWeights:
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
        self.facts = facts
        self.players = players
        self.mdp_count = mdp_count
        self.cur_end = cur_end
        self.special = special
        self.final = final
        score = [facts.score[p.index] for p in players]
        self.score = score
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
        self.player_bits = _bits(cur_end - mdp_count)
        self.next_bits = _bits(len(players) - cur_end)
        self._downfloat = [self.shifts[s - self.lowest + _POINT] for s in score[:cur_end]]

    def max_weight(self) -> int:
        """An upper bound on every edge weight, with room for the matcher (fixed pairs)."""
        pb, sd = self.player_bits, self.sd_bits
        top = (2 << pb) if self.special else 1
        bits = sd
        if not self.special:
            bits += (max(pb, self.next_bits) + 3 if self.final else self.next_bits) + sd
        backs = min(self.facts.rounds_played, 2)
        bits += 4 * pb + backs * 2 * (pb + sd) + tie_break_bits(pb)
        return (top << (bits + 1)) - 1

    def base(self) -> list[list[int]]:
        """``base[li][si]``: the weight of the pair si < li; rows of MDPs are empty (MDPs do
        not meet each other)."""
        players = self.players
        rows: list[list[int]] = [[] for _ in players]
        for li in range(self.mdp_count, len(players)):
            rows[li] = [self.edge(si, li) for si in range(li)]
        return rows

    def _difference(self, si: int, li: int) -> int:
        return 1 << self.shifts[self.score[si] - self.score[li]]

    def edge(self, si: int, li: int) -> int:
        """The weight of pairing the bracket players ``si`` < ``li``; 0 if they cannot meet."""
        facts, players = self.facts, self.players
        higher, lower = players[si], players[li]
        if not facts.compatible(higher, lower):
            return 0
        pb, sd = self.player_bits, self.sd_bits
        high_in, low_in = si < self.cur_end, li < self.cur_end
        completion = 1 + (not facts.eligible_for_bye(higher)) + (not facts.eligible_for_bye(lower))
        w = completion if self.special else 0
        # C.5 and C.6: pairs, then the PSD, in the bracket.
        w = (w << pb) | low_in
        w <<= sd
        if low_in:
            w += (1 << self._downfloat[si]) + (1 << self._downfloat[li])
            w -= self._difference(si, li)
        if not self.special:
            # C.7: pairs, then the PSD, in the next bracket (with the last group: completion).
            if self.final:
                w <<= max(pb, self.next_bits) + 3
                w |= completion
            else:
                w <<= self.next_bits
                w |= not low_in
            w <<= sd
            if high_in:
                w |= 1 << self._downfloat[si]
            if low_in:
                w += 1 << self._downfloat[li]
        if low_in:
            w = facts.colour_bits(w, lower, higher, pb)
        else:
            w <<= 4 * pb
        w = self._floats(w, si, li, low_in)
        return w << tie_break_bits(pb)

    def _floats(self, w: int, si: int, li: int, low_in: bool) -> int:
        """The float fields C.12-C.19 below the colour fields."""
        facts, players = self.facts, self.players
        higher, lower = players[si], players[li]
        pb, sd = self.player_bits, self.sd_bits
        backs = [back for back in (1, 2) if facts.rounds_played >= back]
        drops = self.score[si] > self.score[li]
        for back in backs:
            # C.12/C.14: repeated downfloats; C.13/C.15: repeated upfloats.
            w <<= pb
            if low_in:
                w |= facts.float_of(lower, back) is Float.DOWN
                w += not drops and facts.float_of(higher, back) is Float.DOWN
            w <<= pb
            w -= low_in and drops and facts.float_of(lower, back) is Float.UP
        for back in backs:
            # C.16/C.18 and C.17/C.19: their score differences.
            w <<= sd
            if low_in:
                if facts.float_of(lower, back) is Float.DOWN:
                    w += 1 << self._downfloat[li]
                if facts.float_of(higher, back) is Float.DOWN:
                    w += 1 << self._downfloat[si]
                    if drops:
                        w -= self._difference(si, li)
            w <<= sd
            if low_in and drops and facts.float_of(lower, back) is Float.UP:
                w -= self._difference(si, li)
        return w
