"""The new FIDE list in FIDE's TXT layout, written in parts (a million players are never
held whole): every part's lines take the widths of the whole list."""

from __future__ import annotations

import polars as pl

from pipelines.jobs.fide_list_xml import fide_txt_parts

# Three players with a FIDE id (the longest name is in the last part) and one arbiter player
# without, whom the FIDE layout leaves out.
LISTING = pl.DataFrame(
    {
        "fide_id": ["8603405", "1503014", "8603677", None],
        "name": ["Hou, Yifan", "Ding, Liren", "Carlsen, Magnus", "Local, Player"],
        "country": ["CHN", "CHN", "NOR", "USA"],
        "sex": ["F", "M", "M", "M"],
        "title": ["GM", "GM", None, None],
        "rating": [2633, None, 2837, 1500],
        "games": [0, 0, 9, 3],
        "k": [10, None, 10, 40],
        "birth_year": [1994, 1992, 1990, None],
        "flag": ["w", "i", None, None],
    }
)

# FIDE's combined TXT list (players_list_foa.txt): each column as wide as its longest value or
# its header word, and one space; the last column (Flag) not padded. Worked out by hand: Name is
# 16 wide for "Carlsen, Magnus" (in the second part), the other types' columns are empty.
WIDTHS = {
    "ID Number": 10, "Name": 16, "Fed": 4, "Sex": 4, "Tit": 4, "WTit": 5, "OTit": 5, "FOA": 4,
    "SRtng": 6, "SGm": 4, "SK": 3, "RRtng": 6, "RGm": 4, "Rk": 3, "BRtng": 6, "BGm": 4, "BK": 3,
    "B-day": 6, "Flag": 0,
}  # fmt: skip
ROWS = [
    ["8603405", "Hou, Yifan", "CHN", "F", "GM", "", "", "", "2633", "0", "10"]
    + [""] * 6
    + ["1994", "w"],
    ["1503014", "Ding, Liren", "CHN", "M", "GM", "", "", "", "", "0", ""]
    + [""] * 6
    + ["1992", "i"],
    ["8603677", "Carlsen, Magnus", "NOR", "M", "", "", "", "", "2837", "9", "10"]
    + [""] * 6
    + ["1990", ""],
]


def _line(values: list[str]) -> str:
    return "".join(v.ljust(w) for v, w in zip(values, WIDTHS.values(), strict=True))


def test_the_txt_list_in_parts_has_the_widths_of_the_whole() -> None:
    parts = [bytes(p) for p in fide_txt_parts(LISTING, None, rows_per_part=2)]
    assert len(parts) == 3  # the header, then two parts of at most two players
    text = b"".join(parts).decode()
    assert text == "".join(_line(r) + "\n" for r in [list(WIDTHS), *ROWS])
    assert b"".join(fide_txt_parts(LISTING, None)) == text.encode()  # in one part
