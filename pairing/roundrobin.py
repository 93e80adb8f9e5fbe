"""Round robin by the FIDE Berger tables (Handbook C.05, Annex 1).

For n players (n even; an odd field adds a dummy n+1 whose opponent has the bye), round k of
n-1 pairs i and j (both < n) when i + j = k + 1 (mod n-1), residues in 1..n-1; the player i with
2i = k + 1 (mod n-1) meets n. Player n has Black in odd rounds and White in even rounds; for
i, j < n, i has White when (j - i) mod (n-1) is odd. Boards: n's game first, then the pairs
around n's opponent p: (p+m, p-m) for m = 1, 2, ...

A double round robin repeats the cycle with colours reversed; the last two rounds of the first
cycle are swapped, as the Handbook recommends, so nobody has three games in a row with the same
colour across the cycle boundary.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from events.domain import Board
from events.errors import PairingError
from pairing.contract import PairedRound


class RoundRobinError(PairingError):
    """The field does not fit a round robin (too few or too many players, wrong round count)."""


MIN_PLAYERS = 3
MAX_PLAYERS = 24


def rounds_per_cycle(players: int) -> int:
    return players - 1 if players % 2 == 0 else players


def _residue(x: int, m: int) -> int:
    """x mod m in 1..m."""
    return (x - 1) % m + 1


def berger_round(players: int, round_no: int) -> list[tuple[int, int]]:
    """(white, black) pairing numbers of a Berger round for an even field, board order."""
    n = players
    if n % 2 or n < 2:
        raise RoundRobinError(f"Berger tables need an even field, got {n}")
    m = n - 1
    if not 1 <= round_no <= m:
        raise RoundRobinError(f"round {round_no} is outside 1..{m} for {n} players")
    p = next(i for i in range(1, n) if _residue(2 * i, m) == _residue(round_no + 1, m))
    boards = [(n, p) if round_no % 2 == 0 else (p, n)]
    for step in range(1, n // 2):
        a, b = _residue(p + step, m), _residue(p - step, m)
        white_is_a = ((b - a) % m) % 2 == 1
        boards.append((a, b) if white_is_a else (b, a))
    return boards


def cycle_round(players: int, round_no: int, cycles: int = 1) -> tuple[int, bool]:
    """Which Berger round is played as tournament round `round_no`, and whether colours flip."""
    per = rounds_per_cycle(players)
    if not 1 <= round_no <= per * cycles:
        raise RoundRobinError(
            f"round {round_no} is outside 1..{per * cycles} for a "
            f"{'double ' if cycles == 2 else ''}round robin of {players} players"
        )
    cycle, k = divmod(round_no - 1, per)
    k += 1
    if cycles == 2 and cycle == 0 and per >= 3 and k >= per - 1:
        k = per - 1 if k == per else per
    return k, cycle == 1


def pair_round_robin(ordered_players: list[int], round_no: int, cycles: int = 1) -> list[Board]:
    """Boards of a round for players listed by pairing number (index 0 is number 1).

    With an odd field the player meeting the dummy gets the pairing-allocated bye, listed last.
    """
    count = len(ordered_players)
    if not MIN_PLAYERS <= count <= MAX_PLAYERS:
        raise RoundRobinError(
            f"a round robin needs {MIN_PLAYERS}..{MAX_PLAYERS} players, got {count}"
        )
    k, reverse = cycle_round(count, round_no, cycles)
    field = count + count % 2
    games: list[Board] = []
    bye: int | None = None
    for first, second in berger_round(field, k):
        white, black = (second, first) if reverse else (first, second)
        if max(white, black) > count:
            bye = ordered_players[min(white, black) - 1]
            continue
        games.append(
            Board(
                board=len(games) + 1,
                white=ordered_players[white - 1],
                black=ordered_players[black - 1],
            )
        )
    if bye is not None:
        games.append(Board(board=len(games) + 1, white=bye, black=None))
    return games


@dataclass(frozen=True, slots=True)
class RoundRobinRequest:
    """The round to pair of a (double) round robin of these players."""

    players: tuple[int, ...]
    """Player ids by pairing number (index 0 is number 1)."""
    round: int
    cycles: int = 1


def berger_notes(request: RoundRobinRequest, boards: Sequence[Board]) -> list[str]:
    """Which Berger table round each board comes from, and the pairing numbers on it.

    >>> request = RoundRobinRequest(players=(11, 12, 13, 14), round=1)
    >>> berger_notes(request, pair_round_robin(list(request.players), 1))
    ['board 1: Berger table round 1, numbers 1-4', 'board 2: Berger table round 1, numbers 2-3']
    """
    k, reverse = cycle_round(len(request.players), request.round, request.cycles)
    flip = " with colours reversed (second cycle)" if reverse else ""
    number = {pid: i for i, pid in enumerate(request.players, start=1)}
    lines = []
    for b in boards:
        who = f"{number[b.white]}-{number[b.black]}" if b.black else f"{number[b.white]} bye"
        lines.append(f"board {b.board}: Berger table round {k}{flip}, numbers {who}")
    return lines


def pair_round(
    request: RoundRobinRequest, params: None, /, *, explain: bool = False
) -> PairedRound:
    """:func:`pair_round_robin` in the engines' calling convention (no params)."""
    del params
    boards = pair_round_robin(list(request.players), request.round, request.cycles)
    return PairedRound(tuple(boards), tuple(berger_notes(request, boards)) if explain else ())
