"""FIDE Swiss Team Pairing System (Handbook C.04.6, in force from 1 February 2026).

The team PAB first (3.4: lowest score, most matches, largest TPN, leaving a legal pairing),
then the teams are paired (3.3-3.6) and given colours (section 4). Every quality criterion is
a count over the pairs, so the round is a maximum-weight matching whose integer edge weights
hold the criteria in layers, most significant first, over the 3.6.2 identifier (`_pair_all`:
rustworkx solves that fix a few identifier fields each, networkx as a fallback, both through
:func:`pairing.swiss.matching.solve`). This reads
C.04.6 round-wide, as the hand-derived fixtures of ``chess/team/`` (and the Sharly-Chess
reference engine) do: where the text pairs the top scoregroup first and the lexicographic
order of upfloater sets would pick another team, the round-wide smallest identifier wins.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from decimal import Decimal
from functools import reduce
from operator import or_

from events.domain import Colour
from events.errors import PairingError
from pairing.contract import PairedRound, boards_of
from pairing.swiss.colour import published_order
from pairing.swiss.matching import solve
from pairing.team.model import (
    ColourType,
    PrimaryScore,
    TeamEntry,
    TeamPair,
    TeamRound,
    TeamSwissInput,
)

__all__ = ["TeamSwissError", "criteria", "pair", "pair_round"]


class TeamSwissError(PairingError):
    """No legal team pairing exists for the round (C.04.6 3.3.3: the Chief Arbiter decides)."""


@dataclass(frozen=True)
class _Team:
    number: int
    score: Decimal
    secondary: Decimal
    standing: Decimal
    """The primary score without acceleration: the published board order (`_board_key`)."""
    colours: tuple[Colour, ...]
    """Board-1 colours of the played matches, oldest first."""
    matches: int
    """Matches played or forfeited against an opponent (3.4.3)."""
    floated_last: bool
    pab_eligible: bool


@dataclass(frozen=True)
class _Preference:
    colour: Colour
    strong: bool


class _Round:
    """The teams of the round and the questions the criteria ask about them."""

    def __init__(self, request: TeamSwissInput) -> None:
        self.request = request
        played = request.rounds_played
        self.last_round = played + 1 >= request.total_rounds
        self.float_history = played + 2 < request.total_rounds  # [C7]/[C10] off in the last two
        self.opponents: dict[int, set[int]] = {}
        """The teams each team may not meet ([C1], 260 restrictions)."""
        met = [tuple(pair) for pair in request.forbidden] + [
            (entry.number, record.opponent)
            for entry in request.teams
            for record in entry.history
            if record.opponent is not None
        ]
        for a, b in met:
            self.opponents.setdefault(a, set()).add(b)
            self.opponents.setdefault(b, set()).add(a)
        self.everyone = {t.number: t for t in request.teams}
        teams = [t for t in request.teams if t.number not in request.absent]
        self.teams = {t.number: self._team(t) for t in teams}

    def _score(
        self, entry: TeamEntry, rounds: int, primary: bool = True, accelerated: bool = True
    ) -> Decimal:
        """Score after ``rounds`` rounds, with the acceleration of round ``rounds + 1``."""
        use_mp = (self.request.primary is PrimaryScore.MATCH_POINTS) == primary
        total = sum(
            (h.match_points if use_mp else h.game_points for h in entry.history[:rounds]),
            Decimal(0),
        )
        if accelerated and rounds < len(entry.accelerations):
            mp, gp = entry.accelerations[rounds]
            total += mp if use_mp else gp
        return total

    def _team(self, entry: TeamEntry) -> _Team:
        played = self.request.rounds_played
        history = entry.history[:played]
        return _Team(
            number=entry.number,
            score=self._score(entry, played),
            secondary=self._score(entry, played, primary=False),
            standing=self._score(entry, played, accelerated=False),
            colours=tuple(h.colour for h in history if h.kind.played),
            matches=sum(1 for h in history if h.opponent is not None),
            floated_last=self._floated(entry, played),
            pab_eligible=not any(h.kind.blocks_pab for h in history),
        )

    def _floated(self, entry: TeamEntry, played: int) -> bool:
        """C.04.6 1.5: the team met a team with another score in the previous round.

        A scoring round without an opponent (PAB, bye) counts as a float.
        """
        if played == 0 or len(entry.history) < played:
            return False
        last = entry.history[played - 1]
        if last.opponent is None or not last.kind.played:
            return last.match_points > 0 if last.opponent is None else False
        opponent = self.everyone.get(last.opponent)
        if opponent is None:
            return False
        return self._score(entry, played - 1) != self._score(opponent, played - 1)

    # -- [C1] and [C3] ------------------------------------------------------------------

    def legal(self, a: int, b: int) -> bool:
        return b not in self.opponents.get(a, ())

    def perfect(self, numbers: Iterable[int]) -> bool:
        """Whether the teams admit a pairing that covers them all ([C1], [C3])."""
        nodes = list(numbers)
        if len(nodes) % 2:
            return False
        if not nodes:
            return True
        edges = [
            (i, j, 1)
            for i, a in enumerate(nodes)
            for j in range(i + 1, len(nodes))
            if self.legal(a, nodes[j])
        ]
        return 2 * len(solve(len(nodes), edges, perfect=True, engine="rustworkx")) == len(nodes)

    # -- colour preferences (1.6, 1.7) ----------------------------------------------------

    def preference(self, number: int) -> _Preference:
        team = self.teams[number]
        kind = self.request.colour_type
        none = _Preference(Colour.NONE, strong=False)
        if kind is ColourType.NONE or not team.colours:
            return none
        cd = _difference(team.colours)
        last_two = team.colours[-2:] if len(team.colours) >= 2 else ()
        if cd < -1 or (cd in (0, -1) and last_two == (Colour.BLACK, Colour.BLACK)):
            return _Preference(Colour.WHITE, strong=True)
        if cd > 1 or (cd in (0, 1) and last_two == (Colour.WHITE, Colour.WHITE)):
            return _Preference(Colour.BLACK, strong=True)
        if kind is ColourType.A or (cd == 0 and self.last_round):
            return none
        last = team.colours[-1]
        if cd == -1 or (cd == 0 and last is Colour.BLACK):
            return _Preference(Colour.WHITE, strong=False)
        if cd == 1 or (cd == 0 and last is Colour.WHITE):
            return _Preference(Colour.BLACK, strong=False)
        return none


def _difference(colours: Sequence[Colour]) -> int:
    """C.04.6 1.6.2: matches with White minus matches with Black."""
    return sum(1 if c is Colour.WHITE else -1 for c in colours if c is not Colour.NONE)


def pair(request: TeamSwissInput) -> TeamRound:
    """Pair round ``request.rounds_played + 1`` by C.04.6.

    :raises TeamSwissError: when no legal pairing exists.
    """
    state = _Round(request)
    numbers = sorted(state.teams)
    pab = _choose_pab(state, numbers) if len(numbers) % 2 else None
    order = sorted((n for n in numbers if n != pab), key=lambda n: (-state.teams[n].score, n))
    pairs = sorted(_pair_all(state, order), key=lambda p: _board_key(state, *p))
    return TeamRound(pairs=tuple(_colour(state, a, b) for a, b in pairs), pab=pab)


def pair_round(request: TeamSwissInput, params: None, /, *, explain: bool = False) -> PairedRound:
    """:func:`pair` in the engines' calling convention: a board per match (``white``: the team
    with White on board 1), the team PAB last; nothing to explain yet, and no params."""
    del params, explain
    result = pair(request)
    return PairedRound(boards_of(((p.white, p.black) for p in result.pairs), result.pab))


def _choose_pab(state: _Round, numbers: list[int]) -> int:
    """C.04.6 3.4: lowest score, most matches played, largest TPN, leaving a legal pairing."""
    candidates = sorted(
        (state.teams[n] for n in numbers if state.teams[n].pab_eligible),
        key=lambda t: (t.score, -t.matches, -t.number),
    )
    for team in candidates:
        if state.perfect(n for n in numbers if n != team.number):
            return team.number
    raise TeamSwissError("no team can receive the pairing-allocated bye (C.04.6 3.4)")


def _board_key(state: _Round, a: int, b: int) -> tuple[Decimal, Decimal, int]:
    """Published board order, as the Swiss engines publish theirs (`published_order`): the
    higher team's score, then the lower team's score (both without acceleration), then the
    higher team's TPN."""
    return published_order((state.teams[a].standing, a), (state.teams[b].standing, b))


