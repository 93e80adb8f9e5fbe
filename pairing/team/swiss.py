"""FIDE Swiss Team Pairing System (Handbook C.04.6, in force from 1 February 2026).

The team PAB first (3.4: lowest score, most matches, largest TPN, leaving a legal pairing),
then the teams are paired (3.3-3.6) and given colours (section 4). Every quality criterion is
a count over the pairs, so the round is one maximum-weight matching (networkx) whose integer
edge weights hold the criteria in layers, most significant first (see `_pair_all`). This reads
C.04.6 round-wide, as the hand-derived fixtures of ``chess/team/`` (and the Sharly-Chess
reference engine) do: where the text pairs the top scoregroup first and the lexicographic
order of upfloater sets would pick another team, the round-wide smallest identifier wins.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal

from events.domain import Colour
from events.errors import PairingError
from pairing.contract import PairedRound, boards_of
from pairing.swiss.colour import published_order
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
        self.met: set[frozenset[int]] = set(request.forbidden)
        for entry in request.teams:
            for record in entry.history:
                if record.opponent is not None:
                    self.met.add(frozenset((entry.number, record.opponent)))
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
        everyone = {t.number: t for t in self.request.teams}
        opponent = everyone.get(last.opponent)
        if opponent is None:
            return False
        return self._score(entry, played - 1) != self._score(opponent, played - 1)

    # -- [C1] and [C3] ------------------------------------------------------------------

    def legal(self, a: int, b: int) -> bool:
        return frozenset((a, b)) not in self.met

    def perfect(self, numbers: Iterable[int], forbid: Iterable[tuple[int, int]] = ()) -> bool:
        """Whether the teams admit a pairing that covers them all ([C1], [C3])."""
        nodes = list(numbers)
        if len(nodes) % 2:
            return False
        if not nodes:
            return True
        import networkx as nx  # only when a team round is paired: a slow import

        banned = {frozenset(p) for p in forbid}
        graph = nx.Graph()
        graph.add_nodes_from(nodes)
        for i, a in enumerate(nodes):
            for b in nodes[i + 1 :]:
                if self.legal(a, b) and frozenset((a, b)) not in banned:
                    graph.add_edge(a, b)
        matching = nx.max_weight_matching(graph, maxcardinality=True)
        return 2 * len(matching) == len(nodes)

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
        differences = sorted(
            {abs(teams[a].score - teams[b].score) for a in order for b in order} - {0}
        )
        self.c5_rank: dict[Decimal, int] = {d: self.radix**i for i, d in enumerate(differences)}
        self.c5_top: int = self.radix ** len(differences)
        self.prefs = {m: state.preference(m) for m in order}

    def of(self, a: int, b: int) -> tuple[int, ...]:
        """[C4] (a pair inside a scoregroup), [C5] (its score difference, as a rank counted
        down from the top), [C7], [C8], [C9], [C10]: each 1 when the pair complies."""
        state, teams, prefs = self.state, self.state.teams, self.prefs
        difference = abs(teams[a].score - teams[b].score)
        same = difference == 0
        upfloater = a if teams[a].score < teams[b].score else b
        resident = b if upfloater == a else a
        c5 = self.c5_top - (0 if same else self.c5_rank[difference])
        c7 = same or not state.float_history or not teams[upfloater].floated_last
        c8 = _compatible(prefs[a].colour, prefs[b].colour)
        c9 = not (
            state.request.colour_type is ColourType.B
            and prefs[a].strong
            and prefs[b].strong
            and prefs[a].colour is prefs[b].colour is not Colour.NONE
        )
        c10 = same or not state.float_history or not teams[resident].floated_last
        return (int(same), c5, int(c7), int(c8), int(c9), int(c10))

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
    """C.04.6 3.3-3.6 as one maximum-weight matching over the teams to pair.

    Every criterion is a count over the pairs, so one matching whose edge weights put them in
    layers (most significant first) finds the pairing that complies best, scoregroup by
    scoregroup and round-wide at once: [C4] fewest upfloaters, [C5] smallest score differences
    (largest first), [C7] fewest upfloaters that floated last round, [C8] [C9] [C10], then the
    smallest identifier (3.6.2: the set of top members, then the bottoms in their tops' order).
    [C1] and [C3] are the graph's missing edges and the perfect matching itself; [C6] holds
    because the whole round is paired at once.
    """
    import networkx as nx  # only when a team round is paired: a slow import

    if not order:
        return []
    n = max(order)
    identifier_bound = (1 << (n + 1)) * (n + 1) ** (n + 2)
    layers = _Layers(state, order)
    graph = nx.Graph()
    graph.add_nodes_from(order)
    for i, a in enumerate(sorted(order)):
        for b in sorted(order)[i + 1 :]:
            if not state.legal(a, b):
                continue
            identifier = (1 << (n - a)) * (n + 1) ** (n + 1) + (n + 1 - b) * (n + 1) ** (n - a)
            graph.add_edge(a, b, weight=layers.weight(a, b) * identifier_bound + identifier)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    if 2 * len(matching) != len(order):
        raise TeamSwissError("no legal team pairing exists for this round (C.04.6 3.3.3)")
    return [(min(a, b), max(a, b)) for a, b in matching]


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
