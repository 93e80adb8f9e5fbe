"""What both editions of the Dutch system know about a round before any bracket is paired.

The absolute criteria C1 and C3 (no rematch, no prohibited pair, no two non-topscorers with
the same absolute colour preference), the float history and the colour-preference fields of
an edge weight are read the same way by both editions; the edition decides who may receive
the PAB (C2) and whether a round without a game is a float (:meth:`RoundFacts.bye_eligible`,
:meth:`RoundFacts.unplayed_float`).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from enum import Enum

from pairing.swiss.model import Colour
from pairing.swiss.state import PlayerState, Round, invert

__all__ = [
    "TIE_BREAK_FIELDS",
    "Float",
    "RoundFacts",
    "colour_preferences_compatible",
    "tie_break_bits",
]


# The low room of every edge weight holds this many fields of a bracket's size bits, each for
# one S1 player's preferences: :mod:`pairing.dutch.bracket` decides up to that many players per
# solve (fewer when the matcher's graph has less room). Wider fields cost nothing: the matcher
# keeps only the bits a solve uses.
TIE_BREAK_FIELDS = 8


def tie_break_bits(size_bits: int) -> int:
    """Width of the low room the engines' generation-order tie-breaks use."""
    return TIE_BREAK_FIELDS * size_bits + 1


class Float(Enum):
    """Float direction of a player in a past round."""

    DOWN = 0
    UP = 1
    NONE = 2


def colour_preferences_compatible(a: Colour, b: Colour) -> bool:
    """Both preferences can be granted (they differ, or one player has none)."""
    return a is not b or a is Colour.NONE or b is Colour.NONE


