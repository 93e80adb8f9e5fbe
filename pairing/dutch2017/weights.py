"""Edge weights of the Dutch system, 2017 rules (C.04.3 as in force 2017-2025), as exact ints.

The 2017 rules judge a bracket by its pairing score difference (PSD): the score differences of
its pairs plus, for each downfloater, its score less the lowest score below. Each distinct
difference gets its own bit field, wider ones more significant, so that a sum of edge weights
compares PSDs lexicographically, largest difference first. A pair's weight rewards the
downfloats it avoids and charges its own difference.

Fields of one bracket's edge weight, most significant first:

======================  ==============================================================
special brackets only   completion and PAB eligibility (C.4, C.2): 1 + ineligible ends
pairs                   pairs in the bracket (C.5)
PSD                     PSD of the bracket (C.6), one field per score difference
next                    pairs in the next bracket (C.7), or completion with the last group
next PSD                PSD of the next bracket (C.7), one field per score difference
colour                  colour preferences (C.8-C.11), four fields
a, b per round back     repeated downfloats, repeated upfloats (C.12-C.15), 1 and 2 rounds
c, d per round back     their score differences (C.16-C.19), one field per difference
low room                the engine's generation-order tie-breaks (:mod:`pairing.dutch.bracket`)
======================  ==============================================================

bbpPairings sizes every field for any count the bracket could hold. Here each field is as wide
as the most its sum over a matching can change (its gains plus its charges, counted from the
bracket's players), and a field no pair of the bracket can touch takes no bits. Two matchings
still compare field by field, most significant first: everything a field and the fields below
it can change stays below the next field's lowest bit. So the maximum matchings are those of
bbpPairings' weights, and a large bracket's weights fit rustworkx as they are, without being
narrowed (:mod:`pairing.swiss.narrowing`).

"Special" brackets are the penultimate pairing bracket (PPB) and the collapsed last bracket:
every player still unpaired is in them, so completion is weighed directly. The other brackets
see only their own players and the next score group; completion of the whole round is checked
after each (:mod:`pairing.swiss.completion`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from pairing.dutch.edge_parts import EdgeParts
from pairing.dutch.facts import Float, RoundFacts
from pairing.swiss.state import PlayerState, Round

__all__ = ["BracketWeights", "Facts2017"]

Key = tuple[str, int, int]
"""A field: its kind, the round back (float fields) and the score difference (score fields)."""

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
        fields: int,
    ) -> None:
        """``players``: the bracket (MDPs first, then residents, ``cur_end`` in all) and the
        players below it in rank order; ``special``: the PPB or the last bracket (everybody
        below is in ``players``); ``final``: the score group below is the last one;
        ``fields``: how many S1 preference fields of :attr:`player_bits` the low room holds
        (:mod:`pairing.dutch.bracket`)."""
        self.player_bits = _bits(cur_end - mdp_count)
        # Every pair in the bracket has a resident as its lower player.
        self.inside_pairs = min(cur_end // 2, cur_end - mdp_count)
        super().__init__(facts, players, cur_end, max(1, _bits(self.inside_pairs)))
        self.mdp_count = mdp_count
        self.special = special
        self.final = final
        score = self.score
        lowest = score[-1]
        self._downfloat = [s - lowest + _POINT for s in score[:cur_end]]
        """A bracket player's score difference if it floats down (to the lowest score)."""
        self.low_bits = self._low_room(fields)
        """The width of the low room: no field lies below it."""
        self._at: dict[Key, int] = {}
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

    def _low_room(self, fields: int) -> int:
        """How wide the bracket's tie-breaks can make a matching's low sum, sign included:
        ``fields`` S1 preference fields (at least the exchange phases' three), the moved-down
        players' choices (their paired residents' count plus one each, their opponents' rank
        order from the bracket's size on), one bit per unpaired MDP, and a spare bit."""
        pb = self.player_bits
        reach = (1 << (max(fields, 3) * pb + 1)) + (1 << 2 * pb) + (1 << pb)
        reach += len(self.players) + self.cur_end + self.mdp_count
        return reach.bit_length() + 1

    def _ranges(self) -> list[tuple[Key, int]]:
        """Each field with the most its sum over a matching can change, least significant
        first (zero: no pair touches the field)."""
        score, cur_end, pairs = self.score, self.cur_end, self.inside_pairs
        bracket = range(cur_end)
        residents = range(self.mdp_count, cur_end)
        resident_scores = {score[v] for v in residents}
        bracket_scores = {score[v] for v in bracket}

        def drops(higher: Iterable[int]) -> Counter[int]:
            """Per score difference, how many of ``higher`` may pair down that far."""
            return Counter(score[v] - s for v in higher for s in resident_scores if s <= score[v])

        def climbs(lower: Iterable[int]) -> Counter[int]:
            """Per score difference, how many residents of ``lower`` may pair up that far."""
            return Counter(s - score[v] for v in lower for s in bracket_scores if s > score[v])

        own = Counter(self._downfloat)
        ranges: list[tuple[Key, int]] = []
        masks = list(enumerate(self._backs))
        for k, back in reversed(masks):
            down = [v for v in bracket if self._down_mask[v] >> k & 1]
            up = [v for v in residents if self._up_mask[v] >> k & 1]
            charged = climbs(up)
            ranges += [(("d", back, d), min(pairs, n)) for d, n in sorted(charged.items())]
            gained = Counter(self._downfloat[v] for v in down)
            charged = drops(down)
            del charged[0]  # no drop, no charge
            ranges += [
                (("c", back, d), gained[d] + min(pairs, charged[d]))
                for d in sorted(gained.keys() | charged.keys())
            ]
        for k, back in reversed(masks):
            ups = sum(self._up_mask[v] >> k & 1 for v in residents)
            downs = sum(self._down_mask[v] >> k & 1 for v in bracket)
            ranges += [(("b", back, 0), min(pairs, ups)), (("a", back, 0), min(2 * pairs, downs))]
        ranges.append((("colour", 0, 0), 0))  # four fields of their own width
        if not self.special:
            ranges += [(("next psd", 0, d), n) for d, n in sorted(own.items())]
            size = len(self.players)
            if self.final:  # completion: 1 per pair, 1 per end not eligible for the PAB
                ineligible = sum(not self.facts.eligible_for_bye(p) for p in self.players)
                ranges.append((("next", 0, 0), size // 2 + ineligible))
            else:  # pairs with a player below the bracket
                ranges.append((("next", 0, 0), min(size // 2, size - cur_end)))
        charged = drops(bracket)
        ranges += [
            (("psd", 0, d), own[d] + min(pairs, charged[d]))
            for d in sorted(own.keys() | charged.keys())
        ]
        ranges.append((("pairs", 0, 0), pairs))
        return ranges

    def _layout(self) -> None:
        """Each field's lowest bit, the constants and the parts one player decides
        (:mod:`pairing.dutch.edge_parts`)."""
        facts, players, cur_end, at = self.facts, self.players, self.cur_end, self._at
        position = self.low_bits
        for key, reach in self._ranges():
            at[key] = position
            position += 4 * self._bits if key[0] == "colour" else _bits(reach)
        self._at_colour = at["colour", 0, 0]
        self._at_pairs = at["pairs", 0, 0]
        self._at_top = at_top = position
        # Completion (1 + each end not eligible for the PAB): on top in a special bracket, in
        # the next bracket's pairs field when that is the last group; else the next bracket's
        # pairs field holds 1 for a pair outside this bracket.
        at_next = at_top if self.special else at["next", 0, 0]
        at_completion = at_top if self.special else at_next if self.final else None
        self._inside = 1 << self._at_pairs
        self._outside = 1 << at_next
        if at_completion is not None:
            self._inside += 1 << at_completion
        for i, p in enumerate(players):
            ineligible = 0
            if at_completion is not None and not facts.eligible_for_bye(p):
                ineligible = 1 << at_completion
            self._low_out.append(ineligible)
            if i >= cur_end:
                self._high_out.append(ineligible)
                self._high_in.append(0)
                self._low_in.append(0)
                continue
            difference = self._downfloat[i]
            next_psd = 0 if self.special else 1 << at["next psd", 0, difference]
            self._high_out.append(ineligible + next_psd)
            high = low = (1 << at["psd", 0, difference]) + next_psd + ineligible
            for k, back in enumerate(self._backs):
                if self._down_mask[i] >> k & 1:
                    repeated = 1 << at["c", back, difference]
                    high += repeated
                    low += (1 << at["a", back, 0]) + repeated
            self._high_in.append(high)
            self._low_in.append(low)

    def _float_part(self, si: int, li: int) -> int:
        """The part of a bracket pair's weight its score difference decides, with the float
        history of the two ends: its PSD charge and what a drop in score does to C12-C19."""
        at = self._at
        difference = self.score[si] - self.score[li]
        part = -(1 << at["psd", 0, difference])
        for k, back in enumerate(self._backs):
            down, up = self._down_mask[si] >> k & 1, self._up_mask[li] >> k & 1
            if not difference:
                # C12/C14: a higher player who floated down does not drop now.
                if down:
                    part += 1 << at["a", back, 0]
                continue
            # C13/C15 and C17/C19: the lower player floats up again; C16/C18: the higher
            # player's repeated downfloat counts its score difference.
            if up:
                part -= (1 << at["b", back, 0]) + (1 << at["d", back, difference])
            if down:
                part -= 1 << at["c", back, difference]
        return part
