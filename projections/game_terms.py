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

__all__ = ["board_result", "entered_result", "komi_text"]

_GO = {
    Outcome.WHITE_WINS: "W+",
    Outcome.BLACK_WINS: "B+",
    Outcome.DRAW: "jigo",
    Outcome.WHITE_WINS_FORFEIT: "W+F",
    Outcome.BLACK_WINS_FORFEIT: "B+F",
    Outcome.DOUBLE_FORFEIT: "0-0F",
    Outcome.BOTH_LOSE: "0-0",
    Outcome.BOTH_WIN: "1-1",
}


def _number(x: float) -> str:
    return f"{x:g}"


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


def entered_result(
    game: Game,
    outcome: Outcome,
    white_score: float | None = None,
    black_score: float | None = None,
    how: str | None = None,
) -> str:
    """A result as the game writes it, from its parts (a result event's fields).

    >>> entered_result(Game.GO, Outcome.BLACK_WINS), entered_result(Game.CHESS, Outcome.BLACK_WINS)
    ('B+', '0-1')
    """
    if game is Game.GO:
        text = _GO.get(outcome, outcome.value)
        margin = (
            white_score
            if outcome is Outcome.WHITE_WINS
            else black_score
            if outcome is Outcome.BLACK_WINS
            else None
        )
        if margin:
            return f"{text}{_number(margin)}"
        return (
            f"{text}{how}" if how and outcome in (Outcome.WHITE_WINS, Outcome.BLACK_WINS) else text
        )
    scored = white_score is not None and black_score is not None
    if game in {Game.OTHELLO, Game.CARROM} and not outcome.is_forfeit and scored:
        return f"{_number(white_score or 0)}-{_number(black_score or 0)}"
    return outcome.value


def komi_text(komi: float | None) -> str | None:
    """Komi as printed: ``6.5``; a negative komi is reverse komi (Black receives it).

    >>> komi_text(6.5), komi_text(-5.5), komi_text(None)
    ('6.5', '-5.5 (reverse)', None)
    """
    if komi is None:
        return None
    return f"{_number(komi)} (reverse)" if komi < 0 else _number(komi)
