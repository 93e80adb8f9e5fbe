"""One pairing bracket of the Dutch system, decided as bbpPairings decides it (pairing.md 2.5).

Both editions pair a bracket the same way once its edge weights are set: a first matching,
then decisions fixed one at a time, re-solving after each change, in this order:

1. which moved-down players (MDPs) are paired in the bracket;
2. their opponents, higher-ranked residents first;
3. the remainder is split into S1 and S2, and the exchanges between them are chosen: fewest,
   then the smallest difference of the exchanged BSNs, then the lower players of S1 and the
   higher players of S2 where possible;
4. the opponent of each S1 player, higher players first.

Where every MDP is paired and at most one S2 player floats, steps 3 and 4 need no re-solving:
the S1 players' choices are made on one optimal assignment of S1 to S2 and its duals
(:mod:`pairing.swiss.assignment`), before the exchange phases when an optimum needs no
exchange, else after them. The results are the same; the re-solves remain for the rest.

The editions differ in the weights (:mod:`pairing.dutch.weights`,
:mod:`pairing.dutch2017.weights`) and in the graph the matcher holds: the 2025 engine keeps
every player of the round in it, the 2017 engine only the bracket and the next score group.
Either way the bracket's players are matcher vertices in rank order: MDPs, then residents
(vertices ``first_resident`` to ``next_group - 1``), then the players below.
"""

from __future__ import annotations

from pairing.dutch.facts import TIE_BREAK_FIELDS
from pairing.swiss import matching
from pairing.swiss.assignment import best_assignment, lexicographic_assignment
from pairing.swiss.matching import Matcher

__all__ = ["FIELDS_WITHOUT_GRAPH", "S1_BATCH", "Bracket"]

# At most how many S1 players one solve decides: one preference field of ``bits`` bits each,
# in the engines' low room (:func:`pairing.dutch.facts.tie_break_bits`).
S1_BATCH = TIE_BREAK_FIELDS

# Without a kept graph that says its room, one solve decides this many (the width the low room
# had before batches): wider sums could drive the fallback solves to networkx.
FIELDS_WITHOUT_GRAPH = 3


