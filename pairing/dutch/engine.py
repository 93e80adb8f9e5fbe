"""The Dutch system, 2025 rules (C.04.3 from 2026), computed as bbpPairings v6 does.

One maximum-weight matching over all present players enforces the absolute criteria and the
completion of the whole round (C1-C5). Then, bracket by bracket from the top, decisions are
fixed one at a time and the matching is re-solved after each (pairing.md 2.5): which moved-down
players are paired, their opponents, the exchanges between S1 and S2 (fewest, then smallest
BSN difference, then which players), and finally each S1 player's opponent, higher players
first. The weights are in :mod:`pairing.dutch.weights`.
"""

from __future__ import annotations

from pairing.dutch.bracket import Bracket
from pairing.dutch.round import dutch_round, present_in_order, round_facts
from pairing.dutch.weights import BracketEdges, RoundContext
from pairing.swiss.errors import NoValidPairingError
from pairing.swiss.matching import Matcher
from pairing.swiss.model import SwissInput, SwissRound
from pairing.swiss.state import PlayerState

__all__ = ["NoValidPairingError", "pair"]


def _bits(value: int) -> int:
    return max(value.bit_length(), 1)


def pair(swiss: SwissInput) -> SwissRound:
    """Pair round ``swiss.rounds_played + 1`` with the Dutch system.

    :raises NoValidPairingError: when no pairing satisfies the absolute criteria.
    """
    ctx = round_facts(swiss, RoundContext)
    present = present_in_order(swiss, ctx)
    return dutch_round(swiss, ctx, present, _Pairing(ctx, present).run())


def _unpairable() -> NoValidPairingError:
    return NoValidPairingError(
        "the players cannot all be paired while satisfying the absolute criteria"
    )


class _Pairing:
    """State of one round's computation: the matcher and the bracket being paired."""

    def __init__(self, ctx: RoundContext, ordered: list[PlayerState]) -> None:
        self.ctx = ctx
        self.sorted = ordered
        self.n = len(ordered)

    def run(self) -> dict[int, int]:
        ctx, order, n = self.ctx, self.sorted, self.n
        if n == 0:
            return {}
        if n == 1:
            return {}
        score = [ctx.score[p.index] for p in order]
        # Score-group field widths, counted from the lowest group up.
        shift = 0
        max_size = 0
        count = 0
        for i in range(n - 1, -1, -1):
            count += 1
            if i == 0 or score[i] < score[i - 1]:
                ctx.group_shift[score[i]] = shift
                max_size = max(max_size, count)
                shift += _bits(count)
                count = 0
        ctx.groups_shift = shift
        ctx.size_bits = _bits(max_size)
        max_weight = ctx.max_weight()
        matcher = Matcher(n)
        top = score[0]
        odd = n % 2 == 1
        bye_score = 0
        single = False
        if odd:
            for i in range(n):
                for j in range(i):
                    w = 0
                    if ctx.compatible(order[i], order[j]):
                        w = (
                            1
                            + (not ctx.eligible_for_bye(order[i]))
                            + (not ctx.eligible_for_bye(order[j]))
                        )
                        w <<= ctx.groups_shift
                        w |= ctx.group_shift[score[i]] + ctx.group_shift[score[j]]
                        w <<= ctx.size_bits
                        w |= score[i] >= top
                    matcher.set(i, j, w)
            mates = matcher.solve()
            unmatched = [v for v in range(n) if mates[v] == v]
            # C2 is absolute: the one left out must be eligible for the PAB (the weights
            # prefer such a player; when none can be, no valid pairing exists).
            if len(unmatched) > 1 or not ctx.eligible_for_bye(order[unmatched[0]]):
                raise _unpairable()
            bye_score = score[unmatched[0]]
            matcher.load(ctx.completion_rows(order, bye_score))
            if bye_score >= top:
                single = True
                for v in range(n):
                    if score[v] < top:
                        break
                    if score[mates[v]] < top:
                        single = False
                        break
            # C9: the fewer unplayed games, the higher the rank, so the PAB goes to the
            # player with the fewest unplayed games.
            counts = sorted(
                (p.played_games for p, s in zip(order, score, strict=True) if s == bye_score),
                reverse=True,
            )
            for rank, games in enumerate(counts):
                ctx.played_games_rank[games] = rank
        else:
            matcher.load(ctx.completion_rows(order, 0))
        matcher.set_completion(
            ctx.total_shift(),
            [not ctx.is_bye_candidate(p, bye_score) for p in order],
            ctx.tie_break_bits(),
        )
        # With an even number of players the first question is only whether all can be paired.
        if not odd and not matcher.completes():
            raise _unpairable()
        return _Brackets(ctx, order, score, matcher, max_weight, bye_score, single).run()


