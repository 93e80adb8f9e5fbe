"""A board's result and conditions in its game's own terms, for every printed view.

Chess: ``1-0``, ``1/2-1/2``, ``+-``. Go: ``B+``, ``W+3.5``, ``B+R``, ``W+T``, ``jigo``,
``B+F`` (forfeit), with
the handicap and komi of the board (a negative komi is reverse komi: Black receives it).
Othello: disc counts ``40-24``. Carrom: points ``25-0``. White's (the first-named
player's) side first, as the boards list them.
"""

from __future__ import annotations

from decide.state import BoardState
from events.domain import Game, Outcome
from events.results import entered_result, score_text

__all__ = ["board_result", "entered_result", "komi_text"]


def board_result(game: Game, board: BoardState) -> str | None:
    """The result as the game writes it; ``None`` before one is entered; ``bye`` for a bye.

    >>> from events.domain import Outcome
    >>> b = BoardState(1, 3, 4, outcome=Outcome.WHITE_WINS, white_score=25.0, black_score=0.0)
    >>> board_result(Game.CARROM, b), board_result(Game.OTHELLO, b)
    ('25-0', '25-0')
    >>> board_result(Game.GO, BoardState(1, 3, 4, outcome=Outcome.BLACK_WINS,
    ...     white_score=0.0, black_score=6.5))
    'B+6.5'
    >>> board_result(Game.GO, BoardState(1, 3, 4, outcome=Outcome.BLACK_WINS, how="R"))
    'B+R'
    """
    if board.black is None:
        return "bye"
    outcome = board.outcome
    if outcome is None or outcome is Outcome.UNKNOWN:
        return None
    return entered_result(game, outcome, board.white_score, board.black_score, board.how)


def komi_text(komi: float | None) -> str | None:
    """Komi as printed: ``6.5``; a negative komi is reverse komi (Black receives it).

    >>> komi_text(6.5), komi_text(-5.5), komi_text(None)
    ('6.5', '-5.5 (reverse)', None)
    """
    if komi is None:
        return None
    return f"{score_text(komi)} (reverse)" if komi < 0 else score_text(komi)
