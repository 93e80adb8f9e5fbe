"""The new FIDE list in FIDE's own layout: ``fide.xml``, the combined XML list
(``players_list_xml_foa.xml``) that `arbiter ratings import` reads (:mod:`ingest.lists.fide_xml`).

One ``<player>`` per player of the run's list with a FIDE id, in the order of ``ratings.csv``:
id, name, federation, sex, title and birth year (from the imported list the run updated), the
run's rating, games and K in the elements of the list's rating type (``rating``/``games``/``k``
for standard, ``rapid_*``, ``blitz_*``), the other types' left empty, and the flag. A player the
run leaves unrated has an empty rating (the import takes him as not on the list).
"""

from __future__ import annotations

import io

import polars as pl

from ingest.lists.fide import RATING_FIELDS
from ingest.lists.fide_xml import FIELDS
from ratings.methods import RatingType

__all__ = ["fide_xml_bytes"]


def _escaped(column: str, dtype: pl.DataType) -> pl.Expr:
    """A column as XML text: null as nothing, in a text column ``&``, ``<`` and ``>`` escaped."""
    text = pl.col(column).cast(pl.Utf8).fill_null("")
    if dtype == pl.Utf8:
        for raw, entity in (("&", "&amp;"), ("<", "&lt;"), (">", "&gt;")):
            text = text.str.replace_all(raw, entity, literal=True)
    return text


def fide_xml_bytes(listing: pl.DataFrame, rating_type: RatingType | None) -> bytes:
    """``listing`` (:data:`pipelines.jobs.fide_lists.OUTPUT_COLUMNS` with sex, title and
    birth_year) as FIDE's XML list."""
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
    rows = listing.filter(pl.col("fide_id").is_not_null())
    cells: list[pl.Expr] = []
    text = "<player>\n"
    for name in FIELDS:  # the text between two values is one literal
        text += f"<{name}>"
        if name in values:
            cells += [pl.lit(text), _escaped(values[name], rows.schema[values[name]])]
            text = ""
        text += f"</{name}>\n"
    cells.append(pl.lit(text + "</player>"))
    players = rows.select(pl.concat_str(cells).alias("player"))
    out = io.BytesIO()
    out.write(b'<?xml version="1.0" encoding="UTF-8"?>\n<playerslist>\n')
    players.write_csv(out, include_header=False, quote_style="never", line_terminator="\n")
    out.write(b"</playerslist>\n")
    return out.getvalue()