class _Layers:
    """The quality criteria of a pair of teams, most significant first (see `_pair_all`)."""

    def __init__(self, state: _Round, order: Sequence[int]) -> None:
        self.state = state
        teams = state.teams
        self.radix = len(order) + 1
        scores = {teams[t].score for t in order}
        differences = sorted({abs(x - y) for x in scores for y in scores} - {0})
        self.c5_rank: dict[Decimal, int] = {d: self.radix**i for i, d in enumerate(differences)}
        self.c5_top: int = self.radix ** len(differences)
        self.prefs = {m: state.preference(m) for m in order}

    def of(self, a: int, b: int) -> tuple[int, ...]:
        """[C4] (a pair inside a scoregroup), [C5] (its score difference, as a rank counted
        down from the top), [C7], [C8], [C9], [C10]: each 1 when the pair complies."""
        difference, *flags = self.complies(a, b)
        same = difference == 0
        c5 = self.c5_top - (0 if same else self.c5_rank[difference])
        return (int(same), c5, *map(int, flags))

    def complies(self, a: int, b: int) -> tuple[Decimal, bool, bool, bool, bool]:
        """The pair's score difference ([C4] [C5]), and whether it complies with [C7], [C8],
        [C9], [C10]."""
        teams = self.state.teams
        difference, c7, c10 = self.floats(teams[a], teams[b])
        c8, c9 = self.colours(self.prefs[a], self.prefs[b])
        return (difference, c7, c8, c9, c10)

    def floats(self, a: _Team, b: _Team) -> tuple[Decimal, bool, bool]:
        """The score difference of teams ``a`` and ``b``, and whether their pair complies with
        [C7] (the upfloater did not float last round) and [C10] (nor did its opponent)."""
        difference = abs(a.score - b.score)
        same = difference == 0
        upfloater, resident = (a, b) if a.score < b.score else (b, a)
        history = self.state.float_history
        c7 = same or not history or not upfloater.floated_last
        c10 = same or not history or not resident.floated_last
        return difference, c7, c10

    def colours(self, a: _Preference, b: _Preference) -> tuple[bool, bool]:
        """Whether a pair of teams with colour preferences ``a`` and ``b`` complies with [C8]
        (compatible preferences) and [C9] (not two strong ones for one colour, Type B)."""
        c8 = _compatible(a.colour, b.colour)
        c9 = not (
            self.state.request.colour_type is ColourType.B
            and a.strong
            and b.strong
            and a.colour is b.colour is not Colour.NONE
        )
        return c8, c9

    def weight(self, a: int, b: int) -> int:
        """The criteria as one integer, layer by layer (a layer's sum over the round's pairs
        stays below the next layer's unit)."""
        same, c5, *flags = self.of(a, b)
        weight = same * self.radix * self.c5_top + c5
        for flag in flags:
            weight = weight * self.radix + flag
        return weight


