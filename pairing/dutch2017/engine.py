"""The Dutch system, 2017 rules (C.04.3 as in force 2017-2025), computed as bbpPairings v5.0.1.

Brackets are paired from the top. Each one is a maximum-weight matching of its players and the
next score group only (:mod:`pairing.dutch2017.weights`), with its decisions fixed one at a time
as in the 2025 edition (:mod:`pairing.dutch.bracket`). After each bracket the round must still
be completable (C.4); when it is not, that bracket is the penultimate pairing bracket (PPB) and
is paired again with every player below it, and what remains forms the collapsed last bracket.
"""

from __future__ import annotations

from pairing.dutch.bracket import Bracket
from pairing.dutch.engine import NoValidPairingError
from pairing.dutch.facts import tie_break_bits
from pairing.dutch.round import dutch_round, present_in_order, round_facts
from pairing.dutch2017.completion import Completion
from pairing.dutch2017.weights import BracketWeights, Facts2017
from pairing.swiss.matching import Matcher
from pairing.swiss.model import SwissInput, SwissRound
from pairing.swiss.state import PlayerState

__all__ = ["pair"]


def pair(swiss: SwissInput) -> SwissRound:
    """Pair round ``swiss.rounds_played + 1`` with the Dutch system, 2017 rules.

    :raises NoValidPairingError: when no pairing satisfies the absolute criteria.
    """
    facts = round_facts(swiss, Facts2017)
    present = present_in_order(swiss, facts)
    return dutch_round(swiss, facts, present, _Brackets(facts, present).run())


class _Brackets:
    """The brackets of the round, paired from the top (bbpPairings v5.0.1 ``computeMatching``)."""

    def __init__(self, facts: Facts2017, order: list[PlayerState]) -> None:
        self.facts = facts
        self.order = order
        self.score = [facts.score[p.index] for p in order]
        self.completion = Completion(
            len(order),
            lambda a, b: facts.compatible(order[a], order[b]),
            [facts.eligible_for_bye(p) for p in order],
        )
        self.result: dict[int, int] = {}
        self.bracket: list[int] = []
        """The current bracket (MDPs first) and the players below it, as positions in order."""
        self.mdp_count = 0
        self.nxt = 0
        """The first position not yet in :attr:`bracket`."""
        self.special = False
        """Pairing the PPB or the last bracket: every remaining player is in the bracket."""

    def run(self) -> dict[int, int]:
        """Each player's opponent by player index (the PAB has none)."""
        n, score = len(self.order), self.score
        if not self.completion.completes():
            raise NoValidPairingError(
                "the players cannot all be paired while satisfying the absolute criteria"
            )
        while self.nxt < n and score[self.nxt] >= score[0]:
            self.bracket.append(self.nxt)
            self.nxt += 1
        self.special = self.nxt == n
        while len(self.bracket) > 1 or self.nxt < n:
            cur_end, group_start = self.add_next_group()
            stable, matched = self.pair_bracket(cur_end)
            pairs = [(i, stable[i]) for i in range(cur_end) if matched[i] and i < stable[i]]
            fixed = [(self.bracket[a], self.bracket[b]) for a, b in pairs]
            if not self.special and not self.completion.completes(fixed):
                # This bracket is the PPB: pair it again with everybody below.
                del self.bracket[cur_end:]
                self.nxt = group_start
                self.special = True
                continue
            self.special = self.nxt == n
            self.carry(cur_end, stable, matched)
        return self.result

    def add_next_group(self) -> tuple[int, int]:
        """Append the next score group (in a special bracket: every remaining player) to the
        bracket; the bracket's size and the position where the appended players begin."""
        n, score = len(self.order), self.score
        cur_end = len(self.bracket)
        group_start = self.nxt
        while self.nxt < n and (self.special or score[self.nxt] >= score[group_start]):
            self.bracket.append(self.nxt)
            self.nxt += 1
        return cur_end, group_start

    def pair_bracket(self, cur_end: int) -> tuple[list[int], list[bool]]:
        """The bracket's matching on its own matcher, and which of its players it pairs."""
        players = [self.order[v] for v in self.bracket]
        weights = BracketWeights(
            self.facts,
            players,
            self.mdp_count,
            cur_end,
            self.special,
            final=self.nxt == len(self.order),
        )
        base = weights.base()
        size = len(players)
        matcher = Matcher(size)
        matcher.keep_graph(tie_break_bits(weights.player_bits))
        for li in range(size):
            for si, w in enumerate(base[li]):
                matcher.set(li, si, w)
        bracket = Bracket(
            matcher,
            list(range(size)),
            weights.score,
            base,
            self.mdp_count,
            cur_end,
            weights.player_bits,
            weights.max_weight(),
            self.mdp_count,
            cur_end,
        )
        return bracket.pair(), bracket.matched

    def carry(self, cur_end: int, stable: list[int], matched: list[bool]) -> None:
        """Record the bracket's pairs; its unpaired players move down into the next bracket."""
        order, bracket = self.order, self.bracket
        remaining: list[int] = []
        self.mdp_count = 0
        for i, v in enumerate(bracket):
            if i < cur_end and matched[i]:
                self.result[order[v].index] = order[bracket[stable[i]]].index
            else:
                remaining.append(v)
                self.mdp_count += i < cur_end
        self.bracket = remaining
