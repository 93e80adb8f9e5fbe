"""The fonts a PDF prints with, and the fallback from one to the next, character by character.

* DejaVu Sans (embedded) when the system has it, else the PDF's own Helvetica: Latin, Greek,
  Cyrillic and every accented letter.
* Chinese, Japanese and Korean: Adobe's standard CJK fonts (STSong-Light, HeiseiMin-W3,
  HYGothic-Medium), which every PDF reader maps to an installed CJK font, used when this
  system has one (Noto Sans/Serif CJK: Debian's ``fonts-noto-cjk``), so that what prints here
  is what the file shows. Without it a CJK name cannot print.
* A character no font has is printed as ``?`` and the text is named by :func:`unprintable`,
  so that the command says so instead of printing empty boxes.

A text is drawn as runs, each in the font that has its characters (:func:`runs`); widths are
measured the same way (:func:`width`).
"""

from __future__ import annotations

import functools
import unicodedata
from html import escape
from pathlib import Path

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.cidfonts import UnicodeCIDFont
from reportlab.pdfbase.ttfonts import TTFont

__all__ = [
    "BOLD",
    "CJK_FOLDERS",
    "DEJAVU",
    "FONT",
    "markup",
    "printable",
    "runs",
    "shorten",
    "unprintable",
    "width",
]

DEJAVU = (Path("/usr/share/fonts/truetype/dejavu"), Path("/usr/share/fonts/dejavu-sans-fonts"))
"""Where Debian/Ubuntu and Fedora put DejaVu Sans: Greek, Cyrillic and every accented letter."""

CJK_FOLDERS = (
    Path("/usr/share/fonts/opentype/noto"),  # Debian, Ubuntu: fonts-noto-cjk
    Path("/usr/share/fonts/noto-cjk"),  # Arch
    Path("/usr/share/fonts/google-noto-sans-cjk-vf-fonts"),  # Fedora
    Path("/usr/share/fonts/google-noto-cjk"),
)
"""Where systems put Noto Sans/Serif CJK."""

_CJK_FONTS = {"han": "STSong-Light", "kana": "HeiseiMin-W3", "hangul": "HYGothic-Medium"}
"""Adobe's standard CJK fonts (reportlab knows their metrics; readers map them to a CJK font
installed there), one for Chinese, Japanese and Korean."""


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


@functools.cache
def _has(font: str, char: str) -> bool:
    """Whether ``font`` (the main one) has a glyph for ``char``."""
    if font.startswith("DejaVu"):
        return ord(char) in pdfmetrics.getFont(font).face.charToGlyph
    try:
        char.encode("cp1252")  # Helvetica's WinAnsi letters
    except UnicodeEncodeError:
        return False
    return True


def _script(char: str) -> str | None:
    """``han``, ``kana`` or ``hangul`` for a CJK character, else None."""
    code = ord(char)
    if 0x3040 <= code <= 0x30FF or 0x31F0 <= code <= 0x31FF or 0xFF66 <= code <= 0xFF9F:
        return "kana"
    if 0xAC00 <= code <= 0xD7AF or 0x1100 <= code <= 0x11FF or 0x3130 <= code <= 0x318F:
        return "hangul"
    if (
        0x4E00 <= code <= 0x9FFF
        or 0x3400 <= code <= 0x4DBF
        or 0xF900 <= code <= 0xFAFF
        or 0x3000 <= code <= 0x303F
        or 0xFF00 <= code <= 0xFFEF
    ):
        return "han"
    return None


@functools.cache
def cjk_installed() -> bool:
    """Whether this system has a Noto CJK font (what the CJK fallback is shown with)."""
    return any(any(folder.glob("Noto*CJK*")) for folder in CJK_FOLDERS if folder.is_dir())


def _cjk_font(text: str) -> str | None:
    """The CJK font of ``text``: Korean when it holds Hangul, Japanese when it holds kana,
    else Chinese; None when this system cannot show CJK."""
    if not cjk_installed():
        return None
    scripts = {_script(c) for c in text}
    kind = "hangul" if "hangul" in scripts else "kana" if "kana" in scripts else "han"
    name = _CJK_FONTS[kind]
    if name not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(UnicodeCIDFont(name))
    return name


def runs(text: str, bold: bool = False) -> list[tuple[str, str]]:
    """``text`` as (piece, font) runs: the main font where it has the glyph, the CJK fallback
    for CJK characters, ``?`` in the main font for a character no font has."""
    main = BOLD if bold else FONT
    cjk: str | None = None
    out: list[tuple[str, str]] = []
    for char in text:
        font, shown = main, char
        if not _has(main, char):
            if _script(char) is not None:
                cjk = cjk or _cjk_font(text)
            if cjk is not None and _script(char) is not None:
                font = cjk
            else:  # no font has it: a mark is left out, a letter shown as "?"
                shown = "" if unicodedata.category(char) in ("Cf", "Mn") else "?"
        if out and out[-1][1] == font:
            out[-1] = (out[-1][0] + shown, font)
        elif shown:
            out.append((shown, font))
    return out


def printable(text: str) -> bool:
    """Whether every character of ``text`` has a glyph in some font."""
    return all(
        _has(FONT, c) or (_script(c) is not None and cjk_installed())
        or unicodedata.category(c) in ("Cf", "Mn")
        for c in text
    )  # fmt: skip


def unprintable(texts: list[str]) -> list[str]:
    """Those of ``texts`` (once each, in order) that hold a character no font has."""
    seen: dict[str, None] = {}
    for text in texts:
        if text not in seen and not printable(text):
            seen[text] = None
    return list(seen)


def width(text: str, size: float, bold: bool = False) -> float:
    """The width of ``text`` at ``size`` points, each run in its font."""
    return float(sum(pdfmetrics.stringWidth(p, font, size) for p, font in runs(text, bold)))


def markup(text: str, bold: bool = False) -> str:
    """``text`` as Paragraph markup, each run in its font."""
    return "".join(
        f'<font name="{font}">{escape(piece)}</font>' for piece, font in runs(text, bold)
    )


def shorten(text: str, room: float, size: float, bold: bool = False, keep: str = "") -> str:
    """``text`` cut to fit ``room`` points at ``size`` (ending in ``…``), or whole if it fits;
    a ``keep`` at its end (a pairing number) is kept whole after the ellipsis."""
    if width(text, size, bold) <= room:
        return text
    if keep and text.endswith(keep):
        head = text.removesuffix(keep)
        return shorten(head, room - width(keep, size, bold), size, bold) + keep
    low, high = 0, len(text)
    while low < high:  # the longest prefix that fits with its ellipsis
        mid = (low + high + 1) // 2
        if width(text[:mid].rstrip() + "…", size, bold) <= room:
            low = mid
        else:
            high = mid - 1
    return text[:low].rstrip() + "…"
