"""Player names compared as people read them: case, accents and punctuation do not count.

The one place of the rule, for a tournament's second registration of a name (`same_name`,
decide), the registry that links a file's players to known people (ingest), the rating lists
that count a person once across tournaments (ratings) and the player search of ``arbiter
ratings show`` (pipelines); and `slugify`, a tournament's id made from its name or file name.
"""

from __future__ import annotations

import functools
import re
import unicodedata

__all__ = ["fold", "matches", "name_key", "normalise_name", "same_name", "slugify"]


def fold(text: str) -> str:
    """Lower case, accents and punctuation removed, words in their order.

    >>> fold("Müller-Lüdenscheidt, Jan")
    'muller ludenscheidt jan'
    """
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return " ".join("".join(c if c.isalnum() else " " for c in ascii_text.casefold()).split())


def normalise_name(name: str) -> str:
    """Case, accents, punctuation and word order removed: ``"Müller, Jan"`` = ``"JAN MULLER"``.

    >>> normalise_name("Müller, Jan") == normalise_name("JAN  MULLER")
    True
    """
    return " ".join(sorted(fold(name).split()))


def _letters(text: str) -> str:
    """`fold` that keeps every script: accents (combining marks) go, letters of any alphabet
    stay (``"王, 芳"`` is not ``"山田, たろう"``, nor ``"Иванов"`` nothing)."""
    decomposed = unicodedata.normalize("NFKD", text)
    kept = (c for c in decomposed if not unicodedata.combining(c))
    return " ".join("".join(c if c.isalnum() else " " for c in "".join(kept).casefold()).split())


def same_name(a: str, b: str) -> bool:
    """``a`` and ``b`` name the same person, case, accents, punctuation and word order aside:
    the rule a tournament's second registration of a name is held to (`decide.players`).
    Letters of every script count (the registry's `normalise_name` reads names in ASCII).

    >>> same_name("Berg, Anna", "berg,  ANNA"), same_name("Berg, Anna", "Anna Berg")
    (True, True)
    >>> same_name("Berg, Anna", "Berg, Anne"), same_name("王, 芳", "山田, たろう")
    (False, False)
    >>> same_name("Müller, Jan", "MULLER JAN"), same_name("Иванов, Иван", "иванов иван")
    (True, True)
    """
    return a == b or name_key(a) == name_key(b)


@functools.lru_cache(maxsize=8192)
def name_key(name: str) -> tuple[str, ...]:
    """What `same_name` compares (two names are the same when their keys are), kept for the
    names met last: a registration compares its name with every player's of the tournament;
    a file's registrations are indexed by it (`ingest.commands`)."""
    return tuple(sorted(_letters(name).split()))


def matches(query: str, name: str) -> bool:
    """Every word of ``query`` is part of ``name`` (folded): ``"mull jan"`` finds
    ``"Müller, Jan"``. An empty query matches nothing.

    >>> matches("MULL", "Müller, Jan"), matches("jan mül", "Müller, Jan"), matches("ann", "Jan")
    (True, True, False)
    """
    words = fold(query).split()
    folded = fold(name)
    return bool(words) and all(w in folded for w in words)


def slugify(name: str) -> str:
    """A tournament id from a name: ASCII lower case and digits, runs of anything else one dash.

    >>> slugify("Open de Paris 2024 (Élite)"), slugify("???")
    ('open-de-paris-2024-elite', 'tournament')
    """
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    slug = re.sub(r"[^a-z0-9]+", "-", ascii_name.lower()).strip("-")
    return slug or "tournament"
