"""A document as PDF (reportlab's platypus): the event's header on every page, "page i of n"
at the foot, tables whose header row repeats on each page and whose rows are never split (a
platypus table breaks between rows only), slips and cards drawn as blocks that never split."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, landscape, letter
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfbase.ttfonts import TTFont
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

__all__ = ["PAPERS", "to_pdf"]

PAPERS: dict[str, tuple[float, float]] = {"a4": A4, "letter": letter}
"""Paper sizes in points: A4 595×842, Letter 612×792."""

DEJAVU = (Path("/usr/share/fonts/truetype/dejavu"), Path("/usr/share/fonts/dejavu-sans-fonts"))
"""Where Debian/Ubuntu and Fedora put DejaVu Sans: Greek, Cyrillic and every accented letter."""


def _fonts() -> tuple[str, str]:
    """DejaVu Sans (embedded) when the system has it, else the PDF's own Helvetica (Western
    European letters only)."""
    for folder in DEJAVU:
        regular, bold = folder / "DejaVuSans.ttf", folder / "DejaVuSans-Bold.ttf"
        if regular.is_file() and bold.is_file():
            if "DejaVuSans" not in pdfmetrics.getRegisteredFontNames():
                pdfmetrics.registerFont(TTFont("DejaVuSans", str(regular)))
                pdfmetrics.registerFont(TTFont("DejaVuSans-Bold", str(bold)))
            return "DejaVuSans", "DejaVuSans-Bold"
    return "Helvetica", "Helvetica-Bold"


FONT, BOLD = _fonts()
MARGIN = 12 * mm
HEAD = 20 * mm  # the event's header at the top of each page
FOOT = 10 * mm  # "page i of n"
PAD = 3.0  # a cell's left and right padding, points
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
                self.setFont(FONT, 8)
                self.drawRightString(page[0] - MARGIN, MARGIN, f"page {i} of {total}")
                super().showPage()
            super().save()

    return Numbered


def _widths(table: Table, size: float) -> list[float]:
    cells = [table.columns, *table.rows]
    return [
        max(stringWidth(row[i], BOLD if row is table.columns else FONT, size) for row in cells)
        + 2 * PAD
        + 1
        for i in range(len(table.columns))
    ]


def _table(table: Table, width: float) -> list[Flowable]:
    size = SIZES[-1]
    for size in SIZES:
        if sum(_widths(table, size)) <= width:
            break
    widths = _widths(table, size)
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
        *(
            ("ALIGN", (i, 0), (i, -1), {"l": "LEFT", "r": "RIGHT", "c": "CENTER"}[a])
            for i, a in enumerate(table.align)
        ),
    ]
    out: list[Flowable] = []
    if table.caption:
        out += [Spacer(1, 4 * mm), Paragraph(table.caption, ParagraphStyle("c", fontName=BOLD))]
        out.append(Spacer(1, 2 * mm))
    rows = [list(table.columns), *(list(r) for r in table.rows)]
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
        c.setFont(FONT, 14)
        c.drawCentredString(w / 2, h - 14 * mm, self.doc.event)
        c.drawCentredString(w / 2, h - 21 * mm, "Board")
        size = min(h * 0.55, 260.0)
        c.setFont(BOLD, size)
        c.drawCentredString(w / 2, h * 0.5 - size * 0.38, str(card.board))

    def _slip(self, c: Canvas, slip: Slip, w: float, h: float) -> None:
        top = h - 8 * mm
        c.setFont(BOLD, 11)
        c.drawString(0, top, f"Board {slip.board}")
        c.setFont(FONT, 9)
        c.drawRightString(w, top, f"{self.doc.event} · {self.doc.title.split(', ')[-1]}")
        c.setFont(FONT, 10)
        c.drawString(0, top - 8 * mm, f"White: {slip.white}")
        c.drawString(0, top - 14 * mm, f"Black: {slip.black}")
        if slip.note:
            c.setFont(FONT, 9)
            c.drawString(0, top - 19 * mm, slip.note)
        x, y = 0.0, top - 27 * mm
        c.setFont(FONT, 10)
        for choice in slip.results:
            c.rect(x, y - 1, 9, 9)
            c.drawString(x + 13, y, choice)
            x += 13 + stringWidth(choice, FONT, 10) + 12 * mm
        y -= 12 * mm
        half = w / 2 - 5 * mm
        c.line(0, y, half, y)
        c.line(w - half, y, w, y)
        c.setFont(FONT, 8)
        c.drawString(0, y - 10, "White's signature")
        c.drawString(w - half, y - 10, "Black's signature")


def to_pdf(doc: Document, paper: str) -> bytes:
    """`doc` as a PDF on `paper` (``a4`` or ``letter``); the wall chart in landscape."""
    page = landscape(PAPERS[paper]) if doc.landscape else PAPERS[paper]
    width = page[0] - 2 * MARGIN
    body = page[1] - 2 * MARGIN - HEAD - FOOT
    frame = Frame(MARGIN, MARGIN + FOOT, width, body, 0, 0, 0, 0, id="body")

    def header(canvas: Canvas, _: object) -> None:
        canvas.saveState()
        y = page[1] - MARGIN - 5 * mm
        canvas.setFont(BOLD, 13)
        canvas.drawString(MARGIN, y, doc.event)
        canvas.setFont(BOLD, 10)
        canvas.drawString(MARGIN, y - 6 * mm, doc.title)
        canvas.setFont(FONT, 8.5)
        canvas.drawString(MARGIN, y - 11 * mm, doc.details)
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
        story += _table(table, width)
    story += [_Block(s, doc, width, body / 4 - 0.01) for s in doc.slips]
    story += [_Block(c, doc, width, body / 2 - 0.01) for c in doc.cards]
    if not story:
        story.append(Paragraph("Nothing to print.", ParagraphStyle("n", fontName=FONT)))
    template.build(story, canvasmaker=_numbered(page))
    return out.getvalue()
