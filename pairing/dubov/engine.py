"""The Dubov system (C.04.4.1, rules in force from 1 February 2026).

The PAB is chosen first (Article 3.1): among the players who may receive it (C2) and leave a
round that can be completed, the lowest score, then the most games played (3.1.4; py4swiss
0.3.1 takes the fewest, docs/dubov_disputed.md), then the largest TPN. Then brackets are paired
from the top (:mod:`pairing.dubov.bracket`) until everybody is paired, and colours are allocated
by Article 5.2.
"""

from __future__ import annotations

from events.errors import PairingError
from pairing.dubov.bracket import DubovBracket
from pairing.dubov.players import DubovPlayer, Strength, dubov_players
from pairing.swiss.completion import Completion
from pairing.swiss.model import Colour, SwissInput, SwissRound
from pairing.swiss.state import invert

__all__ = ["DubovPairingError", "pair"]


class DubovPairingError(PairingError):
    """No Dubov pairing of the round satisfies the absolute criteria."""


def _unpairable() -> DubovPairingError:
    return DubovPairingError(
        "the players cannot all be paired while satisfying the absolute criteria (C1-C4)"
    )


def pair(swiss: SwissInput) -> SwissRound:
    """Pair round ``swiss.rounds_played + 1`` with the Dubov system.

    :raises DubovPairingError: when no pairing satisfies the absolute criteria.
    """
    players = dubov_players(swiss)
    forbidden = {
        frozenset((a, b)) for group in swiss.forbidden for a in group for b in group if a != b
    }
    pab = None
    if len(players) % 2:
        pab = _bye(players, forbidden)
        players = [p for p in players if p is not pab]
    blocked = _blocked(players, forbidden)
    first = swiss.rounds_played == 0
    last = swiss.round_to_pair == swiss.total_rounds
    boards: list[tuple[DubovPlayer, DubovPlayer]] = []
    while len(players) > 1:
        bracket = DubovBracket(players, blocked, first, last)
        if not bracket.complete():
            raise _unpairable()
        bracket.choose_upfloaters()
        bracket.split()
        bracket.recompose()
        pairs = bracket.transpose()
        paired: set[int] = set()
        for a, b in pairs:
            high, low = players[a], players[b]
            white = colour_of(high, low, swiss.initial_colour) is Colour.WHITE
            boards.append((high, low) if white else (low, high))
            paired.update((a, b))
        if not paired:
            raise _unpairable()
        players = [p for i, p in enumerate(players) if i not in paired]
    boards.sort(key=_board_key)
    return SwissRound(
        boards=tuple((w.number, b.number) for w, b in boards),
        pab=None if pab is None else pab.number,
    )


def _board_key(board: tuple[DubovPlayer, DubovPlayer]) -> tuple[int, int, int]:
    """Board order (Article 5.3): the higher player's score, both scores, the higher TPN."""
    a, b = board
    high, low = (a, b) if (a.score, -a.number) > (b.score, -b.number) else (b, a)
    return (-high.score, -low.score, high.number)


def _blocked(players: list[DubovPlayer], forbidden: set[frozenset[int]]) -> dict[int, set[int]]:
    """For each TPN, the TPNs the player may not meet: C1, prohibited pairs, and C3 (the
    other players with the same absolute colour preference)."""
    blocked = {p.number: set(p.opponents) for p in players}
    for pair in forbidden:
        a, b = tuple(pair)
        if a in blocked and b in blocked:
            blocked[a].add(b)
            blocked[b].add(a)
    for colour in (Colour.WHITE, Colour.BLACK):
        group = {
            p.number for p in players if p.strength == Strength.ABSOLUTE and p.preference is colour
        }
        for number in group:
            blocked[number] |= group - {number}
    return blocked


def _compatible(a: DubovPlayer, b: DubovPlayer, forbidden: set[frozenset[int]]) -> bool:
    """C1 (no rematch, no prohibited pair) and C3 (no two equal absolute preferences)."""
    return not (
        b.number in a.opponents
        or frozenset((a.number, b.number)) in forbidden
        or (a.strength == b.strength == Strength.ABSOLUTE and a.preference is b.preference)
    )


def _bye(players: list[DubovPlayer], forbidden: set[frozenset[int]]) -> DubovPlayer:
    """Article 3.1: the player who receives the PAB."""
    completion = Completion(
        len(players),
        lambda a, b: _compatible(players[a], players[b], forbidden),
        [not p.bye_received for p in players],
    )
    if not completion.completes():
        raise _unpairable()

    def preference(p: DubovPlayer) -> tuple[int, int]:
        return (-p.rank_score, p.played)

    # The lowest-ranked first among equals (3.1.5: the largest TPN).
    candidates = sorted(
        (i for i, p in enumerate(players) if not p.bye_received),
        key=lambda i: (preference(players[i]), i),
        reverse=True,
    )
    for i in candidates:
        rest = [p for p in players if p is not players[i]]

        def compatible(a: int, b: int, rest: list[DubovPlayer] = rest) -> bool:
            return _compatible(rest[a], rest[b], forbidden)

        if Completion(len(rest), compatible, [False] * len(rest)).completes():
            return players[i]
    raise _unpairable()


def colour_of(high: DubovPlayer, low: DubovPlayer, initial: Colour) -> Colour:
    """The colour of ``high`` (ranked above ``low``) by Article 5.2.1-5.2.5."""
    if not high.colours and not low.colours:
        odd = high.number % 2 == 1
        return initial if odd else invert(initial)
    if high.preference is not low.preference:
        return high.preference
    if high.strength != low.strength:
        return high.preference if high.strength > low.strength else invert(low.preference)
    for mine, theirs in zip(reversed(high.colours), reversed(low.colours), strict=False):
        if mine is not theirs:
            return invert(mine)
    return high.preference
