"""What both editions of the Dutch system do around the brackets.

Before: the facts of the round and the players present in rank order (score with
acceleration, then pairing number). After: the paired round, colours allocated by C.04.3 E.1-E.5
(2025: 5.2.1-5.2.5), in board order.
"""

from __future__ import annotations

from typing import TypeVar

from pairing.dutch.facts import RoundFacts
from pairing.swiss.colour import neutral_colour, swiss_round
from pairing.swiss.model import Colour, SwissInput, SwissRound
from pairing.swiss.state import (
    PlayerState,
    build_states,
    forbidden_opponents,
    invert,
    scoring_tenths,
)

__all__ = ["colour_for", "dutch_round", "present_in_order", "round_facts"]

Facts = TypeVar("Facts", bound=RoundFacts)


def round_facts(swiss: SwissInput, edition: type[Facts]) -> Facts:
    """The facts of the round to pair, read by ``edition``."""
    states = build_states(swiss)
    scoring = scoring_tenths(swiss.scoring)
    return edition(
        players=states,
        rounds_played=swiss.rounds_played,
        total_rounds=swiss.total_rounds,
        win=scoring["win"],
        draw=scoring["draw"],
        loss=scoring["loss"],
        forbidden=forbidden_opponents(swiss, states),
    )


def present_in_order(swiss: SwissInput, facts: RoundFacts) -> list[PlayerState]:
    """The players to pair, by score with acceleration, then pairing number."""
    present = [p for p in facts.players if p.number not in swiss.absent]
    present.sort(key=lambda p: (-facts.score[p.index], p.index))
    return present


def dutch_round(
    swiss: SwissInput, facts: RoundFacts, present: list[PlayerState], matching: dict[int, int]
) -> SwissRound:
    """The round from each player's opponent (by player index; the PAB has none)."""
    states = facts.players
    # Effective pairing numbers: players absent now who never took part in a pairing are
    # skipped (they matter for the parity used by the colour rule E.5 / 5.2.5).
    rank: dict[int, int] = {}
    for p in states:
        if p.number not in swiss.absent or any(r.participated for r in p.rounds):
            rank[p.index] = len(rank)
    pairs: list[tuple[PlayerState, PlayerState]] = []
    pab = None
    for p in present:
        mate = matching.get(p.index)
        if mate is None:
            pab = p
        elif p.index < mate:
            opponent = states[mate]
            colour = colour_for(facts.score, p, opponent, swiss.initial_colour, rank)
            white = colour is Colour.WHITE
            pairs.append((p, opponent) if white else (opponent, p))
    return swiss_round(pairs, pab)


def colour_for(
    score: list[int], p: PlayerState, o: PlayerState, initial: Colour, rank: dict[int, int]
) -> Colour:
    """Colour of ``p`` against ``o`` (C.04.3 E.1-E.5; 2025: 5.2.1-5.2.5)."""
    neutral = neutral_colour(p, o)
    if neutral is not Colour.NONE:
        return neutral
    p_lower = (score[p.index], -p.index) < (score[o.index], -o.index)
    if p.colour_preference is Colour.NONE:
        if p_lower:
            return initial if rank[o.index] & 1 else invert(initial)
        return invert(initial) if rank[p.index] & 1 else initial
    return invert(o.colour_preference) if p_lower else p.colour_preference
