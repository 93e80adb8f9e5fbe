"""Dutch system on small worked examples."""

from __future__ import annotations

import pytest

from pairing.dutch import NoValidPairingError, pair
from pairing.swiss import HistoryEntry, SwissInput, SwissPlayer
from pairing.swiss.model import Colour, Result


def _round_one(n: int, initial_colour: Colour = Colour.WHITE) -> SwissInput:
    """Round 1 of 5 for ``n`` players rated 2490, 2480, ... by pairing number."""
    return SwissInput(
        players=tuple(SwissPlayer(number=i, rating=2500 - 10 * i) for i in range(1, n + 1)),
        rounds_played=0,
        total_rounds=5,
        initial_colour=initial_colour,
    )


def test_round_one_of_eleven_players_is_the_documented_example() -> None:
    # formats.md 2.3: round 1 of 11 players with XXC white1.
    result = pair(_round_one(11))
    assert result.boards == ((1, 6), (7, 2), (3, 8), (9, 4), (5, 10))
    assert result.pab == 11


def test_initial_colour_black_swaps_every_board() -> None:
    # TRF 152 B
    assert pair(_round_one(4, Colour.BLACK)).boards == ((3, 1), (2, 4))


def test_no_rematch_and_no_second_pab() -> None:
    def played(opponent: int, colour: Colour, result: Result) -> HistoryEntry:
        return HistoryEntry(opponent=opponent, colour=colour, result=result)

    swiss = SwissInput(
        players=(
            SwissPlayer(number=1, history=(played(2, Colour.WHITE, Result.WIN),)),
            SwissPlayer(number=2, history=(played(1, Colour.BLACK, Result.LOSS),)),
            SwissPlayer(number=3, history=(HistoryEntry(result=Result.PAB),)),
        ),
        rounds_played=1,
        total_rounds=3,
    )
    result = pair(swiss)
    assert result.pab in (1, 2)
    assert all({1, 2} != set(board) for board in result.boards)


def test_impossible_round_raises() -> None:
    swiss = SwissInput(
        players=(SwissPlayer(number=1), SwissPlayer(number=2)),
        rounds_played=0,
        total_rounds=2,
        forbidden=(frozenset({1, 2}),),
    )
    with pytest.raises(NoValidPairingError):
        pair(swiss)


def test_round_that_a_greedy_completion_misses_is_still_paired() -> None:
    # 3-4 forbidden: taking 1-2 first (as a greedy pass does) strands 3 and 4.
    swiss = SwissInput(
        players=tuple(SwissPlayer(number=n) for n in (1, 2, 3, 4)),
        rounds_played=0,
        total_rounds=3,
        forbidden=(frozenset({3, 4}),),
    )
    result = pair(swiss)
    assert result.pab is None
    assert sorted(sorted(board) for board in result.boards) in ([[1, 3], [2, 4]], [[1, 4], [2, 3]])
