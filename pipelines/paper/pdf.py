"""A document as PDF (reportlab's platypus): the event's header on every page, "page i of n"
at the foot, tables whose header row repeats on each page and whose rows are never split (a
platypus table breaks between rows only), slips and cards drawn as blocks that never split."""

from __future__ import annotations

import io
import re
from typing import Any

from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, landscape, letter
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import (
    BaseDocTemplate,
    Flowable,
    Frame,
    PageTemplate,
    Paragraph,
    Spacer,
    TableStyle,
)
from reportlab.platypus import Table as PdfTable

from pipelines.paper.documents import Card, Document, Slip, Table
from pipelines.paper.fonts import BOLD, DEJAVU, FONT, markup, runs, shorten, width

__all__ = ["DEJAVU", "PAPERS", "to_pdf"]

PAPERS: dict[str, tuple[float, float]] = {"a4": A4, "letter": letter}
"""Paper sizes in points: A4 595×842, Letter 612×792."""


MARGIN = 12 * mm
HEAD = 20 * mm  # the event's header at the top of each page
FOOT = 10 * mm  # "page i of n"
PAD = 3.0  # a cell's left and right padding, points
SHARE = 0.4  # the widest a text column may be, as a share of the page's width
SIZES = (9.0, 8.0, 7.0, 6.5, 6.0, 5.5, 5.0)  # font sizes tried until a table fits the width


def _numbered(page: tuple[float, float]) -> type[Canvas]:
    """A canvas that writes "page i of n" on each page once it knows n."""

    class Numbered(Canvas):  # type: ignore[misc]  # reportlab is untyped
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self._pages: list[dict[str, Any]] = []

        def showPage(self) -> None:
            self._pages.append(dict(self.__dict__))
            self._startPage()

        def save(self) -> None:
            total = len(self._pages)
            for i, state in enumerate(self._pages, start=1):
                self.__dict__.update(state)
                draw(self, page[0] - MARGIN, MARGIN, f"page {i} of {total}", 8, align="r")
                super().showPage()
            super().save()

    return Numbered


def draw(
    c: Canvas,
    x: float,
    y: float,
    text: str,
    size: float,
    *,
    bold: bool = False,
    align: str = "l",
    room: float | None = None,
    smallest: float | None = None,
) -> None:
    """``text`` at (x, y), each run in its font; aligned l(eft), r(ight) or c(entre) on x.
    With ``room``: a text wider than that shrinks, down to ``smallest`` points, then is
    shortened (ending in ``…``) so that it never runs past it."""
    if room is not None:
        floor = smallest or size
        while size > floor and width(text, size, bold) > room:
            size = max(floor, size - 0.5)
        number = re.search(r" \(\d+\)$", text)  # a slip's "(pairing number)" stays whole
        text = shorten(text, room, size, bold, keep=number.group(0) if number else "")
    wide = width(text, size, bold)
    x -= {"l": 0.0, "r": wide, "c": wide / 2}[align]
    for piece, font in runs(text, bold):
        c.setFont(font, size)
        c.drawString(x, y, piece)
        x += c.stringWidth(piece, font, size)


_EDGE = 2 * PAD + 1  # a cell's padding and rule


def _widths(table: Table, size: float) -> list[float]:
    cells = [table.columns, *table.rows]
    return [
        max(width(row[i], size, bold=row is table.columns) for row in cells) + _EDGE
        for i in range(len(table.columns))
    ]


def _caps(table: Table, widths: list[float], room: float) -> dict[int, float]:
    """The widest text columns' cap so that the table fits ``room`` (water-filling: the
    widest columns are brought down to one width, the others kept); {} when it fits."""
    if sum(widths) <= room:
        return {}
    free = [i for i, a in enumerate(table.align) if a == "l"]
    fixed = sum(w for i, w in enumerate(widths) if i not in free)
    budget = room - fixed
    ordered = sorted(widths[i] for i in free)
    cap = ordered[-1]
    for n in range(len(ordered), 0, -1):  # the n widest share what the others leave
        level = (budget - sum(ordered[: len(ordered) - n])) / n
        cap = level
        if len(ordered) == n or level >= ordered[len(ordered) - n - 1]:
            break
    cap = max(cap, 12 * mm)
    return {i: cap for i in free if widths[i] > cap}


