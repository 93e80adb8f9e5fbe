"""Player names compared as people read them: case, accents and punctuation do not count.

The one place of the rule, for a tournament's second registration of a name (`same_name`,
decide), the registry that links a file's players to known people (ingest), the rating lists
that count a person once across tournaments (ratings) and the player search of ``arbiter
ratings show`` (pipelines); and `slugify`, a tournament's id made from its name or file name.
"""

from __future__ import annotations

import re
import unicodedata

__all__ = ["fold", "matches", "normalise_name", "same_name", "slugify"]


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


def same_name(a: str, b: str) -> bool:
    """``a`` and ``b`` name the same person as the registry reads names (`normalise_name`):
    the rule a tournament's second registration of a name is held to (`decide.players`).

    >>> same_name("Berg, Anna", "berg,  ANNA"), same_name("Berg, Anna", "Anna Berg")
    (True, True)
    >>> same_name("Berg, Anna", "Berg, Anne")
    False
    """
    return normalise_name(a) == normalise_name(b)


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
