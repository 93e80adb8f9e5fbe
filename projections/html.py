"""Self-contained HTML pages for standings and crosstables.

One file, inline CSS, no scripts and no external resources, so a page can be mailed, put on
any web server or opened from disk. Every text from the event (names, clubs, titles) is
escaped; the table scrolls sideways on a phone with the name column kept in view, and the
place and points sit next to the name (a 390 px phone shows them without scrolling).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from html import escape

from projections.crosstable import Crosstable, as_rows, format_value
from projections.standings import StandingRow

_CSS = """
:root { color-scheme: light dark; --line: #8884; --head: #8882; }
body { font: 15px/1.4 system-ui, sans-serif; margin: 0; padding: 12px; }
h1 { font-size: 1.25rem; margin: 0 0 8px; }
.wrap { overflow-x: auto; -webkit-overflow-scrolling: touch; }
table { border-collapse: collapse; white-space: nowrap; font-variant-numeric: tabular-nums; }
th, td { padding: 4px 8px; border-bottom: 1px solid var(--line); text-align: right; }
th { background: var(--head); position: sticky; top: 0; }
td.name, th.name { text-align: left; position: sticky; left: 0; background: Canvas; }
tbody tr:nth-child(even) td { background-image: linear-gradient(var(--head), var(--head)); }
@media (max-width: 600px) {
  body { padding: 6px; font-size: 14px; } th, td { padding: 3px 5px; }
  td.name { max-width: 11em; overflow: hidden; text-overflow: ellipsis; }
}
"""


def _page(title: str, head: Sequence[str], rows: Iterable[Sequence[str]], name_col: int) -> str:
    def cells(tag: str, values: Sequence[str]) -> str:
        # the name cell carries the full name as a tooltip where a phone cuts it short
        return "".join(
            f'<{tag} class="name" title="{escape(v, quote=True)}">{escape(v)}</{tag}>'
            if i == name_col and tag == "td"
            else f'<{tag} class="name">{escape(v)}</{tag}>'
            if i == name_col
            else f"<{tag}>{escape(v)}</{tag}>"
            for i, v in enumerate(values)
        )

    body = "\n".join(f"<tr>{cells('td', row)}</tr>" for row in rows)
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{escape(title)}</title>\n<style>{_CSS}</style>\n</head>\n<body>\n"
        f"<h1>{escape(title)}</h1>\n"
        '<div class="wrap"><table>\n'
        f"<thead><tr>{cells('th', head)}</tr></thead>\n<tbody>\n{body}\n</tbody>\n"
        "</table></div>\n</body>\n</html>\n"
    )


def page(title: str, head: Sequence[str], rows: Iterable[Sequence[str]], name_col: int) -> str:
    """A page with one table (the team pages use it too)."""
    return _page(title, head, rows, name_col)


def standings_html(title: str, rows: Sequence[StandingRow]) -> str:
    """A standings page: rank, name, rating, federation, points and the tie-break columns."""
    codes = list(rows[0].tiebreaks) if rows else []
    head = ["Rank", "SNo", "Name", "Rtg", "Fed", "Pts", *codes]
    body = [
        [
            str(r.rank),
            str(r.start_rank),
            r.shown_name,
            "" if r.rating is None else str(r.rating),
            r.federation or "",
            format_value(r.points),
            *(format_value(r.tiebreaks.get(c)) for c in codes),
        ]
        for r in rows
    ]
    return _page(title, head, body, name_col=2)


def crosstable_html(table: Crosstable) -> str:
    """A crosstable page; opponents are the row numbers of the table.

    Points come right after the name, so that on a phone a player's row shows number, place,
    name and points in the first screen; the rounds and tie-breaks scroll sideways.
    """
    head, *body = points_after_name(as_rows(table, titles=True))
    return _page(table.title, head, body, name_col=2)


def points_after_name(rows: Sequence[Sequence[str]]) -> list[list[str]]:
    """A crosstable's text rows (`as_rows`) with the points column moved right after the
    name (number, place, name, points, then the rest), as a phone should see it."""
    pts = list(rows[0]).index("Pts")
    return [[*row[:3], row[pts], *row[3:pts], *row[pts + 1 :]] for row in rows]
