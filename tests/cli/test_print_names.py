"""Issue 47: paper that prints any name. A chess event registered through the command line with
a 190-character name, Chinese, Japanese and Korean names, and a Javanese name no installed font
can show; its pairings, slips and players list printed by `arbiter print` and read back with
pypdfium2.

* Every character's box lies inside the page (the long name is shortened in its column, and on
  the slip; the players' list holds it whole, over several lines).
* The text layer holds each CJK name as registered (Noto CJK installed: Debian's
  fonts-noto-cjk, which CI installs).
* The Javanese name is named on stderr, once per document, and printed as ``?``, never as
  empty boxes. Expected names are those the test registered."""

from __future__ import annotations

import os
from pathlib import Path

import pypdfium2 as pdfium
import pytest

from tests.process import arbiter_run

LONG = ("Brzęczyszczykiewicz-" * 9)[:175] + ", Grzegorz Anna"
CJK = ("王, 芳", "山田, たろう", "김, 민준")
JAVANESE = "ꦲꦏ꧀ꦱꦫ, Jawa"
NAMES = (LONG, *CJK, JAVANESE, "Berg, Anna")


def _ok(store: Path, *args: str) -> str:
    done = arbiter_run(store, *args)
    assert done.returncode == 0, (args, done.stderr)
    return done.stderr


Box = tuple[float, float, float, float]


def _read(path: Path) -> list[tuple[str, list[Box], tuple[float, float]]]:
    """Each page's text, its characters' boxes and its size."""
    pdf = pdfium.PdfDocument(str(path))
    try:
        out = []
        for page in pdf:
            text = page.get_textpage()
            boxes = [text.get_charbox(i) for i in range(text.count_chars())]
            out.append((text.get_text_range(), boxes, page.get_size()))
        return out
    finally:
        pdf.close()


@pytest.fixture(scope="module")
def event(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from pipelines.paper.fonts import cjk_installed

    if not cjk_installed():
        if os.environ.get("ARBITER_REQUIRE_CJK_FONTS"):
            pytest.fail("no Noto CJK font here (apt-get install fonts-noto-cjk)")
        pytest.skip("no Noto CJK font here (apt-get install fonts-noto-cjk)")
    store = tmp_path_factory.mktemp("names") / "s.duckdb"
    _ok(store, "tournament", "create", "--name", "Venue Open", "--system", "dutch", "--id", "v")
    for i, name in enumerate(NAMES):
        _ok(store, "player", "add", "v", "--name", name, "--rating", str(2100 - 100 * i))
    _ok(store, "pair", "v")
    return store


@pytest.mark.parametrize("doc", ["pairings", "slips", "players"])
def test_every_name_inside_the_page(event: Path, tmp_path: Path, doc: str) -> None:
    assert len(LONG) == 190
    out = tmp_path / f"{doc}.pdf"
    said = _ok(event, "print", "v", doc, "-o", str(out))
    pages = _read(out)
    for _, boxes, (w, h) in pages:
        assert boxes
        for left, bottom, right, top in boxes:
            assert 0 <= left <= right <= w, (doc, left, right, w)
            assert 0 <= bottom <= top <= h, (doc, bottom, top, h)
    text = "".join(t for t, _, _ in pages)
    flat = "".join(text.split())
    for name in CJK:  # the CJK names in the text layer, as registered
        assert name in text, (doc, name)
    assert JAVANESE not in text
    assert "?????, Jawa" in text  # shown as "?", not as boxes
    warned = [line for line in said.splitlines() if "cannot print" in line]
    assert len(warned) == 1, said
    assert JAVANESE in warned[0]
    assert str(out) in warned[0]
    if doc == "players":  # the whole name, over several lines
        assert "".join(LONG.split()) in flat
    else:  # shortened in its column, or on the slip
        assert LONG not in text
        assert "Brzęczyszczykiewicz-Brzęczyszczykiewicz-" in text
        assert "…" in text
    if doc == "slips":  # the pairing number kept after the shortened name
        assert "… (1)" in text


def test_html_wraps_long_names(event: Path, tmp_path: Path) -> None:
    out = tmp_path / "p.html"
    _ok(event, "print", "v", "pairings", "-f", "html", "-o", str(out))
    page = out.read_text(encoding="utf-8")
    assert LONG in page  # the browser wraps it (overflow-wrap), nothing is cut
    assert "overflow-wrap: anywhere" in page
