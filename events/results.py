"""Result text as a director types it, per game (`Result.parse`), and as the game writes it
(`entered_result`)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from events.domain import Game, Outcome
from events.errors import UserError
from events.schema import GoWin


class ResultSyntaxError(UserError):
    """Result text that means nothing for the tournament's game."""


class InvalidResult(UserError):
    """A result the game cannot have on this board (a jigo without an integer komi, 70
    othello discs, 26 carrom points)."""


CARROM_MAX_POINTS = 25
"""A carrom match ends when a player reaches 25 points (SoL's scores are 0..25)."""

OTHELLO_DISCS = 64


@dataclass(frozen=True, slots=True)
class Result:
    """A board's result as a director types it: the outcome, and the scores where the game
    has them (go: the margin; othello: discs; carrom: points), white's first."""

    outcome: Outcome
    white_score: float | None = None
    black_score: float | None = None
    how: GoWin | None = None
    """Go: won by resignation (``R``) or on time (``T``), kept as typed (``B+R``)."""

    @classmethod
    def parse(cls, text: str, game: Game) -> Result:
        """Turn '1-0', 'B+R', '40-24' ... into an outcome and optional scores for ``game``.

        >>> Result.parse("1/2-1/2", Game.CHESS).outcome
        <Outcome.DRAW: '1/2-1/2'>
        >>> Result.parse("W+3.5", Game.GO)
        Result(outcome=<Outcome.WHITE_WINS: '1-0'>, white_score=3.5, black_score=0.0, how=None)
        >>> Result.parse("40-24", Game.OTHELLO)
        Result(outcome=<Outcome.WHITE_WINS: '1-0'>, white_score=40.0, black_score=24.0, how=None)

        :raises ResultSyntaxError: text that means nothing for ``game`` (with its examples).
        """
        raw = text.strip().lower().replace(" ", "")
        if game is Game.GO:
            if raw in _GO_EXTRA:
                return cls(_GO_EXTRA[raw])
            m = _GO.match(raw)
            if m:
                white_won = m["side"] == "w"
                how = m["how"] or ""
                if how == "f":
                    return cls(
                        Outcome.WHITE_WINS_FORFEIT if white_won else Outcome.BLACK_WINS_FORFEIT
                    )
                margin = float(how) if how and how[0].isdigit() else None
                outcome = Outcome.WHITE_WINS if white_won else Outcome.BLACK_WINS
                if margin is None:
                    return cls(outcome, how=_GO_HOW.get(how))
                return cls(outcome, margin if white_won else 0.0, 0.0 if white_won else margin)
        if game in {Game.OTHELLO, Game.CARROM}:
            # any A-B is a score here: "1-0" is one disc (or point) to none, never a bare win
            m = _SCORES.match(raw)
            if m:
                a, b = float(m["a"]), float(m["b"])
                if a > b:
                    outcome = Outcome.WHITE_WINS
                elif b > a:
                    outcome = Outcome.BLACK_WINS
                else:
                    outcome = Outcome.DRAW
                return cls(outcome, a, b)
        if raw in _ANY_GAME:
            return cls(_ANY_GAME[raw])
        if game is Game.CHESS and raw in _CHESS:
            return cls(_CHESS[raw])
        raise ResultSyntaxError(f"unknown {game.value} result '{text}' (expected {EXAMPLES[game]})")


_CHESS: dict[str, Outcome] = {
    "1-0": Outcome.WHITE_WINS,
    "0-1": Outcome.BLACK_WINS,
    "1/2-1/2": Outcome.DRAW,
    "½-½": Outcome.DRAW,
    "0.5-0.5": Outcome.DRAW,
    "=": Outcome.DRAW,
    "draw": Outcome.DRAW,
}
"""Chess's results: a go board is won by B+ or W+ (jigo for a draw), an othello or carrom board
by its scores, so ``1-0`` there would say less than the game's own result (or mean a score)."""

_ANY_GAME: dict[str, Outcome] = {
    "+-": Outcome.WHITE_WINS_FORFEIT,
    "1-0f": Outcome.WHITE_WINS_FORFEIT,
    "-+": Outcome.BLACK_WINS_FORFEIT,
    "0-1f": Outcome.BLACK_WINS_FORFEIT,
    "--": Outcome.DOUBLE_FORFEIT,
    "0-0f": Outcome.DOUBLE_FORFEIT,
    "*": Outcome.UNKNOWN,
    "?": Outcome.UNKNOWN,
    "adjourned": Outcome.UNKNOWN,
}