class Bracket:
    """The decisions of one pairing bracket, fixed phase by phase on a shared matcher."""

    def __init__(
        self,
        matcher: Matcher,
        vertices: list[int],
        scores: list[int],
        base: list[list[int]],
        mdp_count: int,
        cur_end: int,
        bits: int,
        max_weight: int,
        first_resident: int,
        next_group: int,
        fields: int = S1_BATCH,
    ) -> None:
        """``vertices``: the matcher vertex of each bracket index (MDPs, residents, then the
        players below); ``scores``: their accelerated scores; ``base[li][si]``: the weight of
        the pair si < li (rows of MDPs are empty); ``cur_end``: the number of MDPs and
        residents; ``bits``: the width of the exchange fields; ``max_weight``: the weight of
        a fixed pair; ``fields``: how many S1 preference fields of ``bits`` the weights' low
        room holds."""
        self.matcher = matcher
        self.vertices = vertices
        self.scores = scores
        self.base = base
        self.mdp_count = mdp_count
        self.cur_end = cur_end
        self.bits = bits
        self.max_weight = max_weight
        self.first_resident = first_resident
        self.next_group = next_group
        self.fields = fields
        self.stable: list[int] = []
        self.matched = [False] * matcher.size
        """By matcher vertex: paired in this bracket (fixed or about to be)."""
        self.remainder: list[int] = []
        self.rem_pairs = 0
        self.exchange_count = 0

    def pair(self) -> list[int]:
        """Fix every pair of the bracket; the final matching by matcher vertex.

        A bracket player ``v`` is paired in the bracket when ``matched[v]``; the others float
        down.
        """
        self.stable = self.matcher.solve()
        self.choose_paired_mdps()
        self.choose_mdp_opponents()
        if self._pair_remainder_at_once():
            return self.stable
        self.split_remainder()
        self.exchange_from_s1()
        self.exchange_from_s2()
        self.fix_exchanges()
        self.pair_s1()
        return self.stable

    def _in_bracket(self, v: int) -> bool:
        return self.first_resident <= v < self.next_group

    def _exchange_weight(self, si: int, li: int, rem_index: int) -> int:
        """The base weight of si-li plus the exchange fields: S1 membership of ``si`` (fewest
        exchanges), minus its remainder index (smallest BSN difference), one free bit."""
        w = self.base[li][si]
        if w:
            addend = int(rem_index < self.rem_pairs)
            addend <<= 2 * self.bits
            addend -= rem_index
            addend <<= 1
            w += addend
        return w

    def choose_paired_mdps(self) -> None:
        """Which moved-down players are paired in this bracket (highest first, C6/C7)."""
        matcher, vertices, base, score = self.matcher, self.vertices, self.base, self.scores
        mdp_count, cur_end, size = self.mdp_count, self.cur_end, len(vertices)
        remaining = remaining_matched = 0
        md_score = 0
        for pi in range(mdp_count):
            if pi == 0 or score[pi] < md_score:
                md_score = score[pi]
                remaining = remaining_matched = 0
                k = pi
                while k < size and score[k] >= md_score:
                    remaining += 1
                    if self._in_bracket(self.stable[vertices[k]]):
                        remaining_matched += 1
                    k += 1
            if not remaining_matched:
                continue
            pv = vertices[pi]
            if remaining <= remaining_matched:
                self.matched[pv] = True
                continue
            remaining -= 1
            if not self._in_bracket(self.stable[pv]):
                for oi in range(mdp_count, cur_end):
                    w = base[oi][pi]
                    if w:
                        matcher.set(pv, vertices[oi], w | 1)
                self.stable = matcher.solve()
            if self._in_bracket(self.stable[pv]):
                self.matched[pv] = True
                remaining_matched -= 1
                for oi in range(mdp_count, cur_end):
                    w = base[oi][pi]
                    if w:
                        matcher.set(pv, vertices[oi], (w | (cur_end - mdp_count)) + 1)

    def choose_mdp_opponents(self) -> None:
        """The opponent of each paired MDP, higher-ranked residents first."""
        matcher, vertices, base = self.matcher, self.vertices, self.base
        mdp_count, cur_end, size = self.mdp_count, self.cur_end, len(vertices)
        for pi in range(mdp_count):
            pv = vertices[pi]
            if not self.matched[pv]:
                continue
            addend = size
            for oi in range(cur_end - 1, mdp_count - 1, -1):
                ov = vertices[oi]
                if self.matched[ov]:
                    continue
                w = base[oi][pi]
                if w:
                    matcher.set(pv, ov, w + addend)
                    addend += 1
            self.stable = matcher.solve()
            mate = self.stable[pv]
            self.matched[mate] = True
            matcher.finalize_pair(pv, mate, self.max_weight)

    def split_remainder(self) -> None:
        """The residents not paired with an MDP: S1 is its first ``rem_pairs`` players. Then
        the number of exchanges the best matching needs, with the exchange fields set."""
        matcher, vertices = self.matcher, self.vertices
        remainder: list[int] = []
        rem_pairs = 0
        for pi in range(self.mdp_count, self.cur_end):
            pv = vertices[pi]
            if self.stable[pv] < self.first_resident:
                continue
            remainder.append(pi)
            if self.stable[pv] < pv:
                rem_pairs += 1
        self.remainder, self.rem_pairs = remainder, rem_pairs
        for oi in remainder:
            ov = vertices[oi]
            for rj, pi in enumerate(remainder):
                if oi <= pi:
                    break
                matcher.set(vertices[pi], ov, self._exchange_weight(pi, oi, rj))
        self.stable = matcher.solve()
        s1_end = remainder[rem_pairs] if rem_pairs < len(remainder) else None
        count = 0
        for pi in remainder:
            if s1_end is not None and pi >= s1_end:
                break
            count += not self._pairs_down(vertices[pi])
        self.exchange_count = count

    def _pairs_down(self, pv: int) -> bool:
        """``pv`` is paired with a lower resident: it is (or becomes) an S1 player."""
        return pv < self.stable[pv] < self.next_group

    def exchange_from_s1(self) -> None:
        """Exchange the lowest players of S1 where the exchange count allows it."""
        matcher, vertices, base, remainder = self.matcher, self.vertices, self.base, self.remainder
        exchanges_left = self.exchange_count
        rem_index = self.rem_pairs
        pos = self.rem_pairs
        while pos > 0 and exchanges_left:
            opp_pos = pos
            rem_index -= 1
            pos -= 1
            pi = remainder[pos]
            pv = vertices[pi]
            if self._pairs_down(pv):
                for q in range(opp_pos, len(remainder)):
                    w = self._exchange_weight(pi, remainder[q], rem_index)
                    if w:
                        matcher.set(pv, vertices[remainder[q]], w - 1)
                self.stable = matcher.solve()
            exchange = not self._pairs_down(pv)
            exchanges_left -= exchange
            for q in range(pos + 1, len(remainder)):
                if exchange:
                    base[remainder[q]][pi] = 0
                matcher.set(
                    pv, vertices[remainder[q]], self._exchange_weight(pi, remainder[q], rem_index)
                )

    def exchange_from_s2(self) -> None:
        """Exchange the highest players of S2 where the exchange count allows it."""
        matcher, vertices, base, remainder = self.matcher, self.vertices, self.base, self.remainder
        exchanges_left = self.exchange_count
        rem_index = self.rem_pairs
        pos = self.rem_pairs
        while pos < len(remainder) and exchanges_left > 1:
            pi = remainder[pos]
            pv = vertices[pi]
            already = self._pairs_down(pv)
            if not already:
                for q in range(pos + 1, len(remainder)):
                    w = self._exchange_weight(pi, remainder[q], rem_index)
                    if w:
                        matcher.set(pv, vertices[remainder[q]], w + 1)
                self.stable = matcher.solve()
            if self._pairs_down(pv):
                exchanges_left -= 1
                for q in range(pos):
                    base[pi][remainder[q]] = 0
                    matcher.set(pv, vertices[remainder[q]], 0)
                for oi in range(self.cur_end, len(vertices)):
                    base[oi][pi] = 0
                    matcher.set(pv, vertices[oi], 0)
            if not already:
                for q in range(pos + 1, len(remainder)):
                    matcher.set(
                        pv,
                        vertices[remainder[q]],
                        self._exchange_weight(pi, remainder[q], rem_index),
                    )
            rem_index += 1
            pos += 1

    def fix_exchanges(self) -> None:
        """Fix who is in S1 and who in S2 after the exchanges; restore the plain weights."""
        matcher, vertices, base, remainder = self.matcher, self.vertices, self.base, self.remainder
        for a_pos, pi in enumerate(remainder):
            pv = vertices[pi]
            for oi in remainder[a_pos + 1 :]:
                ov = vertices[oi]
                if not self._pairs_down(pv) or self._pairs_down(ov):
                    base[oi][pi] = 0
                matcher.set(pv, ov, base[oi][pi])

    def pair_s1(self) -> None:
        """The opponent of each S1 player, higher players first, preferring higher S2 players.

        A player's preferences (the higher the S2 player, the more) sit in a field of their
        own in the low room below the base weights. When the matcher cannot prove its last
        matching still optimal, one solve decides up to :data:`S1_BATCH` players, the first
        player's field highest: the maximum gives the first player the opponent one solve for
        it alone would, the second the best opponent left with that pair fixed, and so on, as
        deciding one player per solve does. The walk over the result stops where one player
        per solve could differ: a player of the batch who no longer pairs down (skipped; the
        players after it were decided with its preferences in place), or a player outside the
        batch who now pairs down (decided before the players after it).
        """
        if self._pair_s1_at_once():
            return
        remainder, vertices = self.remainder, self.vertices
        self._restrict_to_remainder()
        start = 0
        while True:
            batch = self._next_s1_players(start, self._fields())
            if not batch:
                self.matcher.restrict(None)
                return
            top = (len(batch) - 1) * self.bits
            self._prefer_higher(remainder[batch[0]], top)
            if self.matcher.settled():
                del batch[1:]
            for field, pos in enumerate(batch[1:], 1):
                self._prefer_higher(remainder[pos], top - field * self.bits)
            self.stable = self.matcher.solve()
            start = self._fix_s1_pairs(batch)
            for pos in batch:
                if not self.matched[vertices[remainder[pos]]]:
                    self._prefer_higher(remainder[pos], None)

    def _pair_remainder_at_once(self) -> bool:
        """Pair the whole remainder from one assignment where an optimal matching needs no
        exchange; False (nothing changed) where it needs one or the shape does not allow it.

        With every MDP paired, S1 is the first half of the remainder and S2 the rest, one more
        where one floats. The best matching in which S1 pairs with S2 (the assignment of
        :meth:`_pair_s1_at_once`, found by one solve of the bipartite graph) weighs as much as
        the last matching, an optimal one, exactly when the exchange phases would find no
        exchange: such a matching gives every S1 player its exchange field and the smallest
        BSN sum. Then the remainder's optimal matchings after those phases are the optimal
        assignments, and the S1 players choose among them at once.
        """
        vertices, matcher, stable = self.vertices, self.matcher, self.stable
        if not matching.SHORTCUTS or not self._mdps_paired():
            return False
        remainder = [
            pi
            for pi in range(self.mdp_count, self.cur_end)
            if stable[vertices[pi]] >= self.first_resident
        ]
        rem_pairs = sum(stable[vertices[pi]] < vertices[pi] for pi in remainder)
        free = [vertices[pi] for pi in remainder]
        s1, s2 = free[:rem_pairs], free[rem_pairs:]
        if not s1 or len(s2) - len(s1) > 1:
            return False
        weights = self._s1_weights(s1, s2)
        if weights is None:
            return False
        lower: dict[int, tuple[int, dict[int, int]]] = {}
        if len(s2) > len(s1):
            values = self._add_floater_row(weights, s1, s2)
            if values is None:
                return False
            lower = values
        mates = best_assignment(weights)
        if mates is None:
            return False
        form = sum(weights[r][c] or 0 for r, c in enumerate(mates))
        inside = set(free)
        paired = [(a, b) for a, b in enumerate(stable) if a < b and not matcher.fixed(a)]
        if lower:
            best = sum(matcher.bracket_weight(a, b) or 0 for a, b in paired)
        else:
            best = sum(matcher.bracket_weight(a, b) or 0 for a, b in paired if a in inside)
        if form != best or not self._decide_s1(s1, s2, weights, mates, lower):
            return False
        self.remainder, self.rem_pairs, self.exchange_count = remainder, rem_pairs, 0
        return True

    def _pair_s1_at_once(self) -> bool:
        """Pair every S1 player from one optimal matching, as :meth:`pair_s1` does one batch
        after another; False (nothing changed) where its shape does not allow it.

        The shape: every MDP paired, and in the last matching every S1 player pairs down
        with an S2 player, one S2 player at most floating. If that matching is optimal, every
        optimal matching has that shape (the bracket's pairs outweigh all but completion, and
        S1-S1 and S2-S2 are no edges), so its weight is that of an assignment of S1 to S2 plus,
        for the S2 player left over, the best weight of the players below with that player
        added (:meth:`Matcher.float_values`). Those are the weights of a square assignment with
        one row more for the floater; the duals of the last matching's assignment prove it
        optimal (or nothing is decided), and the S1 players choose on it
        (:func:`pairing.swiss.assignment.lexicographic_assignment`).
        """
        vertices, matched, stable = self.vertices, self.matched, self.stable
        if not matching.SHORTCUTS or not self._mdps_paired():
            return False
        free = [vertices[pi] for pi in self.remainder if not matched[vertices[pi]]]
        s1 = [v for v in free if self._pairs_down(v)]
        s2 = [v for v in free if not self._pairs_down(v)]
        up = set(s1)
        floaters = [v for v in s2 if stable[v] not in up]
        if len(floaters) > 1 or len(s2) != len(s1) + len(floaters) or not s1:
            return False
        weights = self._s1_weights(s1, s2)
        if weights is None:
            return False
        column = {v: c for c, v in enumerate(s2)}
        mates = [column[stable[v]] for v in s1]
        lower: dict[int, tuple[int, dict[int, int]]] = {}
        if floaters:
            values = self._add_floater_row(weights, s1, s2)
            if values is None:
                return False
            lower = values
            mates.append(column[floaters[0]])
        return self._decide_s1(s1, s2, weights, mates, lower)

    def _mdps_paired(self) -> bool:
        """Whether every MDP of the bracket is paired in it."""
        vertices, matched = self.vertices, self.matched
        return all(matched[vertices[pi]] for pi in range(self.mdp_count))

    def _add_floater_row(
        self, weights: list[list[int | None]], s1: list[int], s2: list[int]
    ) -> dict[int, tuple[int, dict[int, int]]] | None:
        """Append the floater's row to ``weights``: for each S2 player, the best weight of the
        players below with that player floating to them (:meth:`Matcher.float_values`); those
        values with their matchings, or None (nothing appended) when they are not found."""
        values = self.matcher.float_values({*s1, *s2}, s2)
        if values is not None:
            weights.append([values[u][0] for u in s2])
        return values

    def _s1_weights(self, s1: list[int], s2: list[int]) -> list[list[int | None]] | None:
        """The matcher's weights (bracket parts) of each S1 player with each S2 player, None
        for no edge; None if one has no bracket part."""
        weights: list[list[int | None]] = []
        for v in s1:
            row: list[int | None] = []
            for u in s2:
                w = self.matcher.bracket_weight(v, u)
                if w is None:
                    return None
                row.append(w or None)
            weights.append(row)
        return weights

    def _decide_s1(
        self,
        s1: list[int],
        s2: list[int],
        weights: list[list[int | None]],
        mates: list[int],
        lower: dict[int, tuple[int, dict[int, int]]],
    ) -> bool:
        """Give each S1 player, in order, the highest S2 player an optimal assignment still
        gives it (``mates``, row to column, should be one; with ``lower``, its last row is the
        floater's); fix those pairs, the floater's matching below and the matcher's last
        matching. False (nothing changed) if ``mates`` is not optimal."""
        matcher, matched = self.matcher, self.matched
        chosen = lexicographic_assignment(weights, mates, list(range(len(s1))))
        if chosen is None:
            return False
        final = list(self.stable)
        if lower:
            for a, b in lower[s2[chosen[-1]]][1].items():
                final[a] = b
        for v, c in zip(s1, chosen[: len(s1)], strict=True):
            u = s2[c]
            final[v], final[u] = u, v
            matched[v] = matched[u] = True
            matcher.finalize_pair(v, u, self.max_weight)
        matcher.adopt(final)
        self.stable = final
        return True

    def _restrict_to_remainder(self) -> None:
        """Restrict the matcher to the free remainder players when no one of them floats and
        every MDP is paired: every optimal matching then pairs S1 with S2 perfectly (after
        completion, which the last matching achieves, the number of pairs in the bracket
        outweighs everything else, and S1-S1 and S2-S2 are no edges), so the players below the
        bracket cannot change the S1 players' opponents."""
        vertices, matched = self.vertices, self.matched
        if not self._mdps_paired():
            return
        free = [vertices[pi] for pi in self.remainder if not matched[vertices[pi]]]
        if 2 * sum(self._pairs_down(v) for v in free) == len(free):
            self.matcher.restrict(free)

    def _fields(self) -> int:
        """How many players' preference fields one solve may hold."""
        spare = self.matcher.spare_bits()
        if spare is None:  # no kept graph: stay as wide as the fallback solves always were
            return min(self.fields, FIELDS_WITHOUT_GRAPH)
        return max(1, min(self.fields, spare // self.bits))

    def _next_s1_players(self, start: int, count: int) -> list[int]:
        """Positions in the remainder, from ``start``, of the next ``count`` (or fewer)
        unmatched players who pair down."""
        batch: list[int] = []
        for pos in range(start, len(self.remainder)):
            pv = self.vertices[self.remainder[pos]]
            if not self.matched[pv] and self._pairs_down(pv):
                batch.append(pos)
                if len(batch) == count:
                    break
        return batch

    def _prefer_higher(self, pi: int, shift: int | None) -> None:
        """Set the edges from ``pi`` to the unmatched lower remainder players: their base
        weights plus, with ``shift``, a preference rising with the S2 player's rank in the
        field at ``shift``; without, the base weights alone."""
        matcher, vertices, base = self.matcher, self.vertices, self.base
        pv = vertices[pi]
        addend = 0
        for oi in reversed(self.remainder):
            ov = vertices[oi]
            if oi <= pi or self.matched[ov]:
                continue
            w = base[oi][pi]
            if w:
                matcher.set(pv, ov, w if shift is None else w + (addend << shift))
            addend += 1

    def _fix_s1_pairs(self, batch: list[int]) -> int:
        """Fix the pairs the last solve gives the batch's players, in order, as far as one
        player per solve would give the same (see :meth:`pair_s1`); the remainder position
        where the next batch starts. The first player paired down before the solve, so it is
        fixed with its mate as one player per solve fixes it; each later one is checked first,
        on this solve's matching, as one player per solve checks it on the solve before."""
        remainder, vertices, matched = self.remainder, self.vertices, self.matched
        k = 0  # the next batch player
        for pos in range(batch[0], batch[-1] + 1):
            pv = vertices[remainder[pos]]
            if pos != batch[k]:
                if not matched[pv] and self._pairs_down(pv):
                    return pos
                continue
            if k and not self._pairs_down(pv):
                return pos + 1  # skipped, as one player per solve skips it
            mate = self.stable[pv]
            matched[pv] = matched[mate] = True
            self.matcher.finalize_pair(pv, mate, self.max_weight)
            k += 1
        return batch[-1] + 1
