"""The Burstein system as bbpPairings implements it (pairing.md 3).

Players are sorted by accelerated score and, inside a scoregroup, by Sonneborn-Berger,
Buchholz and Median (:mod:`pairing.burstein.metrics`). The PAB goes to the lowest eligible
player. Scoregroups are then built from the top: a scoregroup is merged with the one below
while a matching cannot pair it with at most one floater (an odd group may hand one player
down through a virtual opponent). Finally, inside each scoregroup (with the floater from
above), the highest player gets the lowest opponent that keeps the matching optimal, then the
next, and so on; whoever can only be paired below floats down.

Each of these steps is a maximum-weight matching in bbpPairings. Here a greedy pairing proves
most of them without one (`pairing.burstein.chain` that the scoregroups can be paired,
`pairing.burstein.certificate` a scoregroup's opponents); where no proof is found, the
matcher solves, one solve deciding several players at once (lexicographic priority fields,
see `_pair_groups`).
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import pairwise

from pairing.burstein.certificate import decide_greedily
from pairing.burstein.chain import pair_chain
from pairing.burstein.group_order import list_sort
from pairing.burstein.metrics import Metric, metrics
from pairing.swiss.colour import neutral_colour, swiss_round
from pairing.swiss.errors import NoValidPairingError
from pairing.swiss.matching import Matcher
from pairing.swiss.model import Colour, SwissInput, SwissRound
from pairing.swiss.state import (
    PlayerState,
    build_states,
    forbidden_opponents,
    invert,
    scoring_tenths,
)

__all__ = ["pair"]


def _default_accelerations(swiss: SwissInput, states: list[PlayerState]) -> list[int]:
    """Burstein's own acceleration when no XXA line is given: the upper half of the round-1
    participants (by pairing number) get a win's points in rounds 1 and 2."""
    if any(p.accelerations for p in swiss.players) or swiss.rounds_played >= 2:
        return [p.acceleration(swiss.rounds_played) for p in states]
    win = scoring_tenths(swiss.scoring)["win"]

    def participated(p: PlayerState) -> bool:
        if p.rounds:
            return p.rounds[0].participated
        return swiss.rounds_played > 0 or p.number not in swiss.absent

    bound = sum(participated(p) for p in states)
    result = [0] * len(states)
    if bound > 1:
        for p in states:
            result[p.index] = win
            if participated(p):
                bound -= 2
                if bound <= 1:
                    break
    return result


# Edge weights stay below 2 ** _WEIGHT_BITS, well inside what rustworkx takes as they are.
_WEIGHT_BITS = 100


