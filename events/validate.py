"""Checks of what a user enters, at the moment it is entered: one rule per field.

Each function takes the raw text (or number) of one input field and returns the value to store,
normalised, or raises `InvalidField`, whose message names the field and says why in one line.
The field is named as the input models name it (`decide.inputs`: ``federation``,
``round_dates``); each door says it its own way (`InvalidField.render`): the API, the CSV
columns and the web forms by that name, the command line by its option (``--federation``). The
table of every check is docs/validation.md; its tests read that table.
"""

from __future__ import annotations

import datetime as dt
import re

from events.domain import Game
from events.errors import UserError
from events.fide import FEDERATIONS, TITLES
from events.go import AGA_RATING_RANGE, Rank
from events.text import excerpt, text_problem

__all__ = [
    "AGA_RATING_RANGE",
    "CHESS_RATING_MAX",
    "RATING_TYPES",
    "InvalidField",
    "aga_id",
    "aga_rating",
    "birth",
    "calendar_date",
    "egd_pin",
    "federation",
    "fide_id",
    "go_rank",
    "rating",
    "rating_type",
    "round_date",
    "sex",
    "text",
    "title",
    "wof_id",
]

CHESS_RATING_MAX = 3000
"""No chess rating has ever reached it (the highest FIDE rating is 2882)."""

RATING_TYPES = ("standard", "rapid", "blitz")
"""The FIDE rating lists an event can count for."""

_ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


class InvalidField(UserError):
    """A value entered for a field that the field's rule refuses.

    ``field`` is the input field (``federation``); the message is the field, ``sep`` and
    ``problem``: ``federation: 'XYZ' is not a FIDE federation code ...`` (``str()``), or with the
    door's own name for the field (`render`): ``--federation: 'XYZ' ...`` on the command line.
    """

    def __init__(self, field: str, problem: str, *, sep: str = ": ") -> None:
        braced = problem.replace("{", "{{").replace("}", "}}")
        super().__init__(f"{field}{sep}{problem}")
        self._template = f"{{0}}{sep}{braced}"
        self._fields = (field,)
        self.field = field

    @classmethod
    def naming(cls, template: str, *fields: str) -> InvalidField:
        """`ArbiterError.naming` for this class (its constructor takes the field apart)."""
        error = cls.__new__(cls)
        UserError.__init__(error, template.format(*fields))
        error._template = template
        error._fields = fields
        error.field = fields[0] if fields else ""
        return error


def calendar_date(field: str, value: str) -> dt.date:
    """A real calendar date written ``YYYY-MM-DD``.

    >>> calendar_date("start", "2026-03-01")
    datetime.date(2026, 3, 1)
    >>> calendar_date("start", "2026-02-30")
    Traceback (most recent call last):
    ...
    events.validate.InvalidField: start: '2026-02-30' is not a calendar date (YYYY-MM-DD)
    """
    raw = value.strip()
    if _ISO_DATE.match(raw):
        try:
            return dt.date.fromisoformat(raw)
        except ValueError:
            pass
    raise InvalidField(field, f"{excerpt(value)} is not a calendar date (YYYY-MM-DD)")


def round_date(value: str, rounds: int) -> tuple[int, dt.date]:
    """``ROUND=YYYY-MM-DD`` for a round of the event (1..rounds)."""
    number, sep, day = value.partition("=")
    if not sep or not number.strip().isdigit():
        raise InvalidField(
            "round_dates", f"{excerpt(value)} is not ROUND=YYYY-MM-DD (e.g. 3=2026-03-03)"
        )
    n = int(number)
    if not 1 <= n <= rounds:
        raise InvalidField("round_dates", f"round {n} is outside 1..{rounds}")
    return n, calendar_date("round_dates", day)


def birth(value: str, today: dt.date | None = None) -> str:
    """A birth date ``YYYY-MM-DD`` or a birth year ``YYYY``, in the past, from 1900 on."""
    raw = value.strip()
    today = today or dt.datetime.now(dt.UTC).date()
    if re.fullmatch(r"\d{4}", raw):
        year = int(raw)
        when = dt.date(year, 1, 1)
    else:
        when = calendar_date("birth", raw.replace("/", "-"))
        year = when.year
        raw = when.isoformat()
    if year < 1900:
        raise InvalidField("birth", f"{raw} is before 1900")
    if when > today:
        raise InvalidField("birth", f"{raw} is in the future")
    return raw


