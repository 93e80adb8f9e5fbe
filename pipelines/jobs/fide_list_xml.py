"""The new FIDE list in FIDE's own layouts: ``fide.xml``, the combined XML list
(``players_list_xml_foa.xml``), and ``fide.txt``, the combined TXT list
(``players_list_foa.txt``), both read by `arbiter ratings import` (:mod:`ingest.lists`).

One ``<player>`` (one TXT line) per player of the run's list with a FIDE id, in the order of
``ratings.csv``:
id, name, federation, sex, title and birth year (from the imported list the run updated), the
run's rating, games and K in the elements of the list's rating type (``rating``/``games``/``k``
for standard, ``rapid_*``, ``blitz_*``), the other types' left empty, and the flag. A player the
run leaves unrated has an empty rating (the import takes him as not on the list).
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import polars as pl
import pyarrow as pa

from ingest.lists.fide import RATING_FIELDS
from ingest.lists.fide_txt import HEADER_FIELDS
from ingest.lists.fide_xml import FIELDS
from ratings.methods import RatingType

__all__ = ["fide_txt_parts", "fide_xml_parts"]


def _escaped(column: str, dtype: pl.DataType) -> pl.Expr:
    """A column as XML text: null as nothing, in a text column ``&``, ``<`` and ``>`` escaped."""
    text = pl.col(column).cast(pl.Utf8).fill_null("")
    if dtype == pl.Utf8:
        text = text.str.replace_many(["&", "<", ">"], ["&amp;", "&lt;", "&gt;"])
    return text


def _values(rating_type: RatingType | None) -> dict[str, str]:
    """The list's columns by the XML element (and TXT column) they fill."""
    rating, games, k = RATING_FIELDS[(rating_type or RatingType.STANDARD).value]
    return {
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


def fide_txt_parts(
    listing: pl.DataFrame, rating_type: RatingType | None, rows_per_part: int = 65_536
) -> Iterator[bytes | memoryview]:
    """``listing`` as FIDE's combined TXT list (``players_list_foa.txt``): a header of FIDE's
    column words, each player's values under them (each column as wide as its longest value
    and one space; the reader takes the columns from the header). In parts to write one after
    the other, as :func:`fide_xml_parts`: the widths are measured first, then each part's lines
    are made (a million players' text columns are never held at once)."""
    values = _values(rating_type)
    rows = listing.filter(pl.col("fide_id").is_not_null())
    columns = {
        word: pl.col(values[field]).cast(pl.Utf8).fill_null("") if field in values else None
        for word, field in HEADER_FIELDS.items()
    }
    longest = rows.select(
        [
            (expr.str.len_chars().max() if expr is not None else pl.lit(0))
            .fill_null(0)
            .cast(pl.Int64)
            .alias(word)
            for word, expr in columns.items()
        ]
    ).row(0)
    words = list(columns)
    widths = {word: max(len(word), int(n)) + 1 for word, n in zip(words, longest, strict=True)}
    last = words[-1]
    header = "".join(w if w == last else w.ljust(widths[w]) for w in words)
    cells: list[pl.Expr] = []
    for word, expr in columns.items():
        text = expr if expr is not None else pl.lit("")
        cells.append(text if word == last else text.str.pad_end(widths[word]))
    cells.append(pl.lit("\n"))
    yield (header + "\n").encode("utf-8")
    for start in range(0, rows.height, rows_per_part):
        part = rows.slice(start, rows_per_part).select(pl.concat_str(cells).alias("line"))
        yield _joined(part.get_column("line"))


def fide_xml_parts(
    listing: pl.DataFrame, rating_type: RatingType | None, rows_per_part: int = 65_536
) -> Iterator[bytes | memoryview]:
    """``listing`` (:data:`pipelines.jobs.fide_lists.OUTPUT_COLUMNS` with sex, title and
    birth_year) as FIDE's XML list, in parts to write one after the other: a million players'
    half gigabyte is never held whole."""
    values = _values(rating_type)
    rows = listing.filter(pl.col("fide_id").is_not_null())
    cells: list[pl.Expr] = []
    text = "<player>\n"
    for name in FIELDS:  # the text between two values is one literal
        text += f"<{name}>"
        if name in values:
            cells += [pl.lit(text), _escaped(values[name], rows.schema[values[name]])]
            text = ""
        text += f"</{name}>\n"
    cells.append(pl.lit(text + "</player>\n"))
    yield b'<?xml version="1.0" encoding="UTF-8"?>\n<playerslist>\n'
    for start in range(0, rows.height, rows_per_part):
        part = rows.slice(start, rows_per_part).select(pl.concat_str(cells).alias("player"))
        yield _joined(part.get_column("player"))
    yield b"</playerslist>\n"


def _joined(texts: pl.Series) -> memoryview:
    """The UTF-8 bytes of ``texts`` (no null) one after the other: Arrow's data buffer of the
    column, the span its offsets give."""
    array = texts.to_arrow()
    if array.type != pa.large_string():
        array = array.cast(pa.large_string())
    if len(array) == 0:
        return memoryview(b"")
    offsets = np.frombuffer(array.buffers()[1], dtype=np.int64)
    data = array.buffers()[2]
    return memoryview(data)[int(offsets[array.offset]) : int(offsets[array.offset + len(array)])]
