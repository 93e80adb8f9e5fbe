"""The published rating list as one self-contained HTML page: search, sort, filter by country.

Rows are rendered on the server with every text escaped; the inline script only reads cell
text (``textContent``) and hides or reorders rows, so a name can never become markup. No
external resources: the page works from disk or any web server. Nothing time-dependent is
written, so the same list gives the same bytes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from html import escape

import polars as pl

__all__ = ["rating_list_html"]

_CSS = """
:root { color-scheme: light dark; --line: #8884; --head: #8882; }
body { font: 15px/1.4 system-ui, sans-serif; margin: 0; padding: 12px; }
h1 { font-size: 1.25rem; margin: 0 0 4px; }
p.meta { margin: 0 0 10px; color: GrayText; font-size: 0.85rem; }
form { display: flex; gap: 8px; flex-wrap: wrap; margin-bottom: 8px; }
.wrap { overflow-x: auto; }
table { border-collapse: collapse; white-space: nowrap; font-variant-numeric: tabular-nums; }
th, td { padding: 4px 8px; border-bottom: 1px solid var(--line); text-align: right; }
th { background: var(--head); position: sticky; top: 0; cursor: pointer; user-select: none; }
td.t, th.t { text-align: left; }
td.n, thead th:nth-child(2) { position: sticky; left: 0; background: Canvas; }
thead th:nth-child(2) { z-index: 2; background: linear-gradient(var(--head), var(--head)), Canvas; }
tr.prov td { color: GrayText; }
@media (max-width: 600px) {
  body { padding: 6px; font-size: 14px; } th, td { padding: 3px 5px; }
  td.t.n { max-width: 10em; overflow: hidden; text-overflow: ellipsis; }
}
"""

_SCRIPT = """
(function () {
  var COUNTRY = %d;
  var body = document.querySelector('tbody');
  var rows = Array.prototype.slice.call(body.rows);
  var q = document.getElementById('q'), c = document.getElementById('country');
  var o = document.getElementById('official');
  function apply() {
    var text = q.value.trim().toLowerCase(), country = c.value, shown = 0;
    rows.forEach(function (r) {
      var ok = (!text || r.textContent.toLowerCase().indexOf(text) >= 0)
        && (!country || r.cells[COUNTRY].textContent === country)
        && (!o.checked || !r.classList.contains('prov'));
      r.hidden = !ok; if (ok) { shown++; }
    });
    document.getElementById('shown').textContent = shown;
  }
  var dir = {};
  document.querySelectorAll('th').forEach(function (th, i) {
    th.addEventListener('click', function () {
      var num = th.dataset.num === '1', d = dir[i] = -(dir[i] || -1);
      rows.sort(function (a, b) {
        var x = a.cells[i].textContent, y = b.cells[i].textContent;
        if (num) {
          var nx = x === '' ? Infinity : +x, ny = y === '' ? Infinity : +y;
          return d * (nx - ny);
        }
        return d * x.localeCompare(y);
      });
      rows.forEach(function (r) { body.appendChild(r); });
    });
  });
  [q, c, o].forEach(function (el) { el.addEventListener('input', apply); });
  apply();
})();
"""

_COLUMNS: Sequence[tuple[str, str, bool]] = (
    ("rank", "#", True),
    ("name", "Name", False),
    ("rating", "Rating", True),
    ("country", "Country", False),
    ("margin", "±", True),
    ("games", "Games", True),
    ("player_id", "Id", False),
    ("official", "Official", False),
    ("provisional_reason", "Note", False),
)
"""Place, name and rating first: a phone shows them without scrolling sideways."""


_COUNTRY = [c for c, _, _ in _COLUMNS].index("country")


def _text(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:.0f}"
    return str(value)


def _escaped(value: pl.Expr) -> pl.Expr:
    """`html.escape` (quotes too) of a text column, in polars."""
    for bad, good in (("&", "&amp;"), ("<", "&lt;"), (">", "&gt;"), ('"', "&quot;")):
        value = value.str.replace_all(bad, good, literal=True)
    return value.str.replace_all("'", "&#x27;", literal=True)


def _cell_text(listing: pl.DataFrame, column: str) -> pl.Series:
    """A column as `_text` shows each value (before escaping)."""
    series = listing.get_column(column)
    if series.dtype == pl.Boolean:
        return pl.Series(column, [_text(v) for v in series.to_list()], dtype=pl.String)
    if series.dtype.is_float():  # Python's own rounding of each value, as `_text` does
        return pl.Series(column, [_text(v) for v in series.to_list()], dtype=pl.String)
    return series.cast(pl.String).fill_null("")


def _rows(listing: pl.DataFrame, chart_href: Callable[[str], str] | None) -> list[str]:
    """The page's ``<tr>`` lines, built column-wise (a list of a million players)."""
    if listing.height == 0:
        return []
    frame = pl.DataFrame([_cell_text(listing, c) for c, _, _ in _COLUMNS])
    cells: list[pl.Expr] = []
    for column, _, numeric in _COLUMNS:
        text = _escaped(pl.col(column))
        if column == "name" and chart_href is not None:
            ids = listing.get_column("player_id").cast(pl.String).to_list()
            hrefs = pl.Series([chart_href(str(i)) for i in ids], dtype=pl.String)
            frame = frame.with_columns(hrefs.alias("_href"))
            shown = pl.when(text != "").then(text).otherwise(_escaped(pl.col("player_id")))
            text = pl.concat_str(
                pl.lit('<a href="'), _escaped(pl.col("_href")), pl.lit('">'), shown, pl.lit("</a>")
            )
        css = "t n" if column == "name" else "t"
        opening = "<td>" if numeric else f'<td class="{css}">'
        cells.append(pl.concat_str(pl.lit(opening), text, pl.lit("</td>")))
    official = listing.get_column("official").fill_null(value=False)
    frame = frame.with_columns(official.alias("_official"))
    row = pl.concat_str(
        pl.when(pl.col("_official")).then(pl.lit("<tr>")).otherwise(pl.lit('<tr class="prov">')),
        *cells,
        pl.lit("</tr>"),
    )
    return frame.select(row.alias("row")).get_column("row").to_list()


def rating_list_html(
    title: str,
    listing: pl.DataFrame,
    meta: Mapping[str, str],
    chart_href: Callable[[str], str] | None = None,
) -> str:
    """The page of a list with the columns of ``ratings.csv``.

    ``meta`` is shown under the title (method, as-of date, log position); ``chart_href`` gives
    the link of a player's rating-history chart, relative to the page.
    """
    head = "".join(
        f'<th class="{"" if numeric else "t"}" data-num="{int(numeric)}">{escape(label)}</th>'
        for _, label, numeric in _COLUMNS
    )
    lines = _rows(listing, chart_href)
    countries = sorted({c for c in listing.get_column("country").drop_nulls().to_list() if c})
    options = "".join(
        f'<option value="{escape(c, quote=True)}">{escape(c)}</option>' for c in countries
    )
    info = " · ".join(f"{escape(k)}: {escape(v)}" for k, v in meta.items())
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{escape(title)}</title>\n<style>{_CSS}</style>\n</head>\n<body>\n"
        f'<h1>{escape(title)}</h1>\n<p class="meta">{info}</p>\n'
        '<form onsubmit="return false">'
        '<input id="q" type="search" placeholder="Search name or id" aria-label="Search">'
        '<select id="country" aria-label="Country"><option value="">All countries</option>'
        f"{options}</select>"
        '<label><input id="official" type="checkbox"> official only</label>'
        f'<span><span id="shown">{listing.height}</span> of {listing.height} players</span>'
        "</form>\n"
        f'<div class="wrap"><table>\n<thead><tr>{head}</tr></thead>\n<tbody>\n'
        + "\n".join(lines)
        + f"\n</tbody>\n</table></div>\n<script>{_SCRIPT % _COUNTRY}</script>\n</body>\n</html>\n"
    )