def federation(value: str, game: Game) -> str:
    """Chess: a FIDE federation code (any case; stored upper case). Other games keep their own
    country codes (EGD, WOF), which are not FIDE's."""
    raw = value.strip()
    if game is not Game.CHESS:
        if not raw:
            raise InvalidField("federation", "empty")
        return text("federation", raw)
    code = raw.upper()
    if code not in FEDERATIONS:
        raise InvalidField(
            "federation",
            f"{excerpt(value)} is not a FIDE federation code (such as NOR, GER, USA)",
        )
    return code


def title(value: str, game: Game) -> str:
    """A FIDE player title (chess only; any case, stored upper case)."""
    if game is not Game.CHESS:
        raise InvalidField("title", f"titles are FIDE chess titles; a {game.value} event has none")
    code = value.strip().upper()
    if code not in TITLES:
        raise InvalidField("title", f"{excerpt(value)} is not a FIDE title ({', '.join(TITLES)})")
    return code


def rating(value: int, game: Game) -> int:
    """A rating within the game's range (chess 0..3000; 0 means unrated)."""
    if value < 0:
        raise InvalidField("rating", f"{value} is negative")
    if game is Game.CHESS and value > CHESS_RATING_MAX:
        raise InvalidField("rating", f"{value} is outside the chess range 0..{CHESS_RATING_MAX}")
    return value


def fide_id(value: str) -> str:
    """A FIDE id: digits only, at most 10."""
    raw = value.strip()
    if not re.fullmatch(r"\d{1,10}", raw):
        raise InvalidField("fide_id", f"{excerpt(value)} is not a FIDE id (1 to 10 digits)")
    return raw


def egd_pin(value: str, game: Game | None = None) -> str:
    """An EGD PIN (go only): digits, at most 10.

    >>> egd_pin(" 19574643 ")
    '19574643'
    """
    return _go_id("egd_pin", "an EGD PIN", value, game)


def aga_id(value: str, game: Game | None = None) -> str:
    """An AGA member id (go only): digits, at most 10.

    >>> aga_id("17452")
    '17452'
    """
    return _go_id("aga_id", "an AGA id", value, game)


def wof_id(value: str, game: Game | None = None) -> str:
    """A World Othello Federation player id (othello only): 1 to 7 digits (the .ELO archive's
    ids run to 7), stored without leading zeros as the .ELO reader stores it.

    >>> wof_id(" 05537 ")
    '5537'
    """
    if game is not None and game is not Game.OTHELLO:
        raise InvalidField("wof_id", f"is an othello id; this is a {game.value} event", sep=" ")
    raw = value.strip()
    if not re.fullmatch(r"\d{1,7}", raw) or int(raw) == 0:
        raise InvalidField("wof_id", f"{excerpt(value)} is not a WOF id (1 to 7 digits)")
    return str(int(raw))


def _go_id(field: str, what: str, value: str, game: Game | None) -> str:
    if game is not None and game is not Game.GO:
        raise InvalidField(field, f"is a go id; this is a {game.value} event", sep=" ")
    raw = value.strip()
    if not re.fullmatch(r"\d{1,10}", raw):
        raise InvalidField(field, f"{excerpt(value)} is not {what} (1 to 10 digits)")
    return raw


def sex(value: str) -> str:
    """``m`` or ``f`` (``w``, as the TRF writes it, is read as ``f``)."""
    raw = value.strip().lower()
    found = {"m": "m", "male": "m", "f": "f", "female": "f", "w": "f"}.get(raw)
    if found is None:
        raise InvalidField("sex", f"{excerpt(value)} is not m or f")
    return found


def rating_type(value: str, game: Game) -> str:
    """The FIDE rating list a chess event counts for."""
    if game is not Game.CHESS:
        raise InvalidField("rating_type", f"FIDE rating types are for chess, not {game.value}")
    raw = value.strip().lower()
    if raw not in RATING_TYPES:
        raise InvalidField(
            "rating_type", f"{excerpt(value)} is not one of {', '.join(RATING_TYPES)}"
        )
    return raw


def text(field: str, value: str) -> str:
    """Free text that must say something: not empty, one line."""
    raw = value.strip()
    if not raw:
        raise InvalidField(field, "empty")
    problem = text_problem(raw)
    if problem is not None:
        raise InvalidField(field, f"{problem}: {excerpt(value)}", sep=" ")
    return raw


