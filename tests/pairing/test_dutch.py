"""Dutch system on small worked examples."""

from __future__ import annotations

from pathlib import Path

import pytest

from ingest.trf import parse_trf
from pairing.dutch import NoValidPairingError, pair
from pairing.swiss import HistoryEntry, SwissInput, SwissPlayer
from pairing.swiss.model import Colour, Result
from pipelines.engines.swiss_from_trf import swiss_input_from_trf


def _players(n: int) -> str:
    return "\n".join(
        f"001 {i:>4}      Test{i:04d} Player{i:04d}               {2500 - 10 * i:>4}"
        f"                             0.0 {i:>4}"
        for i in range(1, n + 1)
    )


def test_round_one_of_eleven_players_is_the_documented_example() -> None:
    # formats.md 2.3: round 1 of 11 players with XXC white1.
    trf = parse_trf(Path("r1.trf"), f"XXR 5\nXXC white1\n{_players(11)}\n".encode())
    result = pair(swiss_input_from_trf(trf))
    assert result.boards == ((1, 6), (7, 2), (3, 8), (9, 4), (5, 10))
    assert result.pab == 11


def test_initial_colour_black_swaps_every_board() -> None:
    trf = parse_trf(Path("r1.trf"), f"XXR 5\n152 B\n{_players(4)}\n".encode())
    assert pair(swiss_input_from_trf(trf)).boards == ((3, 1), (2, 4))


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