def criteria(request: TeamSwissInput, pairs: Iterable[tuple[int, int]]) -> tuple[int, ...]:
    """The quality criteria of a pairing of the round, summed over its matches: [C4] pairs
    inside a scoregroup, [C5] (score-difference ranks counted down), [C7], [C8], [C9],
    [C10] pairs that comply; compared as tuples, the larger complies better. The PAB is not
    counted. For comparing another engine's pairing with ours.
    """
    state = _Round(request)
    chosen = [tuple(p) for p in pairs]
    order = sorted(n for pair in chosen for n in pair)
    layers = _Layers(state, order)
    totals = [0] * 6
    for a, b in chosen:
        for i, value in enumerate(layers.of(a, b)):
            totals[i] += value
    return tuple(totals)


def _pair_all(state: _Round, order: list[int]) -> list[tuple[int, int]]:
    """C.04.6 3.3-3.6: the pairing that complies best with the quality criteria, then has the
    smallest identifier (3.6.2).

    Every criterion is a count over the pairs, so the pairing is a maximum-weight matching
    whose edge weights put them in layers (most significant first), scoregroup by scoregroup
    and round-wide at once: [C4] fewest upfloaters, [C5] smallest score differences (largest
    first), [C7] fewest upfloaters that floated last round, [C8] [C9] [C10], then the
    smallest identifier (3.6.2: the set of top members, then the bottoms in their tops'
    order). [C1] and [C3] are the graph's missing edges and the perfect matching itself; [C6]
    holds because the whole round is paired at once.

    The identifier is chosen a field at a time on 128-bit weights (`_Stepwise`); when the
    criteria alone do not fit them, the whole order goes to one matching on exact integers
    (`_pair_exact`). Both give the same pairing: the identifier tells every pairing apart.
    """
    if not order:
        return []
    pairs = _Stepwise(state, order).pair()
    return _pair_exact(state, order) if pairs is None else pairs