_RANK_WORDS = re.compile(r"\s*(\d{1,2})\s*(k|kyu|d|dan|p|pro)\s*", re.IGNORECASE)
_RANK_KIND = {"k": "k", "kyu": "k", "d": "d", "dan": "d", "p": "p", "pro": "p"}
_RANK_LIMIT = {"k": 30, "d": 9}
_RANK_NAMES = {"k": "kyu", "d": "dan"}


def go_rank(value: str) -> str:
    """A go rank as registered: ``3d``, ``12k`` (``3 dan``, ``12 Kyu`` normalised). A
    professional rank is refused: the go engines pair on OpenGotha's amateur scale (30k..9d),
    which has no place for it.

    >>> go_rank("3 dan"), go_rank("12K"), go_rank(" 9D ")
    ('3d', '12k', '9d')
    >>> go_rank("10d")
    Traceback (most recent call last):
    ...
    events.validate.InvalidField: rank '10d': dan ranks run 1d..9d
    >>> go_rank("1p")
    Traceback (most recent call last):
    ...
    events.validate.InvalidField: rank '1p': professional ranks are not paired (30k..9d); enter 9d
    """
    m = _RANK_WORDS.fullmatch(value)
    if m is None:
        raise InvalidField("rank", f"{excerpt(value)} is not a go rank (30k..1k, 1d..9d)", sep=" ")
    number, kind = int(m.group(1)), _RANK_KIND[m.group(2).lower()]
    if kind == "p":
        raise InvalidField(
            "rank",
            f"{excerpt(value)}: professional ranks are not paired (30k..9d); enter 9d",
            sep=" ",
        )
    if not 1 <= number <= _RANK_LIMIT[kind]:
        raise InvalidField(
            "rank",
            f"{excerpt(value)}: {_RANK_NAMES[kind]} ranks run 1{kind}..{_RANK_LIMIT[kind]}{kind}",
            sep=" ",
        )
    return str(Rank(kind, number))  # type: ignore[arg-type]


def aga_rating(value: float, game: Game) -> float:
    """An AGA rating (go only): dan side 1.0 and above, kyu side -1.0 and below (gopair's
    scale).

    >>> aga_rating(3.27, Game.GO), aga_rating(-5.5, Game.GO)
    (3.27, -5.5)
    """
    if game is not Game.GO:
        raise InvalidField("aga_rating", f"is a go rating; this is a {game.value} event", sep=" ")
    if -1 < value < 1:
        raise InvalidField(
            "aga_rating",
            f"{value:g}: AGA ratings are 1.0 and above (dan) or -1.0 and below (kyu); "
            "-1..1 is not a rating",
            sep=" ",
        )
    low, high = AGA_RATING_RANGE
    if not low <= value <= high:
        raise InvalidField("aga_rating", f"{value:g} is outside {low:g}..{high:g}", sep=" ")
    return value


def check_in_window(value: str) -> tuple[dt.datetime, dt.datetime]:
    """``FROM/TO``, the check-in window before round 1: FROM a date and time
    (``YYYY-MM-DDTHH:MM``), TO a time that day or a date and time, after FROM.

    >>> check_in_window("2026-03-01T09:00/09:45")
    (datetime.datetime(2026, 3, 1, 9, 0), datetime.datetime(2026, 3, 1, 9, 45))
    >>> check_in_window("2026-03-01T09:00/08:00")
    Traceback (most recent call last):
    ...
    events.validate.InvalidField: check_in: closes 2026-03-01 08:00, before it opens (09:00)
    """
    raw = value.strip()
    start, sep, end = raw.partition("/")
    shape = "FROM/TO, e.g. 2026-03-01T09:00/09:45"
    opens: dt.datetime | None = None
    closes: dt.datetime | None = None
    try:
        if sep and "T" in start:
            opens = dt.datetime.fromisoformat(start.strip())
            text = end.strip()
            if re.fullmatch(r"\d{1,2}:\d{2}", text):
                closes = dt.datetime.combine(opens.date(), dt.time.fromisoformat(text.zfill(5)))
            else:
                closes = dt.datetime.fromisoformat(text)
    except ValueError:
        opens = None
    if opens is None or closes is None:
        raise InvalidField("check_in", f"{excerpt(value)} is not a check-in window ({shape})")
    opens, closes = opens.replace(tzinfo=None), closes.replace(tzinfo=None)
    if closes <= opens:
        raise InvalidField(
            "check_in",
            f"closes {closes:%Y-%m-%d %H:%M}, before it opens ({opens:%H:%M})",
        )
    return opens, closes
