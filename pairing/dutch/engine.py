"""The Dutch system, 2025 rules (C.04.3 from 2026), computed as bbpPairings v6 does.

One maximum-weight matching over all present players enforces the absolute criteria and the
completion of the whole round (C1-C5). Then, bracket by bracket from the top, decisions are
fixed one at a time and the matching is re-solved after each (pairing.md 2.5): which moved-down
players are paired, their opponents, the exchanges between S1 and S2 (fewest, then smallest
BSN difference, then which players), and finally each S1 player's opponent, higher players
first. The weights are in :mod:`pairing.dutch.weights`.
"""

from __future__ import annotations

from events.errors import PairingError
from pairing.dutch.weights import RoundContext
from pairing.swiss.colour import neutral_colour, swiss_round
from pairing.swiss.matching import Matcher
from pairing.swiss.model import Colour, SwissInput, SwissRound
from pairing.swiss.state import (
    PlayerState,
    build_states,
    forbidden_opponents,
    invert,
    scoring_tenths,
)

__all__ = ["NoValidPairingError", "pair"]


class NoValidPairingError(PairingError):
    """No pairing of the round satisfies the absolute criteria."""


def _bits(value: int) -> int:
    return max(value.bit_length(), 1)


def pair(swiss: SwissInput) -> SwissRound:
    """Pair round ``swiss.rounds_played + 1`` with the Dutch system.

    :raises NoValidPairingError: when no pairing satisfies the absolute criteria.
    """
    states = build_states(swiss)
    scoring = scoring_tenths(swiss.scoring)
    forbidden = forbidden_opponents(swiss, states)
    ctx = RoundContext(
        players=states,
        rounds_played=swiss.rounds_played,
        total_rounds=swiss.total_rounds,
        win=scoring["win"],
        draw=scoring["draw"],
        loss=scoring["loss"],
        forbidden=forbidden,
    )
    present = [p for p in states if p.number not in swiss.absent]
    # Effective pairing numbers: players absent now who never took part in a pairing are
    # skipped (they matter for the parity used by the colour rule 5.2.5).
    rank: dict[int, int] = {}
    for p in states:
        if p.number not in swiss.absent or any(r.participated for r in p.rounds):
            rank[p.index] = len(rank)
    present.sort(key=lambda p: (-ctx.score[p.index], p.index))
    matching = _Pairing(ctx, present).run()
    pairs: list[tuple[PlayerState, PlayerState]] = []
    pab = None
    for p in present:
        mate = matching.get(p.index)
        if mate is None:
            pab = p
        elif p.index < mate:
            opponent = states[mate]
            colour = _colour_for(ctx, p, opponent, swiss.initial_colour, rank)
            white = colour is Colour.WHITE
            pairs.append((p, opponent) if white else (opponent, p))
    return swiss_round(pairs, pab)


