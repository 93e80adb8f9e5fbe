"""explain(): per-board reasons of a paired round, checked on a hand-made round 2.

After one game every player who played has a colour difference of 1: a strong preference
(pairing.md 2.2)."""

from __future__ import annotations

from pairing.dutch import explain
from pairing.swiss import HistoryEntry, SwissInput, SwissPlayer, SwissRound
from pairing.swiss.model import Colour, Result


def _game(opponent: int, colour: Colour, result: Result) -> HistoryEntry:
    return HistoryEntry(opponent=opponent, colour=colour, result=result)


# Round 1: 1-4 1-0, 2-5 1-0, 3 got the PAB. Scores: 1, 2, 3 have 1 point; 4 and 5 none.
SWISS = SwissInput(
    players=(
        SwissPlayer(number=1, history=(_game(4, Colour.WHITE, Result.WIN),)),
        SwissPlayer(number=2, history=(_game(5, Colour.WHITE, Result.WIN),)),
        SwissPlayer(number=3, history=(HistoryEntry(result=Result.PAB),)),
        SwissPlayer(number=4, history=(_game(1, Colour.BLACK, Result.LOSS),)),
        SwissPlayer(number=5, history=(_game(2, Colour.BLACK, Result.LOSS),)),
    ),
    rounds_played=1,
    total_rounds=3,
)


def test_boards_name_score_groups_floats_and_colour_preferences() -> None:
    lines = explain(SWISS, SwissRound(boards=((3, 1), (4, 2)), pab=5))
    assert lines[0] == (
        "board 1: 3 - 1: both in score group 1; 3 has no colour preference, gets White; "
        "1 strong preference for Black met"
    )
    assert lines[1] == (
        "board 2: 4 - 2: 2 floats down from 1, 4 floats up from 0; "
        "4 strong preference for White met; 2 strong preference for Black met"
    )


def test_unmet_preference_is_reported() -> None:
    lines = explain(SWISS, SwissRound(boards=((1, 3), (2, 4)), pab=5))
    assert "1 strong preference for Black not met" in lines[0]
    assert "4 strong preference for White not met" in lines[1]


def test_pab_line_gives_eligibility_score_and_played_games() -> None:
    lines = explain(SWISS, SwissRound(boards=((3, 1), (4, 2)), pab=5))
    assert lines[-1] == (
        "PAB: 5: 5 players present (odd); 5 never received a win's points without playing "
        "(C2); score 0, lowest eligible score 0 (C5); 1 games played, fewest among 2 "
        "eligible players of that score: 1 (C9)"
    )