def _pair_exact(state: _Round, order: list[int]) -> list[tuple[int, int]]:
    """`_pair_all` as one networkx matching: the criteria layers over the identifier
    (3.6.2), in one integer of about ``n * (log2(n) + 1)`` bits for ``n`` teams."""
    n = max(order)
    identifier_bound = (1 << (n + 1)) * (n + 1) ** (n + 2)
    layers = _Layers(state, order)
    position = {a: i for i, a in enumerate(order)}
    edges: list[tuple[int, int, int]] = []
    for i, a in enumerate(sorted(order)):
        for b in sorted(order)[i + 1 :]:
            if not state.legal(a, b):
                continue
            identifier = (1 << (n - a)) * (n + 1) ** (n + 1) + (n + 1 - b) * (n + 1) ** (n - a)
            weight = layers.weight(a, b) * identifier_bound + identifier
            edges.append((position[a], position[b], weight))
    # Only for rounds whose criteria do not fit 128 bits: networkx, whatever the width.
    matching = solve(order, edges, perfect=True, engine="networkx")
    if 2 * len(matching) != len(order):
        raise _unpairable()
    return [(min(a, b), max(a, b)) for a, b in matching]


def _unpairable() -> TeamSwissError:
    return TeamSwissError("no legal team pairing exists for this round (C.04.6 3.3.3)")


# rustworkx matches on signed 128-bit integers, doubling weights and summing duals: an edge
# weight stays below 2 ** 124, as in pairing.swiss.focus_graph.
_WIDTH = 124

# A solve that leaves fewer bits than this to the identifier first narrows the criteria.
_ROOM = 16


@dataclass
class _Window:
    """The identifier fields of one solve, each at its bit shift in the weights."""

    tops: dict[int, int]
    """Team -> shift of its field "is a top member" (1 when it is)."""
    bottoms: dict[int, tuple[int, dict[int, int]]]
    """Top team -> shift of its bottom's field, and each candidate bottom's value there (the
    smaller the bottom, the larger the value)."""
    width: int
    """The bits the fields take."""


