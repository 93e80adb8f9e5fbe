"""Checks of what a director types, at the moment it is typed: one rule per field.

Each function takes the raw text (or number) of one command-line field and returns the value
to store, normalised, or raises `InvalidField` whose message names the field (its option) and
says why in one line. The table of every check is docs/validation.md; its tests read that
table.
"""

from __future__ import annotations

import datetime as dt
import re

from events.domain import Game
from events.errors import UserError
from events.fide import FEDERATIONS, TITLES
from events.text import excerpt, text_problem

__all__ = [
    "CHESS_RATING_MAX",
    "RATING_TYPES",
    "InvalidField",
    "birth",
    "calendar_date",
    "federation",
    "fide_id",
    "rating",
    "rating_type",
    "round_date",
    "sex",
    "text",
    "title",
]

CHESS_RATING_MAX = 3000
"""No chess rating has ever reached it (the highest FIDE rating is 2882)."""

RATING_TYPES = ("standard", "rapid", "blitz")
"""The FIDE rating lists an event can count for."""

_ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


class InvalidField(UserError):
    """A value typed for a field that the field's rule refuses (the message names the field)."""


def calendar_date(field: str, value: str) -> dt.date:
    """A real calendar date written ``YYYY-MM-DD``.

    >>> calendar_date("--start", "2026-03-01")
    datetime.date(2026, 3, 1)
    >>> calendar_date("--start", "2026-02-30")
    Traceback (most recent call last):
    ...
    events.validate.InvalidField: --start: '2026-02-30' is not a calendar date (YYYY-MM-DD)
    """
    raw = value.strip()
    if _ISO_DATE.match(raw):
        try:
            return dt.date.fromisoformat(raw)
        except ValueError:
            pass
    raise InvalidField(f"{field}: {excerpt(value)} is not a calendar date (YYYY-MM-DD)")


def round_date(value: str, rounds: int) -> tuple[int, dt.date]:
    """``ROUND=YYYY-MM-DD`` for a round of the event (1..rounds)."""
    number, sep, day = value.partition("=")
    if not sep or not number.strip().isdigit():
        raise InvalidField(
            f"--round-date: {excerpt(value)} is not ROUND=YYYY-MM-DD (e.g. 3=2026-03-03)"
        )
    n = int(number)
    if not 1 <= n <= rounds:
        raise InvalidField(f"--round-date: round {n} is outside 1..{rounds}")
    return n, calendar_date("--round-date", day)


def birth(value: str, today: dt.date | None = None) -> str:
    """A birth date ``YYYY-MM-DD`` or a birth year ``YYYY``, in the past, from 1900 on."""
    raw = value.strip()
    today = today or dt.datetime.now(dt.UTC).date()
    if re.fullmatch(r"\d{4}", raw):
        year = int(raw)
        when = dt.date(year, 1, 1)
    else:
        when = calendar_date("--birth", raw.replace("/", "-"))
        year = when.year
        raw = when.isoformat()
    if year < 1900:
        raise InvalidField(f"--birth: {raw} is before 1900")
    if when > today:
        raise InvalidField(f"--birth: {raw} is in the future")
    return raw


def federation(value: str, game: Game) -> str:
    """Chess: a FIDE federation code (any case; stored upper case). Other games keep their own
    country codes (EGD, WOF), which are not FIDE's."""
    raw = value.strip()
    if game is not Game.CHESS:
        if not raw:
            raise InvalidField("--federation: empty")
        return raw
    code = raw.upper()
    if code not in FEDERATIONS:
        raise InvalidField(
            f"--federation: {excerpt(value)} is not a FIDE federation code (such as NOR, GER, USA)"
        )
    return code


def title(value: str, game: Game) -> str:
    """A FIDE player title (chess only; any case, stored upper case)."""
    if game is not Game.CHESS:
        raise InvalidField(f"--title: titles are FIDE chess titles; a {game.value} event has none")
    code = value.strip().upper()
    if code not in TITLES:
        raise InvalidField(f"--title: {excerpt(value)} is not a FIDE title ({', '.join(TITLES)})")
    return code


def rating(value: int, game: Game) -> int:
    """A rating within the game's range (chess 0..3000; 0 means unrated)."""
    if value < 0:
        raise InvalidField(f"--rating: {value} is negative")
    if game is Game.CHESS and value > CHESS_RATING_MAX:
        raise InvalidField(f"--rating: {value} is outside the chess range 0..{CHESS_RATING_MAX}")
    return value


def fide_id(value: str) -> str:
    """A FIDE id: digits only, at most 10."""
    raw = value.strip()
    if not re.fullmatch(r"\d{1,10}", raw):
        raise InvalidField(f"--fide-id: {excerpt(value)} is not a FIDE id (1 to 10 digits)")
    return raw


def sex(value: str) -> str:
    """``m`` or ``f`` (``w``, as the TRF writes it, is read as ``f``)."""
    raw = value.strip().lower()
    found = {"m": "m", "male": "m", "f": "f", "female": "f", "w": "f"}.get(raw)
    if found is None:
        raise InvalidField(f"--sex: {excerpt(value)} is not m or f")
    return found


def rating_type(value: str, game: Game) -> str:
    """The FIDE rating list a chess event counts for."""
    if game is not Game.CHESS:
        raise InvalidField(f"--rating-type: FIDE rating types are for chess, not {game.value}")
    raw = value.strip().lower()
    if raw not in RATING_TYPES:
        raise InvalidField(
            f"--rating-type: {excerpt(value)} is not one of {', '.join(RATING_TYPES)}"
        )
    return raw


def text(field: str, value: str) -> str:
    """Free text that must say something: not empty, one line."""
    raw = value.strip()
    if not raw:
        raise InvalidField(f"{field}: empty")
    problem = text_problem(raw)
    if problem is not None:
        raise InvalidField(f"{field} {problem}: {excerpt(value)}")
    return raw
