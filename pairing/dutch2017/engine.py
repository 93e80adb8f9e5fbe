"""The Dutch system, 2017 rules (C.04.3 as in force 2017-2025), computed as bbpPairings v5.0.1.

Brackets are paired from the top. Each one is a maximum-weight matching of its players and the
next score group only (:mod:`pairing.dutch2017.weights`), with its decisions fixed one at a time
as in the 2025 edition (:mod:`pairing.dutch.bracket`). After each bracket the round must still
be completable (C.4); when it is not, that bracket is the penultimate pairing bracket (PPB) and
is paired again with every player below it, and what remains forms the collapsed last bracket.
"""

from __future__ import annotations

from operator import add

from pairing.dutch.bracket import FIELDS_WITHOUT_GRAPH, S1_BATCH, Bracket
from pairing.dutch.round import dutch_round, present_in_order, round_facts
from pairing.dutch2017.weights import BracketWeights, Facts2017
from pairing.swiss.completion import Completion
from pairing.swiss.errors import NoValidPairingError
from pairing.swiss.focus_graph import RUSTWORKX_LIMIT
from pairing.swiss.matching import Matcher, solve
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
        """The bracket's matching on its own matcher, and which of its players it pairs.

        Weights that fit rustworkx go to it as they are, every solve anew (the first one
        here, straight from the rows); wider ones make room for more S1 preference fields and
        are narrowed once into a kept graph (:meth:`Matcher.keep_graph`).
        """
        players = [self.order[v] for v in self.bracket]
        fields = FIELDS_WITHOUT_GRAPH
        weights = self._weights(players, cur_end, fields)
        kept = weights.max_weight() >= RUSTWORKX_LIMIT
        if kept:
            fields = S1_BATCH
            weights = self._weights(players, cur_end, fields)
        base = weights.base()
        size = len(players)
        matcher = Matcher(size)
        matcher.load(_symmetric(base, size))
        if kept:
            matcher.keep_graph(weights.low_bits)
        else:
            matcher.adopt(_best_matching(base, size))
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
            fields,
        )
        return bracket.pair(), bracket.matched

    def _weights(self, players: list[PlayerState], cur_end: int, fields: int) -> BracketWeights:
        """The bracket's weights with a low room for ``fields`` S1 preference fields."""
        final = self.nxt == len(self.order)
        return BracketWeights(
            self.facts, players, self.mdp_count, cur_end, self.special, final, fields
        )

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


def _symmetric(lower: list[list[int]], size: int) -> list[list[int]]:
    """The full symmetric matrix of the lower triangle ``lower`` (``lower[a][b]`` for b < a;
    short rows end in zeros)."""
    padded = [row + [0] * (size - len(row)) for row in lower]
    columns = zip(*padded, strict=True)
    return [list(map(add, row, column)) for row, column in zip(padded, columns, strict=True)]


def _best_matching(lower: list[list[int]], size: int) -> list[int]:
    """A maximum-weight matching of the lower triangle ``lower`` (weights that fit
    rustworkx): each vertex's mate, or the vertex itself."""
    edges = [(si, li, w) for li, row in enumerate(lower) for si, w in enumerate(row) if w]
    mates = list(range(size))
    for a, b in solve(size, edges, engine="rustworkx"):
        mates[a], mates[b] = b, a
    return mates
