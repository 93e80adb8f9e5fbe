"""The rule for free text, written once: what a name, club or place may hold, and how a
refused value is quoted in a one-line message.

The director's commands (:mod:`events.validate`), the readers (:mod:`ingest.limits`) and the
writers (:mod:`projections.exports`) all use these, so a value the store holds is one that every
line-oriented file can carry, and no message ever echoes more than :data:`MAX_EXCERPT`
characters of what it refused.
"""

from __future__ import annotations

import re

__all__ = ["BAD_CHARACTERS", "MAX_EXCERPT", "MAX_TEXT", "clean_text", "excerpt", "text_problem"]

MAX_TEXT = 200
"""Characters of a name, club, city, tournament name or any other free text."""
MAX_EXCERPT = 40
"""Characters of refused input an error message may quote (control characters escaped):
a file that is not what it claims (``/etc/shadow`` given as a result file) is never echoed."""

_BIDI_CHARACTERS = "\u202a-\u202e\u2066-\u2069"
BAD_CHARACTERS = f"\x00-\x1f\x7f-\x9f\u2028\u2029{_BIDI_CHARACTERS}"
"""The characters free text may not hold, as the inside of a regular expression's class (the
same in Python's `re` and in polars' expressions: `ingest.lists.check` tests whole columns)."""
_BAD_CHARACTER = re.compile(f"[{BAD_CHARACTERS}]")
"""Control characters (Unicode Cc: U+0000..001F, U+007F..009F), the line and paragraph
separators (Zl U+2028, Zp U+2029): what may end a line in some reader; and the bidirectional
embeddings, overrides and isolates (U+202A..202E, U+2066..2069), which make a name display as
another (``\u202eretsaM`` shows as "Master") in every page and export that prints it. The
marks U+200E/U+200F, which a right-to-left name may need, stay allowed."""
_BIDI = re.compile(f"[{_BIDI_CHARACTERS}]")


def excerpt(text: str, limit: int = MAX_EXCERPT) -> str:
    """``text`` fit to quote in a one-line message: control characters escaped, cut short.

    >>> print(excerpt("ab\\ncd"), excerpt("x" * 50)[-5:])
    'ab\\ncd' x...'
    """
    return repr(text if len(text) <= limit else text[:limit] + "...")


def text_problem(value: str, limit: int = MAX_TEXT) -> str | None:
    """Why ``value`` is not acceptable free text (None when it is).

    >>> text_problem("Müller, Jan"), text_problem("a\\nb"), text_problem("x" * 201)
    (None, 'holds a control character (U+000A) at 2', 'is 201 characters long (at most 200)')
    """
    if len(value) > limit:
        return f"is {len(value)} characters long (at most {limit})"
    bad = _BAD_CHARACTER.search(value)
    if bad is not None:
        kind = "a bidirectional control" if _BIDI.match(bad.group()) else "a control character"
        return f"holds {kind} (U+{ord(bad.group()):04X}) at {bad.start() + 1}"
    return None


def clean_text(value: str) -> str:
    """``value`` with every control character (a newline, an escape, a line separator) made a
    space: what a writer puts in a line-oriented file, so a stored name can never forge a line.

    >>> clean_text("Smith, J\\n001    2  Forged\\x1b[31m")
    'Smith, J 001    2  Forged [31m'
    """
    return _BAD_CHARACTER.sub(" ", value)