def _fitted(table: Table, room: float) -> tuple[float, list[float], dict[int, float]]:
    """The font size, the column widths and the caps of the text columns whose long texts are
    shortened (or wrapped): the largest size at which the table fits with no text column
    wider than ``SHARE`` of the page (a name of 190 letters does not shrink the others);
    at the smallest size, the widest text columns brought down until it fits."""
    longest = SHARE * room
    free = [i for i, a in enumerate(table.align) if a == "l"]
    for size in SIZES:
        widths = _widths(table, size)
        caps = {i: longest for i in free if widths[i] > longest}
        capped = [caps.get(i, w) for i, w in enumerate(widths)]
        if sum(capped) <= room:
            return size, capped, caps
    caps = _caps(table, capped, room)
    caps |= {i: c for i, c in enumerate(capped) if i in free and i not in caps and c < widths[i]}
    return size, [caps.get(i, w) for i, w in enumerate(capped)], caps


def _table(table: Table, room: float) -> list[Flowable]:
    size, widths, caps = _fitted(table, room)
    cell = ParagraphStyle("cell", fontName=FONT, fontSize=size, leading=size * 1.2)
    long = ParagraphStyle("long", parent=cell, wordWrap="CJK")

    def shown(text: str, i: int, head: bool) -> Any:
        if i in caps and not head:
            if i in table.wrap:  # printed whole, over as many lines as it takes
                fits = all(width(w, size) <= caps[i] - _EDGE for w in text.split())
                return Paragraph(markup(text), cell if fits else long)
            text = shorten(text, caps[i] - _EDGE, size)
        pieces = runs(text, head)
        if all(f in (FONT, BOLD) for _, f in pieces):
            return "".join(p for p, _ in pieces)
        return Paragraph(markup(text, head), cell)

    style = [
        ("FONT", (0, 0), (-1, -1), FONT, size),
        ("FONT", (0, 0), (-1, 0), BOLD, size),
        ("LEADING", (0, 0), (-1, -1), size * 1.2),
        ("LEFTPADDING", (0, 0), (-1, -1), PAD),
        ("RIGHTPADDING", (0, 0), (-1, -1), PAD),
        ("TOPPADDING", (0, 0), (-1, -1), 1.5),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5),
        ("BACKGROUND", (0, 0), (-1, 0), colors.Color(0.85, 0.85, 0.85)),
        ("LINEBELOW", (0, 0), (-1, -1), 0.25, colors.grey),
        ("BOX", (0, 0), (-1, -1), 0.5, colors.black),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        *(
            ("ALIGN", (i, 0), (i, -1), {"l": "LEFT", "r": "RIGHT", "c": "CENTER"}[a])
            for i, a in enumerate(table.align)
        ),
    ]
    out: list[Flowable] = []
    if table.caption:
        out += [Spacer(1, 4 * mm), Paragraph(markup(table.caption, True), ParagraphStyle("c"))]
        out.append(Spacer(1, 2 * mm))
    rows = [
        [shown(text, i, head=r == 0) for i, text in enumerate(row)]
        for r, row in enumerate([table.columns, *table.rows])
    ]
    out.append(
        PdfTable(rows, colWidths=widths, repeatRows=1, style=TableStyle(style), hAlign="LEFT")
    )
    return out