class _Weights:
    """Edge weights: compatible, same scoregroup, colour preferences compatible, then the
    priority fields of the players being decided together (see `_pair_groups`), the first
    highest.

    A priority field holds the priority of one player's edge: at most the number of players,
    so no sum over a matching carries out of a field.
    """

    def __init__(self, players: list[PlayerState], forbidden: list[set[int]]) -> None:
        size = len(players)
        self.players = players
        self.forbidden = forbidden
        self.field = (size + 1).bit_length()
        counts = 3 * (size.bit_length() + 1)  # the colour, same-group and pair counts
        self.fields = max(1, (_WEIGHT_BITS - counts) // self.field)
        self.colour = 1 << (self.fields * self.field)
        self.same = self.colour << (size.bit_length() + 1)
        self.compatible = self.same << (size.bit_length() + 1)

    def priority(self, rank: int, value: int) -> int:
        """``value`` in the priority field of the ``rank``-th player decided together."""
        return value << ((self.fields - 1 - rank) * self.field)

    def edge(self, a: PlayerState, b: PlayerState, same_group: bool, due_colour: bool) -> int:
        if b.index in self.forbidden[a.index] or (
            a.absolute_preference
            and b.absolute_preference
            and a.colour_preference is b.colour_preference
        ):
            return 0
        pa, pb = a.colour_preference, b.colour_preference
        compatible_colours = pa is not pb or pa is Colour.NONE or pb is Colour.NONE
        return (
            self.compatible
            + same_group * self.same
            + (same_group and due_colour and compatible_colours) * self.colour
        )


_SIDE = {Colour.NONE: 0, Colour.WHITE: 1, Colour.BLACK: 2}
"""A colour preference as `pairing.burstein.certificate.decide_greedily` counts it."""


def _valid(mates: list[int], groups: list[int]) -> bool:
    """Every scoregroup but the last is paired, with at most one floater (two if odd)."""
    it = 0
    unmatched = 0
    begin = 0
    for v, mate in enumerate(mates):
        if v >= groups[-1]:
            return True
        if v >= groups[it]:
            unmatched = 0
            begin = v
            while v >= groups[it]:
                it += 1
        if v == mate and v < groups[-2]:
            return False
        if v == mate or mate < begin or mate >= groups[it]:
            unmatched += 1
            if unmatched > (2 if groups[it] & 1 else 1):
                return False
    return True


def pair(swiss: SwissInput) -> SwissRound:
    """Pair round ``swiss.rounds_played + 1`` with bbpPairings' Burstein system.

    :raises NoValidPairingError: when no pairing satisfies the absolute criteria.
    """
    states = build_states(swiss)
    scoring = scoring_tenths(swiss.scoring)
    forbidden = forbidden_opponents(swiss, states)
    ranks: dict[int, int] = {}
    for p in states:
        if p.number not in swiss.absent or any(r.participated for r in p.rounds):
            ranks[p.index] = len(ranks)
    accelerations = _default_accelerations(swiss, states)
    metric = metrics(states, swiss.rounds_played, scoring, accelerations, ranks)

    present = [p for p in states if p.number not in swiss.absent]
    present.sort(key=lambda p: metric[p.index].key())
    pab = None
    if len(present) % 2:
        for p in reversed(present):
            if not any(not r.played and r.participated and r.score == 2 for r in p.rounds):
                pab = p
                break
        if pab is None:
            raise NoValidPairingError("no player is eligible for the pairing-allocated bye")
        present.remove(pab)
    pairs = _pair_groups(present, forbidden, metric)
    boards: list[tuple[PlayerState, PlayerState]] = []
    for high, low in pairs:
        white = _colour_for(high, low, swiss.initial_colour, ranks, metric) is Colour.WHITE
        boards.append((high, low) if white else (low, high))
    return swiss_round(boards, pab)


def _colour_for(
    p: PlayerState, o: PlayerState, initial: Colour, ranks: dict[int, int], metric: list[Metric]
) -> Colour:
    neutral = neutral_colour(p, o)
    if neutral is not Colour.NONE:
        return neutral
    if p.colour_preference is Colour.NONE:
        if ranks[p.index] < ranks[o.index]:
            return invert(initial) if ranks[p.index] & 1 else initial
        return initial if ranks[o.index] & 1 else invert(initial)
    if metric[p.index].below(metric[o.index]):
        return invert(o.colour_preference)
    return p.colour_preference


class _Graph:
    """The edges the engine's matcher holds, as bbpPairings sets them: within a scoregroup,
    across a boundary after an odd number of players to the next group, and from a virtual
    opponent below an odd last group. They are a function of the scoregroups, so they are set
    in the matcher only when a solve needs them (:meth:`materialize`): most rounds are decided
    by proofs alone (`pairing.burstein.chain`, `pairing.burstein.certificate`).
    """

    def __init__(self, labels: list[PlayerState], weights: _Weights) -> None:
        self.labels = labels
        self.weights = weights
        self._matcher: Matcher | None = None
        self.groups = [0, 0]
        """The scoregroup boundaries (`_build_groups`), shared with it."""
        self.start = [0] * (len(labels) + 1)
        """The first vertex of each vertex's scoregroup (of those placed in one)."""
        self.eager = False
        """Whether the matcher holds the edges (set by the engine as they change)."""
        self.fixed: list[tuple[int, int]] = []
        """The pairs decided while the matcher did not hold the edges."""
        self.mates = list(range(len(labels) + 1))
        """The last optimal matching of the edges, solved or proved."""

    @property
    def matcher(self) -> Matcher:
        """The matcher, made when first needed (it holds a weight for every two players)."""
        if self._matcher is None:
            n = len(self.labels)
            self._matcher = Matcher(n + 1)
            # Edges join a scoregroup only to itself and to the next one across an odd
            # boundary, so the players fall into components, joined only by the virtual
            # opponent (vertex n).
            self._matcher.split(n)
        return self._matcher

    def weight(self, a: int, b: int) -> int:
        """The weight of edge a-b before any colour is weighed (0: no edge)."""
        if a > b:
            a, b = b, a
        groups, start = self.groups, self.start
        if b >= groups[-1]:
            last = b == groups[-1] and b & 1 and start[a] == groups[-2]
            return self.weights.compatible if last else 0
        sa, sb = start[a], start[b]
        if sa == sb:
            return self.weights.edge(self.labels[a], self.labels[b], True, False)
        if sb & 1 and start[sb - 1] == sa:
            return self.weights.edge(self.labels[a], self.labels[b], False, False)
        return 0

    def finalize(self, a: int, b: int) -> None:
        """Fix the pair a-b: later solves keep it."""
        if self.eager:
            self.matcher.finalize_pair(a, b, 1)
        else:
            self.fixed.append((a, b))

    def materialize(self) -> None:
        """Set every edge in the matcher (and the pairs fixed so far), before its first solve."""
        if self.eager:
            return
        self.eager = True
        groups, matcher = self.groups, self.matcher
        fixed = [False] * (len(self.labels) + 1)  # their edges would be cleared at once
        for a, b in self.fixed:
            fixed[a] = fixed[b] = True
        bounds = sorted(set(groups))
        for k, (low, high) in enumerate(pairwise(bounds)):
            below = high  # the edges go down to here: the next group's end, or the virtual
            if high & 1:
                below = bounds[k + 2] if k + 2 < len(bounds) else high + 1
            free = [v for v in range(low, below) if not fixed[v]]
            for i, a in enumerate(free):
                if a >= high:
                    break
                for b in free[i + 1 :]:
                    w = self.weight(a, b)
                    if w:
                        matcher.set(a, b, w)
        for a, b in self.fixed:
            matcher.fix_unconnected(a, b, 1)
        self.fixed.clear()


def _build_groups(graph: _Graph, score: list[int]) -> list[int]:
    """Scoregroup boundaries (vertex indices), merging groups that cannot be paired."""
    labels, weights, start = graph.labels, graph.weights, graph.start
    n = len(labels)
    groups = graph.groups
    valid = True
    while groups[-1] < n:
        groups.append(groups[-1])
        while True:
            begin = groups[-1]
            while True:
                new = groups[-1]
                start[new] = groups[-2]
                if graph.eager:
                    for v in range(groups[-3], new):
                        graph.matcher.set(
                            new, v, weights.edge(labels[v], labels[new], v >= groups[-2], False)
                        )
                groups[-1] += 1
                if groups[-1] >= n or score[begin] != score[groups[-1]]:
                    break
            if groups[-1] & 1 and graph.eager:
                virtual = groups[-1]
                for v in range(groups[-2], groups[-1]):
                    graph.matcher.set(virtual, v, weights.compatible)
            valid = _proved(graph)
            if not valid:
                graph.materialize()
                graph.mates = graph.matcher.solve()
                valid = _valid(graph.mates, groups)
            if groups[-1] >= n or valid:
                break
        if groups[-1] < n and not groups[-1] & 1:
            groups.append(groups[-1])
    while len(groups) > 3 and not valid:
        graph.materialize()
        groups.pop()
        boundary = groups.pop()
        begin = groups.pop()
        for outer in range(groups[-1], boundary):
            for inner in range(boundary, n):
                graph.matcher.set(
                    outer, inner, weights.edge(labels[outer], labels[inner], outer >= begin, False)
                )
        for inner in range(boundary, n):
            start[inner] = begin
        groups.extend((begin, n))
        graph.mates = graph.matcher.solve()
        valid = _valid(graph.mates, groups)
    if not valid:
        raise NoValidPairingError(
            "the players cannot all be paired while satisfying the absolute criteria"
        )
    return groups


def _proved(graph: _Graph) -> bool:
    """Whether a greedy matching (`pairing.burstein.chain`) proves the scoregroups built so
    far valid; if so, it is the graph's last matching (and the matcher's, if it holds the
    edges)."""
    groups, mates = graph.groups, graph.mates
    bounds = [groups[-1]]
    for boundary in reversed(groups[:-1]):  # back to the last even boundary: its segment
        bounds.append(boundary)
        if not boundary & 1:
            break
    bounds.reverse()
    virtual = groups[-1] if groups[-1] & 1 else None
    pairs = pair_chain(bounds, virtual, graph.weight)
    if pairs is None:
        return False
    for v in range(bounds[0], groups[-1] + 1):
        mates[v] = v
    for a, b in pairs:
        mates[a], mates[b] = b, a
    if graph.eager:
        graph.matcher.adopt(mates)
    return True


def _group_weights(inside: set[int], graph: _Graph) -> Callable[[int, int], int]:
    """The weights a solve in a scoregroup gives: with colours inside it (set in the matcher
    only when the group is solved), else as the scoregroups were built."""
    labels, edge = graph.labels, graph.weights.edge

    def weight(a: int, b: int) -> int:
        if a in inside and b in inside:
            return edge(labels[a], labels[b], True, True)
        return graph.weight(a, b)

    return weight


def _pair_groups(
    labels: list[PlayerState], forbidden: list[set[int]], metric: list[Metric]
) -> list[tuple[PlayerState, PlayerState]]:
    n = len(labels)
    if n == 0:
        return []
    weights = _Weights(labels, forbidden)
    score = [metric[p.index].score for p in labels]
    graph = _Graph(labels, weights)
    groups = _build_groups(graph, score)

    def before(a: int, b: int) -> bool:
        return metric[labels[b].index].below(metric[labels[a].index])

    good = weights.compatible + weights.same + weights.colour
    mates = graph.mates
    side = [_SIDE[p.colour_preference] for p in labels]
    pairs: list[tuple[PlayerState, PlayerState]] = []
    matched = [False] * n
    floater: int | None = None
    begin = groups[0]
    for end in groups[1:]:
        if begin == end:
            continue
        members = list(range(begin, end))
        if floater is not None:
            members.append(floater)
            floater = None
        # Not transitive with a floater: the merge pattern decides (group_order).
        members = list_sort(members, before)
        weight = _group_weights(set(members), graph)
        # Several players are decided by one solve: the next unmatched ones, each with the
        # priorities of its opponents (the lowest highest) in its own field, the first
        # player's field highest. The optimum then gives each the opponent it would get
        # deciding one player per solve, after the ones before it are paired. A player who
        # floats keeps no priorities, so that each field holds one player's.
        position = {v: i for i, v in enumerate(members)}
        floated: list[int] = []
        solved = False  # ``mates`` is optimal but for the colours of this group's edges
        while True:
            rest = [v for v in members if not matched[v]]
            if not rest:
                break
            # Where a greedy pairing proves the decisions of the rest, no solve is needed.
            decided = decide_greedily(rest, floated, mates, weight, good, side, solved)
            if decided is not None:
                for v, mate in decided.pairs:
                    matched[v] = matched[mate] = True
                    pairs.append((labels[v], labels[mate]))
                    graph.finalize(v, mate)
                if decided.floater is not None:
                    floater = decided.floater
                mates = decided.mates
                if graph.eager:
                    graph.matcher.adopt(mates)
                break
            batch = [v for v in rest if v not in floated][: weights.fields]
            if not batch:
                break
            if not solved:  # the first solve of the group: its edges with their colours
                if not graph.eager:
                    graph.materialize()
                    graph.matcher.adopt(mates)
                for i, v in enumerate(members):
                    for u in reversed(members[i + 1 :]):
                        graph.matcher.set(v, u, weight(v, u))
            for rank, v in enumerate(batch):
                priority = 1
                for u in members[position[v] + 1 :]:
                    if matched[u]:
                        continue
                    w = weights.edge(labels[v], labels[u], True, True)
                    if w:
                        graph.matcher.set(v, u, w + weights.priority(rank, priority))
                        priority += 1
            mates = graph.matcher.solve()
            solved = True
            for v in batch:
                if matched[v]:
                    continue
                mate = mates[v]
                if mate >= end:
                    floater = v
                    floated.append(v)
                else:
                    matched[v] = matched[mate] = True
                    pairs.append((labels[v], labels[mate]))
                    graph.finalize(v, mate)
            for v in batch:  # the players who float keep no priorities
                if not matched[v]:
                    for u in members[position[v] + 1 :]:
                        if not matched[u]:
                            graph.matcher.set(v, u, weights.edge(labels[v], labels[u], True, True))
        begin = end
    return pairs