class _Stepwise:
    """The criteria-optimal pairing with the smallest identifier (3.6.2), fields at a time.

    The identifier orders pairings by fields, most significant first: for each team in TPN
    order whether it is a top member (the smaller TPN of its pair), then for each top member
    in TPN order its bottom (the smaller the better). Each solve is one rustworkx matching
    (signed 128-bit weights) of the remaining teams whose weights are the criteria layers
    (compared exactly: each layer's unit exceeds what the layers below it can add up to over a
    pairing) over as many of the next fields as fit. Its optimum has the best criteria and,
    among those pairings, the best of those fields, which are then fixed (pairs that
    contradict them dropped, fixed pairs taken out) before the next solve. Also exact, between
    solves:

    * a team whose partners left are all above (below) it is a top (bottom) member, and a
      team with one partner left is paired with it;
    * a layer that an optimal pairing meets on every pair, every optimal pairing meets on
      every pair (they all count the same), so the pairs that fail it are dropped: the first
      solve has the criteria alone (fast: many ties), to drop before the tie-breaks;
    * when the criteria alone are too wide (many score differences), a solve on the most
      significant layers drops the pairs those layers rule out ([C5]: the differences above
      the largest one needed), until they fit or nothing more can be dropped (None:
      `_pair_exact` pairs the round).

    Teams are their positions in TPN order (``numbers``).
    """

    def __init__(self, state: _Round, order: Sequence[int]) -> None:
        self.numbers = sorted(order)
        position = {t: i for i, t in enumerate(self.numbers)}
        layers = _Layers(state, order)
        c5 = {d: 1 + i for i, d in enumerate(sorted(layers.c5_rank, reverse=True))}
        self.layers = len(c5) + 5
        """Layer (bit) 0 [C4], then [C5] one per score difference (largest first), then [C7]
        [C8] [C9] [C10]: the set bits of a pair's mask are the layers it fails."""
        kinds: dict[tuple[Decimal, bool, Colour, bool], int] = {}
        self.kind: list[int] = []
        """Each team's kind: teams of one kind fail the same layers with any team."""
        self.members: list[set[int]] = []
        """The teams of each kind."""
        for i, t in enumerate(self.numbers):
            team, preference = state.teams[t], layers.prefs[t]
            key = (team.score, team.floated_last, preference.colour, preference.strong)
            if key not in kinds:
                kinds[key] = len(self.members)
                self.members.append(set())
            self.kind.append(kinds[key])
            self.members[kinds[key]].add(i)
        self.masks = _masks(layers, c5, [self.numbers[min(m)] for m in self.members])
        """The layers a pair fails, by the two teams' kinds."""
        everyone = set(range(len(self.numbers)))
        self.partners: dict[int, set[int]] = {}
        """The remaining teams and the pairs left to each ([C1], [C3]): every optimal pairing
        with the smallest identifier is among them."""
        for i, t in enumerate(self.numbers):
            met = {position[o] for o in state.opponents.get(t, ()) if o in position}
            self.partners[i] = everyone - met - {i}
        self.top: dict[int, bool] = {}
        """Teams whose first field is fixed: True for a top member, False for a bottom."""
        self.pairs: list[tuple[int, int]] = []
        """The fixed pairs (smaller TPN first); their teams have left ``partners``."""
        teams = range(len(self.numbers))
        self.fields = [(True, t) for t in teams] + [(False, t) for t in teams]
        """The fields still to fix, most significant first: (True, t) whether t is a top
        member, (False, t) the bottom of top t."""
        self.dropped = 0
        """The layers whose failing pairs were dropped."""
        self.dirty = set(everyone)
        """Teams whose partners changed since `_force` last looked at them."""

    def pair(self) -> list[tuple[int, int]] | None:
        """The pairing, or None when the criteria do not fit 128-bit weights."""
        self._force()
        first = True
        while self.partners:
            bounds = self._bounds()
            units, span = _units(bounds)
            room = _WIDTH - span.bit_length()
            if room < _ROOM:
                if not self._narrow(bounds):
                    return None
                continue
            window = _Window({}, {}, 0) if first else self._window(room)
            first = False
            mates = self._solve(units, span, window)
            self._drop(mates, self.layers)
            self._fix(window, mates)
            self._force()
        return [(self.numbers[a], self.numbers[b]) for a, b in self.pairs]

    # -- the criteria ------------------------------------------------------------------------

    def _bounds(self) -> list[int]:
        """How many pairs of a pairing of the remaining teams can fail each layer (half the
        teams with a pair left that fails it)."""
        kind, masks = self.kind, self.masks
        teams: dict[int, int] = {}  # the layers a team has a pair failing -> how many teams
        for team, partners in self.partners.items():
            row = masks[kind[team]]
            mask = reduce(or_, map(row.__getitem__, set(map(kind.__getitem__, partners))), 0)
            teams[mask] = teams.get(mask, 0) + 1
        touched = [0] * self.layers
        for mask, count in teams.items():
            for layer in _bits(mask):
                touched[layer] += count
        pairs = len(self.partners) // 2
        return [min(pairs, teams // 2) for teams in touched]

    def _drop(self, mates: dict[int, int], layers: int) -> bool:
        """Drop the pairs failing a layer (of the first ``layers``) that no pair of the optimal
        pairing (the fixed pairs and ``mates``) fails; whether any pair was dropped."""
        kind, masks = self.kind, self.masks
        failed = 0
        for a, b in [*self.pairs, *mates.items()]:
            failed |= masks[kind[a]][kind[b]]
        ruled = (1 << layers) - 1 & ~failed & ~self.dropped
        if not ruled:
            return False
        self.dropped |= ruled
        ruled_out = [
            set().union(*(m for m, mask in zip(self.members, row, strict=True) if mask & ruled))
            for row in masks
        ]
        dropped = False
        for team, partners in self.partners.items():
            cut = partners & ruled_out[kind[team]]
            if cut:
                partners.difference_update(cut)
                self.dirty.add(team)
                dropped = True
        return dropped

    def _narrow(self, bounds: list[int]) -> bool:
        """Solve on the most significant layers that fit with room to spare and drop what
        they rule out; whether any pair was dropped."""
        layers = len(bounds)
        units, span = _units(bounds)
        while layers and span.bit_length() > _WIDTH - _ROOM:
            layers -= 1
            units, span = _units(bounds[:layers])
        mates = self._solve(units, span, _Window({}, {}, 0))
        dropped = self._drop(mates, layers)
        self._force()
        return dropped

    # -- the identifier (3.6.2) --------------------------------------------------------------

    def _window(self, room: int) -> _Window:
        """The next fields that fit in ``room`` bits."""
        chosen: list[tuple[tuple[bool, int], int, list[int]]] = []
        used = 0
        for field in self.fields:
            is_top, team = field
            candidates = [] if is_top else sorted(b for b in self.partners[team] if b > team)
            width = 1 if is_top else len(candidates).bit_length()
            if used + width > room:
                break
            used += width
            chosen.append((field, width, candidates))
        assert chosen, "a field is wider than the room"
        window = _Window({}, {}, used)
        for (is_top, team), width, candidates in chosen:
            used -= width
            if is_top:
                window.tops[team] = used
            else:
                count = len(candidates)
                window.bottoms[team] = (used, {b: count - i for i, b in enumerate(candidates)})
        return window

    def _fix(self, window: _Window, mates: dict[int, int]) -> None:
        """Fix the window's fields as the optimal pairing ``mates`` has them."""
        for team in window.tops:
            self._decide(team, mates[team] > team)
        for team in window.bottoms:
            if mates[team] > team:
                self._take(team, mates[team])
        self.fields = self.fields[len(window.tops) + len(window.bottoms) :]

    def _force(self) -> None:
        """Fix what every remaining pairing has: a team whose partners are all above (below)
        it is a top (bottom) member; a team with one partner is paired with it.

        :raises TeamSwissError: a team has no partner left (no legal pairing, 3.3.3).
        """
        while self.dirty:
            team = self.dirty.pop()
            partners = self.partners.get(team)
            if partners is None:
                continue
            if not partners:
                raise _unpairable()
            if len(partners) == 1:
                self._take(team, next(iter(partners)))
            elif team not in self.top:
                above = max(partners) > team
                if above != (min(partners) < team):
                    self._decide(team, above)
        top, left = self.top, self.partners
        self.fields = [
            (is_top, t)
            for is_top, t in self.fields
            if t in left and (t not in top if is_top else top.get(t, True))
        ]

    def _decide(self, team: int, top: bool) -> None:
        """Make ``team`` a top member (its partner above it) or a bottom."""
        self.top[team] = top
        partners = self.partners[team]
        cut = {o for o in partners if (o > team) != top}
        partners.difference_update(cut)
        for other in cut:
            self.partners[other].discard(team)
        self.dirty |= cut
        self.dirty.add(team)

    def _take(self, a: int, b: int) -> None:
        """Fix the pair a-b: both teams leave the remaining graph."""
        low, high = min(a, b), max(a, b)
        self.top[low], self.top[high] = True, False
        for team in (a, b):
            for other in self.partners.pop(team):
                if other not in (a, b):
                    self.partners[other].discard(team)
                    self.dirty.add(other)
        self.pairs.append((low, high))

    def _solve(self, units: list[int], span: int, window: _Window) -> dict[int, int]:
        """A maximum-weight perfect matching of the remaining teams: the criteria layers of
        ``units`` (``span`` values) over the window's fields. Mate by team, both ways.

        :raises TeamSwissError: no perfect matching (no legal pairing, 3.3.3).
        """
        width, tops, bottoms = window.width, window.tops, window.bottoms
        weights: dict[int, int] = {}
        for mask in {mask for row in self.masks for mask in row}:
            fails = sum(units[layer] for layer in _bits(mask) if layer < len(units))
            weights[mask] = (span - fails) << width
        table = [list(map(weights.__getitem__, row)) for row in self.masks]
        kind = self.kind
        edges: list[tuple[int, int, int]] = []
        for a, partners in self.partners.items():
            row = table[kind[a]]
            if a in tops or a in bottoms:
                bonus = 1 << tops[a] if a in tops else 0
                at, values = bottoms.get(a, (0, {}))
                edges += [
                    (a, b, row[kind[b]] + bonus + (values.get(b, 0) << at))
                    for b in partners
                    if b > a
                ]
            else:
                edges += [(a, b, row[kind[b]]) for b in partners if b > a]
        # Every team is a node (those already paired without edges): no renumbering.
        matching = solve(len(self.numbers), edges, perfect=True, engine="rustworkx")
        if 2 * len(matching) != len(self.partners):
            raise _unpairable()
        mates: dict[int, int] = {}
        for a, b in matching:
            mates[a], mates[b] = b, a
        return mates


def _masks(layers: _Layers, c5: dict[Decimal, int], teams: list[int]) -> list[list[int]]:
    """The layers (bits as `_Stepwise.layers`) each pair of ``teams`` fails: the score
    difference and floats ([C4] [C5] [C7] [C10]) by scores and floats, the colours ([C8]
    [C9]) by preferences, each worked out once."""
    c7, c8, c9, c10 = (1 << (len(c5) + k) for k in range(1, 5))
    floats: dict[tuple[Decimal, bool, Decimal, bool], int] = {}
    colours: dict[tuple[_Preference, _Preference], int] = {}
    masks = [[0] * len(teams) for _ in teams]
    for i, a in enumerate(teams):
        ta, pa = layers.state.teams[a], layers.prefs[a]
        for j in range(i, len(teams)):
            tb, pb = layers.state.teams[teams[j]], layers.prefs[teams[j]]
            key = (ta.score, ta.floated_last, tb.score, tb.floated_last)
            if key not in floats:
                difference, ok7, ok10 = layers.floats(ta, tb)
                score = 1 | 1 << c5[difference] if difference else 0
                floats[key] = score | (0 if ok7 else c7) | (0 if ok10 else c10)
            if (pa, pb) not in colours:
                ok8, ok9 = layers.colours(pa, pb)
                colours[pa, pb] = (0 if ok8 else c8) | (0 if ok9 else c9)
            masks[i][j] = masks[j][i] = floats[key] | colours[pa, pb]
    return masks


def _units(bounds: list[int]) -> tuple[list[int], int]:
    """Each layer's weight unit, one more than what the layers below it can add up to over a
    pairing (``bounds``: how many pairs can fail each), and how many values they span."""
    units = [0] * len(bounds)
    unit = 1
    for layer in reversed(range(len(bounds))):
        units[layer] = unit
        unit *= bounds[layer] + 1
    return units, unit


def _bits(mask: int) -> Iterator[int]:
    """The positions of the set bits of ``mask``."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def _compatible(a: Colour, b: Colour) -> bool:
    return a is Colour.NONE or b is Colour.NONE or a is not b


def _colour(state: _Round, a: int, b: int) -> TeamPair:
    """C.04.6 4.2-4.3: the first team and its colour."""
    first, second = (a, b) if _is_first(state, a, b) else (b, a)
    colour = _first_team_colour(state, first, second)
    return (
        TeamPair(white=first, black=second)
        if colour is Colour.WHITE
        else TeamPair(white=second, black=first)
    )


def _is_first(state: _Round, a: int, b: int) -> bool:
    ta, tb = state.teams[a], state.teams[b]
    if ta.score != tb.score:
        return ta.score > tb.score
    if state.request.secondary_for_colour and ta.secondary != tb.secondary:
        return ta.secondary > tb.secondary
    return a < b


def _first_team_colour(state: _Round, first: int, second: int) -> Colour:
    tf, ts = state.teams[first], state.teams[second]
    initial = state.request.initial_colour
    if not tf.colours and not ts.colours:  # 4.3.1
        return initial if first % 2 else initial.invert()
    pf, ps = state.preference(first), state.preference(second)
    if pf.colour is not Colour.NONE and ps.colour is Colour.NONE:  # 4.3.2
        return pf.colour
    if pf.colour is Colour.NONE and ps.colour is not Colour.NONE:
        return ps.colour.invert()
    if pf.colour is not Colour.NONE and pf.colour is not ps.colour:  # 4.3.3
        return pf.colour
    if state.request.colour_type is ColourType.B and pf.strong != ps.strong:  # 4.3.4
        return pf.colour if pf.strong else ps.colour.invert()
    cd_first, cd_second = _difference(tf.colours), _difference(ts.colours)
    if cd_first != cd_second:  # 4.3.5
        return Colour.WHITE if cd_first < cd_second else Colour.BLACK
    for mine, theirs in zip(reversed(tf.colours), reversed(ts.colours), strict=False):  # 4.3.6
        if mine is not theirs:
            return theirs
    if pf.colour is not Colour.NONE:  # 4.3.7
        return pf.colour
    if tf.colours:  # 4.3.8
        return tf.colours[-1].invert()
    if ts.colours:  # 4.3.9
        return ts.colours[-1]
    return initial if first % 2 else initial.invert()
