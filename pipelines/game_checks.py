"""Each game's own input rules, checked when a director enters it: go ranks and AGA ratings,
and results that mean something for the game (go jigo, othello discs, carrom points).

Every refusal is one `UserError` line naming the field and what is allowed; the command
appends nothing.
"""

from __future__ import annotations

import re
from typing import Any

from events.domain import Game, Outcome
from events.errors import UserError
from events.go import Rank
from events.results import Result
from projections.state import TournamentState

__all__ = [
    "CARROM_MAX_POINTS",
    "GameInputError",
    "check_aga_rating",
    "check_result",
    "game_fields",
    "normalise_rank",
]

CARROM_MAX_POINTS = 25
"""A carrom match ends when a player reaches 25 points (SoL's scores are 0..25)."""

OTHELLO_DISCS = 64


class GameInputError(UserError):
    """A value that has no meaning in the tournament's game (a rank, a rating, a result)."""


_WORDS = re.compile(r"\s*(\d{1,2})\s*(k|kyu|d|dan|p|pro)\s*", re.IGNORECASE)
_KIND = {"k": "k", "kyu": "k", "d": "d", "dan": "d", "p": "p", "pro": "p"}
_LIMIT = {"k": 30, "d": 9, "p": 9}
_NAMES = {"k": "kyu", "d": "dan", "p": "professional dan"}


def normalise_rank(text: str) -> str:
    """A go rank as registered: ``3d``, ``12k``, ``1p`` (``3 dan``, ``12 Kyu`` normalised).

    >>> normalise_rank("3 dan"), normalise_rank("12K"), normalise_rank(" 1p ")
    ('3d', '12k', '1p')
    >>> normalise_rank("10d")
    Traceback (most recent call last):
    ...
    pipelines.game_checks.GameInputError: --rank '10d': dan ranks run 1d..9d
    """
    m = _WORDS.fullmatch(text)
    if m is None:
        raise GameInputError(f"--rank '{text}' is not a go rank (30k..1k, 1d..9d, 1p..9p)")
    number, kind = int(m.group(1)), _KIND[m.group(2).lower()]
    if not 1 <= number <= _LIMIT[kind]:
        raise GameInputError(
            f"--rank '{text}': {_NAMES[kind]} ranks run 1{kind}..{_LIMIT[kind]}{kind}"
        )
    return str(Rank(kind, number))  # type: ignore[arg-type]


def check_aga_rating(value: float) -> float:
    """An AGA rating: dan side 1.0 and above, kyu side -1.0 and below (gopair's scale).

    >>> check_aga_rating(3.27), check_aga_rating(-5.5)
    (3.27, -5.5)
    """
    if -1 < value < 1:
        raise GameInputError(
            f"--aga-rating {value:g}: AGA ratings are 1.0 and above (dan) or -1.0 and below "
            "(kyu); -1..1 is not a rating"
        )
    if not -50 <= value <= 12:
        raise GameInputError(f"--aga-rating {value:g} is outside -50..12")
    return value


def check_result(game: Game, parsed: Result, komi: float | None, text: str) -> None:
    """Refuse a parsed result the game cannot have on this board.

    ``komi``: the board's komi (go: a jigo needs an integer komi).
    """
    if game is Game.GO and parsed.outcome is Outcome.DRAW and (komi is None or komi != int(komi)):
        shown = "no komi" if komi is None else f"komi {komi:g}"
        raise GameInputError(
            f"result '{text}': a jigo needs an integer komi; this board has {shown}"
        )
    w, b = parsed.white_score, parsed.black_score
    if w is None or b is None:
        return
    if game is Game.OTHELLO:
        if w != int(w) or b != int(b):
            raise GameInputError(f"result '{text}': disc counts are whole numbers")
        if w + b > OTHELLO_DISCS:
            raise GameInputError(
                f"result '{text}': {int(w)}+{int(b)} = {int(w + b)} discs, at most 64 in all"
            )
    elif game is Game.CARROM:
        if w != int(w) or b != int(b):
            raise GameInputError(f"result '{text}': carrom points are whole numbers")
        if max(w, b) > CARROM_MAX_POINTS:
            raise GameInputError(
                f"result '{text}': carrom points run 0..{CARROM_MAX_POINTS} a player"
            )
        if w == b == CARROM_MAX_POINTS:
            raise GameInputError(f"result '{text}': both players cannot reach 25")


def game_fields(state: TournamentState, fields: dict[str, Any]) -> dict[str, Any]:
    """A registration's game fields checked and normalised (rank, AGA rating, seed)."""
    out = dict(fields)
    if out.get("rank") is not None:
        out["rank"] = normalise_rank(out["rank"])
    if out.get("aga_rating") is not None:
        if state.game is not Game.GO:
            raise GameInputError(f"--aga-rating is a go rating; this is a {state.game.value} event")
        check_aga_rating(out["aga_rating"])
    seed = out.get("pairing_number")
    if seed is not None:
        taken = {p.pairing_number: p for p in state.players.values()}
        if seed in taken:
            raise GameInputError(
                f"--seed {seed} is already player {taken[seed].id}'s ({taken[seed].name})"
            )
    return out
