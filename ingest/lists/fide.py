"""What FIDE's lists hold, whatever the file: the fields of a player, their rules, and the three
lists (standard, rapid, blitz) made of them.

FIDE publishes every player in one combined file (XML ``players_list_xml_foa.xml`` or TXT
``players_list_foa.txt``: each player's standard, rapid and blitz rating, games and K) and one
file per rating type (``standard_nov25frl.txt`` ...: only the players rated in that type). Either
way arbiter keeps one list per rating type (`events.imported_lists.FIDE_LISTS`) holding the
players rated in it: the XML and the per-type TXT files of a month give the same lists.

A player's title is the FIDE title (``title``: GM, IM, FM, CM, WGM ...) or, when there is
none, the women's title (``w_title``); other titles (arbiter, trainer, FIDE Online Arena) are
checked and not kept. A rating of 0 or nothing means unrated in that type; a birth year of 0
or nothing means unknown.
"""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

from events.imported_lists import FIDE_LISTS, Kind
from ingest.lists.check import Spec
from ingest.lists.limits import BIRTH_YEARS, MAX_GAMES, MAX_K, MAX_RATING
from ingest.lists.records import ReadList, as_kind

__all__ = ["RATING_FIELDS", "SPECS", "fide_lists"]

_TITLE = r"^[A-Za-z]{1,4}$"

_COMMON = (
    Spec("fideid", "id", "FIDE id", required=True, expected="digits (a FIDE id)"),
    Spec("name", "text", "name", required=True, expected="the player's name"),
    Spec(
        "country", "code", "federation", pattern=r"^[A-Z]{3}$", expected="a federation code (NOR)"
    ),
    Spec("sex", "code", "sex", pattern=r"^[MFmf]$", expected="M or F"),
    Spec("title", "code", "title", pattern=_TITLE, expected="a FIDE title (GM, IM, WGM ...)"),
    Spec("w_title", "code", "women's title", pattern=_TITLE, expected="WGM, WIM, WFM or WCM"),
    Spec("o_title", "text", "other titles"),
    Spec("foa_title", "text", "FIDE Online Arena title"),
    Spec(
        "birthday",
        "year",
        "birth year",
        low=BIRTH_YEARS[0],
        high=BIRTH_YEARS[1],
        none=("0", "0000"),
    ),
    Spec("flag", "code", "flag", pattern=r"^[a-z]{1,4}$", expected="FIDE's flags (i, w, wi)"),
)

RATING_FIELDS: dict[str, tuple[str, str, str]] = {
    "standard": ("rating", "games", "k"),
    "rapid": ("rapid_rating", "rapid_games", "rapid_k"),
    "blitz": ("blitz_rating", "blitz_games", "blitz_k"),
}
"""Each rating type's rating, games and K fields (the XML's element names)."""


def _rating_specs(kind: str) -> tuple[Spec, ...]:
    rating, games, k = RATING_FIELDS[kind]
    words = "" if kind == "standard" else f"{kind} "
    return (
        Spec(rating, "int", f"{words}rating", low=0, high=MAX_RATING, none=("0",)),
        Spec(games, "int", f"{words}games", low=0, high=MAX_GAMES),
        Spec(k, "int", f"{words}K", low=0, high=MAX_K),
    )


SPECS: dict[str, Spec] = {
    s.name: s for s in (*_COMMON, *(s for t in RATING_FIELDS for s in _rating_specs(t)))
}
"""Every field of a FIDE player, by its XML element name."""


def fide_lists(typed: pl.DataFrame, types: Sequence[str], *, named: bool = True) -> list[ReadList]:
    """The lists of ``types`` (standard, rapid, blitz) from checked rows (`SPECS`' columns):
    each holds the players with a rating of its type. ``named``: the lists take FIDE's names
    (a monthly TXT list whose file name does not say its type has none)."""
    lists = []
    for kind in types:
        rating, games, k = RATING_FIELDS[kind]
        rows = typed.filter(pl.col(rating).is_not_null()).select(
            pl.col("fideid").alias("player_id"),
            "name",
            pl.col("country").alias("federation"),
            pl.col("sex").str.to_uppercase().alias("sex"),
            pl.coalesce("title", "w_title").str.to_uppercase().alias("title"),
            pl.col("birthday").alias("birth_year"),
            pl.col(rating).alias("rating"),
            pl.col(games).alias("games"),
            pl.col(k).alias("k"),
            "flag",
        )
        name = FIDE_LISTS[kind] if named else None
        lists.append(ReadList(name, Kind.FIDE, as_kind(Kind.FIDE, rows)))
    return lists
