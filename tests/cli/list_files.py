"""Rating-list files in the formats FIDE, the EGD and the AGA publish, written by the tests
(no reference list is kept in the repository): FIDE's combined XML and its TXT lists."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from xml.sax.saxutils import escape

XML_FIELDS = (
    "fideid",
    "name",
    "country",
    "sex",
    "title",
    "w_title",
    "o_title",
    "foa_title",
    "rating",
    "games",
    "k",
    "rapid_rating",
    "rapid_games",
    "rapid_k",
    "blitz_rating",
    "blitz_games",
    "blitz_k",
    "birthday",
    "flag",
)

TXT_COLUMNS = (
    ("ID Number", "fideid", 15),
    ("Name", "name", 61),
    ("Fed", "country", 4),
    ("Sex", "sex", 4),
    ("Tit", "title", 5),
    ("WTit", "w_title", 5),
    ("OTit", "o_title", 15),
    ("FOA", "foa_title", 4),
    ("SRtng", "rating", 6),
    ("SGm", "games", 4),
    ("SK", "k", 3),
    ("RRtng", "rapid_rating", 6),
    ("RGm", "rapid_games", 4),
    ("Rk", "rapid_k", 3),
    ("BRtng", "blitz_rating", 6),
    ("BGm", "blitz_games", 4),
    ("BK", "blitz_k", 3),
    ("B-day", "birthday", 6),
    ("Flag", "flag", 4),
)


def fide_xml(path: Path, players: Iterable[Mapping[str, object]]) -> Path:
    """Write FIDE's combined XML list: one ``<player>`` per mapping (missing fields empty)."""
    with path.open("w", encoding="utf-8") as out:
        out.write('<?xml version="1.0" encoding="UTF-8"?>\n<playerslist>\n')
        for player in players:
            out.write("<player>\n")
            for name in XML_FIELDS:
                value = player.get(name)
                out.write(f"<{name}>{escape(str(value)) if value is not None else ''}</{name}>\n")
            out.write("</player>\n")
        out.write("</playerslist>\n")
    return path


def fide_txt(path: Path, players: Iterable[Mapping[str, object]], month: str | None = None) -> Path:
    """Write a FIDE TXT list: combined, or (``month``: NOV25) one type's, its rating column
    named after the month."""
    columns = list(TXT_COLUMNS)
    if month is not None:
        columns = [c for c in columns if not c[1].startswith(("rapid", "blitz"))]
        columns = [
            (month if h == "SRtng" else "Gms" if h == "SGm" else "K" if h == "SK" else h, f, w)
            for h, f, w in columns
        ]

    def line(values: list[str]) -> str:
        return "".join(v.ljust(w) for v, (_, _, w) in zip(values, columns, strict=True)).rstrip()

    with path.open("w", encoding="utf-8") as out:
        out.write(line([h for h, _, _ in columns]) + "\n")
        for player in players:
            values = [player.get(f) for _, f, _ in columns]
            out.write(line(["" if v is None else str(v) for v in values]) + "\n")
    return path