@dataclass
class RoundFacts(ABC):
    """The players of a round and the edition-independent facts about them."""

    players: list[PlayerState]
    rounds_played: int
    total_rounds: int
    win: int
    draw: int
    loss: int
    forbidden: list[set[int]]
    score: list[int] = field(default_factory=list)
    """Accelerated score (tenths) before the round, by player index."""

    def __post_init__(self) -> None:
        self.score = [p.score_back(self.rounds_played) for p in self.players]
        self._floats: dict[tuple[int, int], Float] = {}
        # Players with the same colour facts weigh the same in the colour fields: one class.
        classes: dict[tuple[object, ...], int] = {}
        self._colour_class = [
            classes.setdefault(_colour_facts(p), len(classes)) for p in self.players
        ]
        self._colour_fields: dict[tuple[int, int, int], int] = {}
        self._eligible = [self.bye_eligible(p) for p in self.players]
        # Read for every pair of players: computed once.
        self._absolute = [p.absolute_preference for p in self.players]

    @abstractmethod
    def bye_eligible(self, p: PlayerState) -> bool:
        """C2 as the edition words it; computed once per player."""

    @abstractmethod
    def unplayed_float(self, match: Round) -> Float:
        """The float of a round without a game, as the edition defines it."""

    def eligible_for_bye(self, p: PlayerState) -> bool:
        """C2: may ``p`` receive the PAB."""
        return self._eligible[p.index]

    def compatible(self, a: PlayerState, b: PlayerState) -> bool:
        """C1 (no rematch, no prohibited pair) and C3 (absolute colour preferences)."""
        if b.index in self.forbidden[a.index]:
            return False
        if not self._absolute[a.index] or not self._absolute[b.index]:
            return True
        if a.colour_preference is not b.colour_preference:
            return True
        threshold = (self.rounds_played * max(self.win, self.draw)) >> 1
        return self.rounds_played >= self.total_rounds - 1 and (
            self.score[a.index] > threshold or self.score[b.index] > threshold
        )

    def compatible_row(self, a: PlayerState, players: list[PlayerState]) -> list[bool]:
        """:meth:`compatible` of ``a`` with each of ``players``, as one row."""
        forbidden = self.forbidden[a.index]
        if not self._absolute[a.index]:
            return [p.index not in forbidden for p in players]
        return [self.compatible(a, p) for p in players]

    def compatible_column(self, players: list[PlayerState], b: PlayerState) -> list[bool]:
        """:meth:`compatible` of each of ``players`` with ``b``, as one column."""
        if not self._absolute[b.index]:
            forbidden, index = self.forbidden, b.index
            return [index not in forbidden[p.index] for p in players]
        return [self.compatible(p, b) for p in players]

    def colour_class(self, p: PlayerState) -> int:
        """``p``'s class of colour facts: players of one class weigh the same in the colour
        fields (:meth:`colour_fields`)."""
        return self._colour_class[p.index]

    def float_of(self, p: PlayerState, rounds_back: int) -> Float:
        """Float of ``p`` in the round ``rounds_back`` rounds before the one to pair."""
        key = (p.index, rounds_back)
        cached = self._floats.get(key)
        if cached is not None:
            return cached
        match = p.rounds[self.rounds_played - rounds_back]
        if not match.played:
            result = self.unplayed_float(match)
        else:
            own = p.score_back(self.rounds_played, rounds_back)
            other = self.players[match.opponent].score_back(self.rounds_played, rounds_back)
            result = Float.DOWN if own > other else Float.UP if own < other else Float.NONE
        self._floats[key] = result
        return result

    def backs(self) -> list[int]:
        """The rounds back whose floats the criteria read: 1 and 2, as far as played."""
        return [back for back in (1, 2) if self.rounds_played >= back]

    def float_masks(self, p: PlayerState) -> tuple[int, int]:
        """Bit ``k`` of the first mask: ``p`` floated down in the round ``backs()[k]`` back;
        of the second: up."""
        floats = [self.float_of(p, back) for back in self.backs()]
        down = sum(1 << k for k, f in enumerate(floats) if f is Float.DOWN)
        return down, sum(1 << k for k, f in enumerate(floats) if f is Float.UP)

    def colour_fields(self, p: PlayerState, o: PlayerState, bits: int) -> int:
        """Four fields of ``bits`` holding the colour criteria of the pair (2017: C.8-C.11;
        2025: C10-C13), each 1 when the criterion is met; ``p`` is the lower player."""
        key = (self._colour_class[p.index], self._colour_class[o.index], bits)
        fields = self._colour_fields.get(key)
        if fields is None:
            fields = self._colour_bits(p, o, bits)
            self._colour_fields[key] = fields
        return fields

    @staticmethod
    def _colour_bits(p: PlayerState, o: PlayerState, bits: int) -> int:
        """The fields of :meth:`colour_fields`, read off the two players (see
        :func:`_colour_facts`)."""
        b = bits
        same = p.colour_preference is o.colour_preference
        weight = int(not p.absolute_imbalance or not o.absolute_imbalance or not same)
        if p.colour_imbalance == o.colour_imbalance:
            repeat_ok = (
                p.repeated_colour is Colour.NONE or p.repeated_colour is not o.repeated_colour
            )
        else:
            wider = o if p.colour_imbalance > o.colour_imbalance else p
            repeat_ok = wider.repeated_colour is not invert(p.colour_preference)
        weight = (weight << b) | (
            not p.absolute_preference or not o.absolute_preference or not same or repeat_ok
        )
        weight = (weight << b) | colour_preferences_compatible(
            p.colour_preference, o.colour_preference
        )
        return (weight << b) | (
            (not p.strong_preference and not p.absolute_preference)
            or (not o.strong_preference and not o.absolute_preference)
            or (p.absolute_preference and o.absolute_preference)
            or not same
        )


def _colour_facts(p: PlayerState) -> tuple[object, ...]:
    """Everything the colour fields read of a player: two players with the same facts weigh
    the same there."""
    return (
        p.colour_preference,
        p.absolute_imbalance,
        p.colour_imbalance,
        p.repeated_colour,
        p.absolute_preference,
        p.strong_preference,
    )