_GO = re.compile(r"^(?P<side>[bw])\+(?P<how>f|r|t|res|time|\d+(?:\.\d+)?)?$")
_GO_HOW: dict[str, GoWin] = {"r": "R", "res": "R", "t": "T", "time": "T"}
_GO_EXTRA: dict[str, Outcome] = {
    "jigo": Outcome.DRAW,
    "0-0": Outcome.BOTH_LOSE,
    "1-1": Outcome.BOTH_WIN,
}
_SCORES = re.compile(r"^(?P<a>\d+(?:\.\d+)?)\s*[-:]\s*(?P<b>\d+(?:\.\d+)?)$")

EXAMPLES: dict[Game, str] = {
    Game.CHESS: "1-0, 0-1, 1/2-1/2 (or =), +- / -+ / -- for forfeits, * for unknown",
    Game.GO: "B+, W+, B+R, W+3.5, jigo, B+F / W+F for forfeits, 0-0, 1-1, * for unknown",
    Game.OTHELLO: "disc counts such as 40-24 (white's first), +- / -+ / -- for forfeits",
    Game.CARROM: "points such as 25-0 (white's first), +- / -+ / -- for forfeits",
}


_GO_WRITTEN = {
    Outcome.WHITE_WINS: "W+",
    Outcome.BLACK_WINS: "B+",
    Outcome.DRAW: "jigo",
    Outcome.WHITE_WINS_FORFEIT: "W+F",
    Outcome.BLACK_WINS_FORFEIT: "B+F",
    Outcome.DOUBLE_FORFEIT: "0-0F",
    Outcome.BOTH_LOSE: "0-0",
    Outcome.BOTH_WIN: "1-1",
}


def score_text(x: float) -> str:
    """A score or a margin as printed: ``6.5``, ``25`` (no trailing ``.0``)."""
    return f"{x:g}"


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
        text = _GO_WRITTEN.get(outcome, outcome.value)
        margin = (
            white_score
            if outcome is Outcome.WHITE_WINS
            else black_score
            if outcome is Outcome.BLACK_WINS
            else None
        )
        if margin:
            return f"{text}{score_text(margin)}"
        return (
            f"{text}{how}" if how and outcome in (Outcome.WHITE_WINS, Outcome.BLACK_WINS) else text
        )
    scored = white_score is not None and black_score is not None
    if game in {Game.OTHELLO, Game.CARROM} and not outcome.is_forfeit and scored:
        return f"{score_text(white_score or 0)}-{score_text(black_score or 0)}"
    return outcome.value


parse_result = Result.parse
"""`Result.parse` as a function."""


def jigo_possible(komi: float | None) -> bool:
    """A go board can end in a jigo (a tie of the count): its komi is a whole number.

    >>> jigo_possible(7.0), jigo_possible(6.5), jigo_possible(0.5), jigo_possible(None)
    (True, False, False, False)
    """
    return komi is not None and komi == int(komi)


def check_result(game: Game, parsed: Result, komi: float | None, text: str) -> None:
    """Refuse a parsed result the game cannot have on this board.

    ``komi``: the board's komi (go: a jigo needs an integer komi).
    """
    if game is Game.GO and parsed.outcome is Outcome.DRAW and not jigo_possible(komi):
        shown = "no komi" if komi is None else f"komi {komi:g}"
        raise InvalidResult(
            f"result '{text}': a jigo needs an integer komi; this board has {shown}"
        )
    w, b = parsed.white_score, parsed.black_score
    if w is None or b is None:
        return
    if game is Game.OTHELLO:
        if w != int(w) or b != int(b):
            raise InvalidResult(f"result '{text}': disc counts are whole numbers")
        if w + b > OTHELLO_DISCS:
            raise InvalidResult(
                f"result '{text}': {int(w)}+{int(b)} = {int(w + b)} discs, at most 64 in all"
            )
    elif game is Game.CARROM:
        if w != int(w) or b != int(b):
            raise InvalidResult(f"result '{text}': carrom points are whole numbers")
        if max(w, b) > CARROM_MAX_POINTS:
            raise InvalidResult(
                f"result '{text}': carrom points run 0..{CARROM_MAX_POINTS} a player"
            )
        if w == b == CARROM_MAX_POINTS:
            raise InvalidResult(f"result '{text}': both players cannot reach 25")