def _colour_for(
    ctx: RoundContext, p: PlayerState, o: PlayerState, initial: Colour, rank: dict[int, int]
) -> Colour:
    """Colour of ``p`` against ``o`` (C.04.3 article 5)."""
    neutral = neutral_colour(p, o)
    if neutral is not Colour.NONE:
        return neutral
    p_lower = (ctx.score[p.index], -p.index) < (ctx.score[o.index], -o.index)
    if p.colour_preference is Colour.NONE:
        if p_lower:
            return initial if rank[o.index] & 1 else invert(initial)
        return invert(initial) if rank[p.index] & 1 else initial
    return invert(o.colour_preference) if p_lower else p.colour_preference


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
            if len(unmatched) > 1:
                raise _unpairable()
            bye_score = score[unmatched[0]]
            shift = ctx.total_shift()
            for i in range(n):
                for j in range(i):
                    matcher.set(i, j, ctx.completion(order[j], order[i], bye_score) << shift)
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
            shift = ctx.total_shift()
            for i in range(n):
                for j in range(i):
                    matcher.set(i, j, ctx.completion(order[j], order[i], 0) << shift)
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

    def run(self) -> dict[int, int]:
        ctx, order, score, matcher = self.ctx, self.order, self.score, self.matcher
        n = len(order)
        odd = n % 2 == 1
        result: dict[int, int] = {}
        matched = [False] * n
        # players of the current bracket (and next group), as vertex indices
        vertices: list[int] = []
        nxt = 0
        while nxt < n and score[nxt] >= score[0]:
            vertices.append(nxt)
            nxt += 1
        mdp_count = 0
        group_begin_vertex = 0
        while len(vertices) > 1 or nxt < n:
            cur_end = len(vertices)  # nextScoreGroupBegin
            next_begin_vertex = group_begin_vertex + (cur_end - mdp_count)
            group_start = nxt
            while nxt < n and score[nxt] >= score[group_start]:
                vertices.append(nxt)
                nxt += 1
            size = len(vertices)
            matcher.focus(vertices)
            players = [order[v] for v in vertices]
            base: list[list[int]] = [[] for _ in range(size)]
            for li in range(mdp_count, size):
                row = base[li]
                for si in range(li):
                    row.append(
                        ctx.edge(
                            players[si],
                            players[li],
                            li < cur_end,
                            li >= cur_end,
                            self.bye_score,
                            self.single,
                        )
                    )
            for li in range(size):
                for si, w in enumerate(base[li]):
                    matcher.set(vertices[li], vertices[si], w)
            bits = ctx.size_bits

            def exchange_weight(
                si: int,
                li: int,
                rem_index: int,
                rem_pairs: int,
                base: list[list[int]] = base,
                bits: int = bits,
            ) -> int:
                w = base[li][si]
                if w:
                    addend = int(rem_index < rem_pairs)
                    addend <<= 2 * bits
                    addend -= rem_index
                    addend <<= 1
                    w += addend
                return w

            def in_bracket(
                v: int, lo: int = group_begin_vertex, hi: int = next_begin_vertex
            ) -> bool:
                return lo <= v < hi

            stable = matcher.solve()

            # Which moved-down players are paired in this bracket.
            remaining = remaining_matched = 0
            md_score = 0
            for pi in range(mdp_count):
                if pi == 0 or score[vertices[pi]] < md_score:
                    md_score = score[vertices[pi]]
                    remaining = remaining_matched = 0
                    k = pi
                    while k < size and score[vertices[k]] >= md_score:
                        remaining += 1
                        if in_bracket(stable[vertices[k]]):
                            remaining_matched += 1
                        k += 1
                if not remaining_matched:
                    continue
                pv = vertices[pi]
                if remaining <= remaining_matched:
                    matched[pv] = True
                    continue
                remaining -= 1
                if not in_bracket(stable[pv]):
                    for oi in range(mdp_count, cur_end):
                        w = base[oi][pi]
                        if w:
                            matcher.set(pv, vertices[oi], w | 1)
                    stable = matcher.solve()
                if in_bracket(stable[pv]):
                    matched[pv] = True
                    remaining_matched -= 1
                    for oi in range(mdp_count, cur_end):
                        w = base[oi][pi]
                        if w:
                            matcher.set(pv, vertices[oi], (w | (cur_end - mdp_count)) + 1)

            # Their opponents, higher-ranked residents first.
            for pi in range(mdp_count):
                pv = vertices[pi]
                if not matched[pv]:
                    continue
                addend = size
                for oi in range(cur_end - 1, mdp_count - 1, -1):
                    ov = vertices[oi]
                    if matched[ov]:
                        continue
                    w = base[oi][pi]
                    if w:
                        matcher.set(pv, ov, w + addend)
                        addend += 1
                stable = matcher.solve()
                mate = stable[pv]
                matched[mate] = True
                matcher.finalize_pair(pv, mate, self.max_weight)

            # The remainder: S1 = its first rem_pairs players.
            remainder: list[int] = []
            rem_pairs = 0
            for pi in range(mdp_count, cur_end):
                pv = vertices[pi]
                if stable[pv] < group_begin_vertex:
                    continue
                remainder.append(pi)
                if stable[pv] < pv:
                    rem_pairs += 1
            first_group_end = rem_pairs  # position in remainder

            for ri, oi in enumerate(remainder):
                ov = vertices[oi]
                for rj, pi in enumerate(remainder):
                    if oi <= pi:
                        break
                    matcher.set(vertices[pi], ov, exchange_weight(pi, oi, rj, rem_pairs))
                del ri
            stable = matcher.solve()

            first_group_end_value = (
                remainder[first_group_end] if first_group_end < len(remainder) else None
            )
            exchange_count = 0
            for pi in remainder:
                if first_group_end_value is not None and pi >= first_group_end_value:
                    break
                pv = vertices[pi]
                exchange_count += stable[pv] <= pv or stable[pv] >= next_begin_vertex

            # Lower players of S1 to exchange, where possible.
            exchanges_left = exchange_count
            rem_index = rem_pairs
            pos = first_group_end
            while pos > 0 and exchanges_left:
                opp_pos = pos
                rem_index -= 1
                pos -= 1
                pi = remainder[pos]
                pv = vertices[pi]
                if pv < stable[pv] < next_begin_vertex:
                    for q in range(opp_pos, len(remainder)):
                        w = exchange_weight(pi, remainder[q], rem_index, rem_pairs)
                        if w:
                            matcher.set(pv, vertices[remainder[q]], w - 1)
                    stable = matcher.solve()
                exchange = stable[pv] <= pv or stable[pv] >= next_begin_vertex
                exchanges_left -= exchange
                for q in range(pos + 1, len(remainder)):
                    if exchange:
                        base[remainder[q]][pi] = 0
                    matcher.set(
                        pv,
                        vertices[remainder[q]],
                        exchange_weight(pi, remainder[q], rem_index, rem_pairs),
                    )

            # Higher players of S2 to exchange, where possible.
            exchanges_left = exchange_count
            rem_index = rem_pairs
            pos = first_group_end
            while pos < len(remainder) and exchanges_left > 1:
                pi = remainder[pos]
                pv = vertices[pi]
                already = pv < stable[pv] < next_begin_vertex
                if not already:
                    for q in range(pos + 1, len(remainder)):
                        w = exchange_weight(pi, remainder[q], rem_index, rem_pairs)
                        if w:
                            matcher.set(pv, vertices[remainder[q]], w + 1)
                    stable = matcher.solve()
                exchange = pv < stable[pv] < next_begin_vertex
                if exchange:
                    exchanges_left -= 1
                    for q in range(pos):
                        base[pi][remainder[q]] = 0
                        matcher.set(pv, vertices[remainder[q]], 0)
                    for oi in range(cur_end, size):
                        base[oi][pi] = 0
                        matcher.set(pv, vertices[oi], 0)
                if not already:
                    for q in range(pos + 1, len(remainder)):
                        matcher.set(
                            pv,
                            vertices[remainder[q]],
                            exchange_weight(pi, remainder[q], rem_index, rem_pairs),
                        )
                rem_index += 1
                pos += 1

            # Fix who is exchanged; restore the plain weights.
            for a_pos, pi in enumerate(remainder):
                pv = vertices[pi]
                for oi in remainder[a_pos + 1 :]:
                    ov = vertices[oi]
                    if (
                        stable[pv] <= pv
                        or stable[pv] >= next_begin_vertex
                        or ov < stable[ov] < next_begin_vertex
                    ):
                        base[oi][pi] = 0
                    matcher.set(pv, ov, base[oi][pi])

            # The opponent of each S1 player, higher players first.
            for pi in remainder:
                pv = vertices[pi]
                if pv < stable[pv] < next_begin_vertex:
                    addend = 0
                    for oi in reversed(remainder):
                        ov = vertices[oi]
                        if oi <= pi or matched[ov]:
                            continue
                        w = base[oi][pi]
                        if w:
                            matcher.set(pv, ov, w + addend)
                        addend += 1
                    stable = matcher.solve()
                    mate = stable[pv]
                    matched[pv] = True
                    matched[mate] = True
                    matcher.finalize_pair(pv, mate, self.max_weight)

            # Carry the unpaired players into the next bracket.
            new_vertices: list[int] = []
            mdp_count = 0
            self.single = odd and group_start < n and self.bye_score == score[group_start]
            for idx, v in enumerate(vertices):
                if idx < cur_end and matched[v]:
                    result[order[v].index] = order[stable[v]].index
                    result[order[stable[v]].index] = order[v].index
                else:
                    new_vertices.append(v)
                    if idx < cur_end:
                        mdp_count += 1
                    if score[stable[v]] < self.bye_score:
                        self.single = False
            vertices = new_vertices
            group_begin_vertex = next_begin_vertex
        return result
