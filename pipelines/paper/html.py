"""A document as printable HTML: the same content as the PDF, with a print stylesheet (the
paper's @page size, the header row repeated by the browser, rows and slips never split,
"page i of n" in the page's margin box)."""

from __future__ import annotations

from html import escape

from pipelines.paper.documents import Document, Table

__all__ = ["to_html"]

_SIZES = {"a4": "A4", "letter": "letter"}
_ALIGN = {"l": "left", "r": "right", "c": "center"}


def _css_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("<", "\\3c ") + '"'


def _style(doc: Document, paper: str) -> str:
    size = _SIZES[paper] + (" landscape" if doc.landscape else "")
    running = _css_string(f"{doc.event} · {doc.title}")
    return f"""
@page {{ size: {size}; margin: 12mm;
  @top-left {{ content: {running}; font: 8pt sans-serif; }}
  @bottom-right {{ content: "page " counter(page) " of " counter(pages); font: 8pt sans-serif; }} }}
body {{ font: 9pt sans-serif; margin: 0; }}
header h1 {{ font-size: 13pt; margin: 0; }} header h2 {{ font-size: 10pt; margin: 2pt 0; }}
header p {{ font-size: 8.5pt; margin: 0 0 6pt; border-bottom: 0.6pt solid #000; }}
table {{ border-collapse: collapse; border: 0.5pt solid #000; }}
th {{ background: #d9d9d9; }} th, td {{ padding: 1.5pt 3pt; border-bottom: 0.25pt solid #888; }}
td, .slip p {{ overflow-wrap: anywhere; }}
thead {{ display: table-header-group; }} tr, .slip, .card {{ break-inside: avoid; }}
.slip {{ height: 58mm; border-bottom: 0.4pt dashed #000; padding-top: 4mm; }}
.card {{ height: 125mm; border-bottom: 0.4pt dashed #000; text-align: center; }}
.card .n {{ font: bold 150pt sans-serif; }} .sign {{ display: flex; gap: 10mm; margin-top: 10mm; }}
.sign span {{ flex: 1; border-top: 0.5pt solid #000; font-size: 8pt; }}
.box {{ display: inline-block; width: 9pt; height: 9pt; border: 0.5pt solid #000; }}
@media screen {{ body {{ margin: 1em; }} }}
"""


def _table(table: Table) -> str:
    def cells(row: tuple[str, ...], tag: str) -> str:
        return "".join(
            f'<{tag} style="text-align:{_ALIGN[a]}">{escape(c)}</{tag}>'
            for c, a in zip(row, table.align, strict=True)
        )

    caption = f"<h3>{escape(table.caption)}</h3>" if table.caption else ""
    body = "\n".join(f"<tr>{cells(r, 'td')}</tr>" for r in table.rows)
    head = f"<thead><tr>{cells(table.columns, 'th')}</tr></thead>"
    return f"{caption}<table>{head}\n<tbody>\n{body}\n</tbody></table>"


def to_html(doc: Document, paper: str) -> str:
    """`doc` as one printable HTML page on `paper` (``a4`` or ``letter``)."""
    parts = [_table(t) for t in doc.tables]
    for s in doc.slips:
        boxes = " ".join(f'<span class="box"></span> {escape(r)}&emsp;' for r in s.results)
        note = f"<p>{escape(s.note)}</p>" if s.note else ""
        parts.append(
            f'<div class="slip"><b>Board {s.board}</b><p>White: {escape(s.white)}<br>'
            f"Black: {escape(s.black)}</p>{note}<p>{boxes}</p>"
            "<div class=\"sign\"><span>White's signature</span><span>Black's signature</span>"
            "</div></div>"
        )
    parts += [
        f'<div class="card"><p>{escape(doc.event)}<br>Board</p><div class="n">{c.board}</div></div>'
        for c in doc.cards
    ]
    title = escape(f"{doc.event}: {doc.title}")
    return (
        f'<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>{title}</title>'
        f"<style>{_style(doc, paper)}</style></head><body>\n"
        f"<header><h1>{escape(doc.event)}</h1><h2>{escape(doc.title)}</h2>"
        f"<p>{escape(doc.details)}</p></header>\n" + "\n".join(parts) + "\n</body></html>\n"
    )
