"""The new FIDE list in FIDE's own layout: ``fide.xml``, the combined XML list
(``players_list_xml_foa.xml``) that `arbiter ratings import` reads (:mod:`ingest.lists.fide_xml`).

One ``<player>`` per player of the run's list with a FIDE id, in the order of ``ratings.csv``:
id, name, federation, sex, title and birth year (from the imported list the run updated), the
run's rating, games and K in the elements of the list's rating type (``rating``/``games``/``k``
for standard, ``rapid_*``, ``blitz_*``), the other types' left empty, and the flag. A player the
run leaves unrated has an empty rating (the import takes him as not on the list).
"""

from __future__ import annotations

import polars as pl

from ingest.lists.fide import RATING_FIELDS
from ingest.lists.fide_xml import FIELDS
from ratings.methods import RatingType

__all__ = ["fide_xml_bytes"]


def _escaped(column: str) -> pl.Expr:
    """A column as XML text: ``&``, ``<`` and ``>`` escaped, null as nothing."""
    text = pl.col(column).cast(pl.Utf8).fill_null("")
    for raw, entity in (("&", "&amp;"), ("<", "&lt;"), (">", "&gt;")):
        text = text.str.replace_all(raw, entity, literal=True)
    return text


def fide_xml_bytes(
    listing: pl.DataFrame, identity: pl.DataFrame, rating_type: RatingType | None
) -> bytes:
    """``listing`` (:data:`pipelines.jobs.fide_lists.OUTPUT_COLUMNS`) as FIDE's XML list;
    ``identity``: player_id, sex, title, birth_year of the listed players."""
    rating, games, k = RATING_FIELDS[(rating_type or RatingType.STANDARD).value]
    values = {
        "fideid": "fide_id",
        "name": "name",
        "country": "country",
        "sex": "sex",
        "title": "title",
        rating: "rating",
        games: "games",
        k: "k",
        "birthday": "birth_year",
        "flag": "flag",
    }
    rows = listing.filter(pl.col("fide_id").is_not_null()).join(
        identity, on="player_id", how="left", maintain_order="left"
    )
    cells: list[pl.Expr] = [pl.lit("<player>\n")]
    for name in FIELDS:
        cells.append(pl.lit(f"<{name}>"))
        if name in values:
            cells.append(_escaped(values[name]))
        cells.append(pl.lit(f"</{name}>\n"))
    cells.append(pl.lit("</player>\n"))
    players = rows.select(pl.concat_str(cells).alias("xml")).get_column("xml")
    head = '<?xml version="1.0" encoding="UTF-8"?>\n<playerslist>\n'
    return (head + "".join(players.to_list()) + "</playerslist>\n").encode("utf-8")