class _Block(Flowable):  # type: ignore[misc]  # reportlab is untyped
    """A slip or a card: a fixed-size block with a dashed cut line under it; never split."""

    def __init__(self, item: Slip | Card, doc: Document, width: float, height: float) -> None:
        super().__init__()
        self.item, self.doc, self.width, self.height = item, doc, width, height

    def wrap(self, *_: float) -> tuple[float, float]:
        return self.width, self.height

    def draw(self) -> None:
        c: Canvas = self.canv
        w, h = self.width, self.height
        c.saveState()
        c.setDash(4, 3)
        c.setLineWidth(0.4)
        c.line(0, 0, w, 0)
        c.setDash()
        if isinstance(self.item, Card):
            self._card(c, self.item, w, h)
        else:
            self._slip(c, self.item, w, h)
        c.restoreState()

    def _card(self, c: Canvas, card: Card, w: float, h: float) -> None:
        draw(c, w / 2, h - 14 * mm, self.doc.event, 14, align="c", room=w, smallest=8)
        draw(c, w / 2, h - 21 * mm, "Board", 14, align="c")
        size = min(h * 0.55, 260.0)
        draw(c, w / 2, h * 0.5 - size * 0.38, str(card.board), size, bold=True, align="c")

    def _slip(self, c: Canvas, slip: Slip, w: float, h: float) -> None:
        top = h - 8 * mm
        draw(c, 0, top, f"Board {slip.board}", 11, bold=True)
        board = width(f"Board {slip.board}", 11, bold=True) + 6 * mm
        heading = f"{self.doc.event} · {self.doc.title.split(', ')[-1]}"
        draw(c, w, top, heading, 9, align="r", room=w - board, smallest=6)
        draw(c, 0, top - 8 * mm, f"White: {slip.white}", 10, room=w, smallest=7)
        draw(c, 0, top - 14 * mm, f"Black: {slip.black}", 10, room=w, smallest=7)
        if slip.note:
            draw(c, 0, top - 19 * mm, slip.note, 9, room=w, smallest=6)
        x, y = 0.0, top - 27 * mm
        for choice in slip.results:
            c.rect(x, y - 1, 9, 9)
            draw(c, x + 13, y, choice, 10)
            x += 13 + width(choice, 10) + 12 * mm
        y -= 12 * mm
        half = w / 2 - 5 * mm
        c.line(0, y, half, y)
        c.line(w - half, y, w, y)
        draw(c, 0, y - 10, "White's signature", 8)
        draw(c, w - half, y - 10, "Black's signature", 8)


def to_pdf(doc: Document, paper: str) -> bytes:
    """`doc` as a PDF on `paper` (``a4`` or ``letter``); the wall chart in landscape."""
    page = landscape(PAPERS[paper]) if doc.landscape else PAPERS[paper]
    width_ = page[0] - 2 * MARGIN
    body = page[1] - 2 * MARGIN - HEAD - FOOT
    frame = Frame(MARGIN, MARGIN + FOOT, width_, body, 0, 0, 0, 0, id="body")

    def header(canvas: Canvas, _: object) -> None:
        canvas.saveState()
        y = page[1] - MARGIN - 5 * mm
        draw(canvas, MARGIN, y, doc.event, 13, bold=True, room=width_, smallest=8)
        draw(canvas, MARGIN, y - 6 * mm, doc.title, 10, bold=True, room=width_, smallest=7)
        draw(canvas, MARGIN, y - 11 * mm, doc.details, 8.5, room=width_, smallest=6)
        canvas.setLineWidth(0.6)
        canvas.line(MARGIN, y - 13 * mm, page[0] - MARGIN, y - 13 * mm)
        canvas.restoreState()

    out = io.BytesIO()
    template = BaseDocTemplate(
        out, pagesize=page, title=f"{doc.event}: {doc.title}", author="arbiter",
        leftMargin=MARGIN, rightMargin=MARGIN, topMargin=MARGIN, bottomMargin=MARGIN,
    )  # fmt: skip
    template.addPageTemplates([PageTemplate(id="page", frames=[frame], onPage=header)])
    story: list[Flowable] = []
    for table in doc.tables:
        story += _table(table, width_)
    story += [_Block(s, doc, width_, body / 4 - 0.01) for s in doc.slips]
    story += [_Block(c, doc, width_, body / 2 - 0.01) for c in doc.cards]
    if not story:
        story.append(Paragraph("Nothing to print.", ParagraphStyle("n", fontName=FONT)))
    template.build(story, canvasmaker=_numbered(page))
    return out.getvalue()