class _Brackets:
    """The brackets of the round paired from the top, on the matcher of the whole round.

    Each bracket holds its moved-down players (MDPs) and its score group's residents; the
    next score group joins the matcher's focus so that C8 (the next bracket) is weighed.
    """

    def __init__(
        self,
        ctx: RoundContext,
        order: list[PlayerState],
        score: list[int],
        matcher: Matcher,
        max_weight: int,
        bye_score: int,
        single: bool,
    ) -> None:
        self.ctx = ctx
        self.order = order
        self.score = score
        self.matcher = matcher
        self.max_weight = max_weight
        self.bye_score = bye_score
        self.single = single
        self.result: dict[int, int] = {}
        self.vertices: list[int] = []
        """Players of the current bracket and the next score group, as vertex indices."""
        self.nxt = 0
        """The first vertex not yet in :attr:`vertices`."""
        self.mdp_count = 0
        self.group_begin_vertex = 0

    def run(self) -> dict[int, int]:
        """Pair every bracket; each player's opponent by player index (the PAB has none)."""
        n, score = len(self.order), self.score
        while self.nxt < n and score[self.nxt] >= score[0]:
            self.vertices.append(self.nxt)
            self.nxt += 1
        while len(self.vertices) > 1 or self.nxt < n:
            cur_end, group_start = self.add_next_group()
            base = self.base_weights(cur_end)
            next_begin_vertex = self.group_begin_vertex + (cur_end - self.mdp_count)
            bracket = Bracket(
                self.matcher,
                self.vertices,
                [score[v] for v in self.vertices],
                base,
                self.mdp_count,
                cur_end,
                self.ctx.size_bits,
                self.max_weight,
                self.group_begin_vertex,
                next_begin_vertex,
            )
            stable = bracket.pair()
            self.carry(cur_end, group_start, stable, bracket.matched)
            self.group_begin_vertex = next_begin_vertex
        return self.result

    def add_next_group(self) -> tuple[int, int]:
        """Append the next score group to :attr:`vertices` and focus the matcher on them.

        Returns the end of the current bracket (index into :attr:`vertices`) and the vertex
        where the next score group begins.
        """
        n, score = len(self.order), self.score
        cur_end = len(self.vertices)
        group_start = self.nxt
        while self.nxt < n and score[self.nxt] >= score[group_start]:
            self.vertices.append(self.nxt)
            self.nxt += 1
        self.matcher.focus(self.vertices)
        return cur_end, group_start

    def base_weights(self, cur_end: int) -> list[list[int]]:
        """The bracket's edge weights (``base[li][si]``, si < li; MDPs do not meet each
        other), also set on the matcher."""
        vertices = self.vertices
        size = len(vertices)
        players = [self.order[v] for v in vertices]
        edges = BracketEdges(self.ctx, players, cur_end, self.bye_score, self.single)
        base = edges.rows(self.mdp_count)
        for li in range(size):
            for si, w in enumerate(base[li]):
                self.matcher.set(vertices[li], vertices[si], w)
        return base

    def carry(self, cur_end: int, group_start: int, stable: list[int], matched: list[bool]) -> None:
        """Record the bracket's pairs; carry its unpaired players into the next bracket as
        MDPs; decide whether C9 (the PAB's unplayed games) applies to the next bracket."""
        order, score, n = self.order, self.score, len(self.order)
        new_vertices: list[int] = []
        self.mdp_count = 0
        # C9 applies when the bracket downfloats exactly one player and the PAB's score is
        # not below the next group's (it may be above: lower players can all be ineligible).
        self.single = n % 2 == 1 and group_start < n and self.bye_score >= score[group_start]
        for idx, v in enumerate(self.vertices):
            if idx < cur_end and matched[v]:
                self.result[order[v].index] = order[stable[v]].index
                self.result[order[stable[v]].index] = order[v].index
            else:
                new_vertices.append(v)
                if idx < cur_end:
                    self.mdp_count += 1
                if self.single and score[stable[v]] < score[group_start]:
                    self.single = False
        self.vertices = new_vertices
