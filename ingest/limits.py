"""The limits every input is held to: files from strangers, names typed by anyone.

One place for the numbers (documented in ``docs/limits.md``): a reader, the ingest job and
the director's commands all check against these, so a value the store holds is always one a
federation file or a person could sensibly give. Each check raises a one-line error naming the
file or the field, never echoing more than :data:`MAX_EXCERPT` characters of what it refused.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import os
import stat
import typing
from collections.abc import Sequence
from enum import Enum
from typing import TYPE_CHECKING, Any

from events.errors import UserError
from events.text import MAX_EXCERPT, MAX_TEXT, clean_text, excerpt, text_problem
from ingest.errors import IngestError

if TYPE_CHECKING:  # pydantic is not imported to read a file (arbiter-pairings' start-up)
    from pathlib import Path

    from pydantic import BaseModel

__all__ = [
    "MAX_DEPTH",
    "MAX_EXCERPT",
    "MAX_FILE_BYTES",
    "MAX_HANDICAP",
    "MAX_ID_LENGTH",
    "MAX_INTEGER",
    "MAX_KOMI",
    "MAX_PLAYERS",
    "MAX_RATING",
    "MAX_ROUNDS",
    "MAX_TEXT",
    "LimitError",
    "check_content",
    "check_conversion",
    "check_event",
    "check_text",
    "clean_text",
    "display_path",
    "excerpt",
    "file_kind",
    "looks_binary",
    "read_input",
    "text_problem",
]

MAX_FILE_BYTES = 64 * 1024 * 1024
"""A result file: the largest of the reference corpora is 0.6 MB; a 100,000-player .ELO (the
store benchmark's) is a few MB."""
MAX_PLAYERS = 200_000
"""Players of one file (the WOF archive's largest event lists 215; bulk .ELO loads 100,000)."""
MAX_ROUNDS = 200
"""Rounds of one tournament (a double round robin of 100 players; real events stop at 30)."""
MAX_DEPTH = 32
"""Nesting of XML elements (OpenGotha files nest 4 deep)."""
MAX_ID_LENGTH = 16
"""Characters of a federation id (FIDE ids have up to 10 digits, EGD PINs 8)."""
MAX_RATING = 5000
"""A rating on any scale arbiter reads (Elo, WOF, GoR): 0 .. 5000."""
MAX_KOMI = 100.0
"""Komi, in points either way (real komi lies between -10 and 10)."""
MAX_HANDICAP = 40
"""Handicap stones (9 is the usual maximum)."""
MAX_INTEGER = 2**53 - 1
"""Any other whole number (board numbers, counts, OpenGotha's pairing costs up to 5 * 10^14):
the largest that every JSON reader and a float64 column hold exactly."""

_ID_FIELDS = frozenset({"fide_id", "federation_id"})
_ID_DICTS = frozenset({"ids"})
_NUMBER_RANGES: dict[str, tuple[float, float]] = {
    "rating": (0, MAX_RATING),
    "rounds": (1, MAX_ROUNDS),
    "round": (1, MAX_ROUNDS),
    "from_round": (1, MAX_ROUNDS),
    "komi": (-MAX_KOMI, MAX_KOMI),
    "handicap": (0, MAX_HANDICAP),
    "player": (1, MAX_PLAYERS),
}


class LimitError(UserError):
    """A value beyond what arbiter accepts (a name too long or with a line break, a rating of
    10^32, a million rounds); the message names the field and quotes a short excerpt."""


def check_text(field: str, value: str, limit: int = MAX_TEXT) -> str:
    """``value`` when it is acceptable free text for ``field``.

    :raises LimitError: too long, or holds a control character (a newline, an escape ...).
    """
    problem = text_problem(value, limit)
    if problem is not None:
        raise LimitError(f"{field} {problem}: {excerpt(value)}")
    return value


def _number_problem(field: str, value: int | float) -> str | None:
    if isinstance(value, float) and not math.isfinite(value):
        return "is not a finite number"
    low, high = _NUMBER_RANGES.get(field, _ANY_NUMBER)
    if not low <= value <= high:
        return f"is out of range (found {excerpt(str(value))}, expected {low:g} .. {high:g})"
    return None


_ANY_NUMBER: tuple[float, float] = (-MAX_INTEGER, MAX_INTEGER)


@functools.cache
def _open_fields(kind: type) -> tuple[str, ...] | None:
    """The fields of a pydantic model or a dataclass that may hold a value beyond a limit:
    all but a model's closed ones (a Literal, an Enum, a bool), which validation already held
    to a few known values; None for any other type. Worked out once per class."""
    model_fields = getattr(kind, "model_fields", None)  # a pydantic model's
    if isinstance(model_fields, dict):
        return tuple(n for n, f in model_fields.items() if not _closed(f.annotation))
    if dataclasses.is_dataclass(kind):  # a value object inside an event (a `Board`)
        return tuple(f.name for f in dataclasses.fields(kind))
    return None


def _closed(annotation: Any) -> bool:
    if annotation is bool or typing.get_origin(annotation) is typing.Literal:
        return True
    return isinstance(annotation, type) and issubclass(annotation, Enum)


def _walk(value: Any, field: str) -> tuple[str, str] | None:
    """The first problem of ``value`` (named ``field``): (where below it, what), else None.

    Fast on the common case (every value fine: no string is built, the exact type is tested
    before any ``isinstance``); the place is put together only on the way back from a
    problem. Enum members are a closed set the schema already checked.
    """
    kind: type = type(value)
    if kind is str:
        limit = MAX_ID_LENGTH if field in _ID_FIELDS else MAX_TEXT
        if len(value) <= limit and value.isprintable():
            return None  # isprintable is False for every character text_problem refuses
        problem = text_problem(value, limit)
        return None if problem is None else ("", f"{problem}: {excerpt(value)}")
    if kind is int or kind is float:
        low, high = _NUMBER_RANGES.get(field, _ANY_NUMBER)
        if low <= value <= high:  # False for NaN
            return None
        problem = _number_problem(field, value)
        return None if problem is None else ("", problem)
    if value is None or kind is bool or isinstance(value, Enum):
        return None
    names = _open_fields(kind)
    if names is not None:
        for name in names:
            item = getattr(value, name, None)
            if item is None:
                continue
            found = _walk(item, name)
            if found is not None:
                return (f".{name}{found[0]}", found[1])
    elif isinstance(value, dict):
        for key, item in value.items():
            name = str(key)
            found = _walk(name, "key") or _walk(item, "fide_id" if field in _ID_DICTS else name)
            if found is not None:
                return (f".{name}{found[0]}", found[1])
    elif isinstance(value, list | tuple):
        for i, item in enumerate(value):
            found = _walk(item, field)
            if found is not None:
                return (f"[{i}]{found[0]}", found[1])
    elif isinstance(value, str):  # a str subclass that is no Enum: checked as plain text
        return _walk(str.__str__(value), field)
    elif isinstance(value, int | float):
        return _walk(float(value) if isinstance(value, float) else int(value), field)
    return None


def check_event(event: BaseModel, context: str = "") -> None:
    """Every text and number of ``event`` within the limits above.

    ``context`` (a player, a round) starts the message: ``player 3: name holds a control
    character (U+000A) at 6: 'Smith\\nJohn'``.

    :raises LimitError: the first value beyond a limit.
    """
    found = _walk(event, "")
    if found is not None:
        raise LimitError(_message(found, context))


def _message(found: tuple[str, str], context: str) -> str:
    """The one-line message of a `_walk` finding, after ``context`` when there is one."""
    problem = f"{found[0].removeprefix('.')} {found[1]}"
    return f"{context}: {problem}" if context else problem


def looks_binary(data: bytes) -> bool:
    """Bytes that are no result file of any format: a NUL, or many other control bytes.

    Text formats hold tabs, line ends and at most a stray form feed or EOF mark; random bytes
    hold one control byte in ten.

    >>> looks_binary(b"001    1  Smith"), looks_binary(b"a\\x00b")
    (False, True)
    >>> looks_binary(bytes(range(1, 32)))
    True
    """
    head = data[:65536]
    if b"\x00" in head:
        return True
    controls = sum(head.count(bytes([b])) for b in range(32) if b not in (9, 10, 13))
    return controls * 100 > len(head)


def display_path(path: str | os.PathLike[str]) -> str:
    """A path fit to print and store: bytes that are not UTF-8 shown as ``\\xNN``.

    >>> display_path(os.fsdecode(b"caf\\xe9.trf"))
    'caf\\\\xe9.trf'
    """
    return os.fsencode(path).decode("utf-8", "backslashreplace")


_KINDS = (
    (stat.S_ISREG, "a regular file"),
    (stat.S_ISLNK, "a symbolic link"),
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def file_kind(mode: int) -> str:
    """What a file is, in words (``a FIFO``, ``a character device`` ...)."""
    return next((name for test, name in _KINDS if test(mode)), "an unknown kind of file")


def read_input(path: str | os.PathLike[str], shown: str | None = None) -> bytes:
    """The bytes of the result file ``path``: a regular file of at most :data:`MAX_FILE_BYTES`.

    Opened without blocking, so a FIFO or a device is refused at once instead of waiting for a
    writer or reading for ever.

    :raises IngestError: not a regular file, too large, unreadable (named by ``shown``).
    """
    name = shown if shown is not None else display_path(path)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY)
    except OSError as exc:
        raise IngestError(name, 0, 0, f"cannot open: {exc.strerror}") from None
    with os.fdopen(fd, "rb") as handle:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise IngestError(name, 0, 0, f"not a regular file ({file_kind(mode)})")
        try:
            data = handle.read(MAX_FILE_BYTES + 1)
        except OSError as exc:
            raise IngestError(name, 0, 0, f"cannot read: {exc.strerror}") from None
    if len(data) > MAX_FILE_BYTES:
        raise IngestError(
            name, 0, 0, f"larger than {MAX_FILE_BYTES // (1024 * 1024)} MiB: not a result file"
        )
    return data


def check_content(path: Path, data: bytes) -> None:
    """Refuse bytes that are no result file before any reader sees them.

    :raises IngestError: empty (or blank), binary, or larger than :data:`MAX_FILE_BYTES`.
    """
    if len(data) > MAX_FILE_BYTES:
        raise IngestError(str(path), 0, 0, f"larger than {MAX_FILE_BYTES} bytes")
    if not data.strip():
        raise IngestError(str(path), 0, 0, "empty file: no tournament in it")
    if looks_binary(data):
        raise IngestError(str(path), 0, 0, "binary data, not a result file")


def _context(event: BaseModel) -> str:
    kind = str(getattr(event, "type", type(event).__name__))
    for field in ("player", "round"):
        value = getattr(event, field, None)
        if isinstance(value, int) and not isinstance(value, bool):
            return f"{kind} {field} {value}"
    return kind


def check_conversion(
    path: Path, events: Sequence[BaseModel], *, require_players: bool = True
) -> None:
    """A file's events within the limits: at least one player (``require_players``: a line
    format read into no player at all was no result file) and at most :data:`MAX_PLAYERS`,
    every text and number in its domain (:func:`check_event`).

    :raises IngestError: naming the file and the event's field.
    """
    players = sum(1 for e in events if getattr(e, "type", None) == "PlayerRegistered")
    if players == 0 and require_players:
        raise IngestError(str(path), 0, 0, "no players: not a tournament's results")
    if players > MAX_PLAYERS:
        raise IngestError(str(path), 0, 0, f"{players} players (at most {MAX_PLAYERS})")
    for event in events:
        found = _walk(event, "")
        if found is not None:  # the context is put together for a refused event only
            raise IngestError(str(path), 0, 0, _message(found, _context(event)))
