"""TRF reader and writer on small hand-written files and on the documented examples."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest

from events.domain import Colour
from events.result_codes import ResultCode
from ingest.errors import IngestError
from ingest.trf import (
    AccelerationRecord,
    ByesRecord,
    ForbiddenPairsRecord,
    HeaderRecord,
    RawRecord,
    RoundEntry,
    TieBreakRecord,
    XxaRecord,
    XxpRecord,
    XxzRecord,
    parse_trf,
)
from projections.exports.trf import to_trf16, write_trf
from tests.conftest import require_testdata

# formats.md 1.4: pairing number 3, round 4 is the pairing-allocated bye.
PLAYER_3 = (
    "001    3      Test0003 Player0003               1567                             3.0    3"
    "     6 b 1     2 w 0     7 b 1  0000 - U     1 w 0"
)


def _parse(text: str, name: str = "t.trf") -> list[object]:
    return list(parse_trf(Path(name), text.encode()).records)


def test_player_record_fields_and_round_blocks() -> None:
    (player,) = parse_trf(Path("t.trf"), PLAYER_3.encode()).players
    assert player.number == 3
    assert player.name == "Test0003 Player0003"
    assert player.rating == 1567
    assert player.points == Decimal("3.0")
    assert player.rank == 3
    assert player.rounds == (
        RoundEntry(6, Colour.BLACK, ResultCode.WIN),
        RoundEntry(2, Colour.WHITE, ResultCode.LOSS),
        RoundEntry(7, Colour.BLACK, ResultCode.WIN),
        RoundEntry(None, Colour.NONE, ResultCode.PAB),
        RoundEntry(1, Colour.WHITE, ResultCode.LOSS),
    )
    assert player.line == 1


def test_write_reproduces_a_generated_line_byte_for_byte() -> None:
    trf = parse_trf(Path("t.trf"), (PLAYER_3 + "\n").encode())
    assert write_trf(trf) == PLAYER_3 + "\n"


def test_titles_sex_and_identity_fields() -> None:
    # Karl Mala style: right-aligned one-letter title, dotted birth date, no federation.
    line = (
        "001    2    m Milov,Leonid                      2482        14101068 1966.02.06"
        "  5.0   24   142 b 1    77 w 1"
    )
    (player,) = parse_trf(Path("t.trf"), line.encode()).players
    assert (player.sex, player.title, player.federation) == ("", "m", "")
    assert (player.fide_id, player.birth_date) == ("14101068", "1966.02.06")


@pytest.mark.parametrize("newline", ["\n", "\r", "\r\n"])
def test_line_endings(newline: str) -> None:
    text = newline.join(["012 Test", "XXR 5", PLAYER_3, ""])
    trf = parse_trf(Path("t.trf"), text.encode())
    assert trf.total_rounds == 5
    assert len(trf.players) == 1
    assert trf.header("012") == "Test"


def test_latin1_fallback_is_a_warning_naming_the_line() -> None:
    text = "012 Test\n" + PLAYER_3.replace("Test0003 Player0003", f"{'Ó Briain, Seán':<19}")
    trf = parse_trf(Path("irish.trf"), text.encode("latin-1"))
    assert trf.players[0].name == "Ó Briain, Seán"
    assert trf.encoding != "utf-8"
    assert [str(w).split(":")[:2] for w in trf.warnings] == [["irish.trf", "2"]]


def test_bad_result_code_names_line_and_column() -> None:
    bad = PLAYER_3.replace("7 b 1", "7 b X")
    with pytest.raises(IngestError) as info:
        parse_trf(Path("bad.trf"), f"012 x\n{bad}\n".encode())
    # Round 3 starts at column 112; the result is at column 119.
    assert str(info.value).startswith("bad.trf:2:119: bad result code in round 3")
    assert "found 'X'" in str(info.value)
    assert isinstance(info.value, ValueError)


def test_bad_colour_and_misaligned_block() -> None:
    with pytest.raises(IngestError, match=r"t.trf:1:107: bad colour in round 2"):
        _parse(PLAYER_3.replace("2 w 0", "2 x 0"))
    with pytest.raises(IngestError, match=r"t.trf:1:.*misaligned round 2"):
        _parse(PLAYER_3.replace("     2 w 0", "    2 w 0 "))


def test_bad_points_and_rounds_records() -> None:
    with pytest.raises(IngestError, match=r"t.trf:1:81: bad points"):
        _parse(PLAYER_3.replace(" 3.0 ", " 3.x "))
    with pytest.raises(IngestError, match=r"t.trf:2:5: bad number of rounds"):
        _parse("012 x\nXXR nine")
    with pytest.raises(IngestError, match=r"t.trf:1:5: bad initial colour"):
        _parse("152 white")


def test_rating_above_9999_is_read_with_a_warning() -> None:
    line = PLAYER_3[:47] + "12345" + PLAYER_3[52:]
    trf = parse_trf(Path("t.trf"), line.encode())
    assert trf.players[0].rating == 12345
    assert "rating above 9999" in str(trf.warnings[0])
    assert parse_trf(Path("u.trf"), write_trf(trf).encode()) == trf


def test_unknown_result_and_lowercase_codes() -> None:
    line = PLAYER_3.replace("1 w 0", "1 W ?").replace("6 b 1", "6 b d")
    (player,) = parse_trf(Path("t.trf"), line.encode()).players
    assert player.rounds[0].result is ResultCode.DRAW_UNRATED
    assert player.rounds[4] == RoundEntry(1, Colour.WHITE, ResultCode.UNKNOWN)


def test_trf2026_records() -> None:
    text = "\n".join(
        [
            "142 9",
            "152 B",
            "162  W 3.0    D 1.0    L 0.0    A 0.0",
            "192 FIDE_DUTCH_2025",
            "202 BH:MP/C1/P,SB",
            "212 PTS,BH/C1,DE",
            "240 H   3    5   12",
            "250      1.0   1   2    1   20",
            "260   1   9    4    7",
            "### a comment",
            "310   1 Team One",
        ]
    )
    trf = parse_trf(Path("t.trf"), text.encode())
    assert trf.total_rounds == 9
    assert trf.initial_colour is Colour.BLACK
    assert trf.scoring == {
        "W": Decimal(3),
        "D": Decimal(1),
        "L": Decimal(0),
        "Z": Decimal(0),
        "F": Decimal(0),
    }
    assert trf.system == "FIDE_DUTCH_2025"
    records = trf.records
    assert records[4] == TieBreakRecord("202", ("BH:MP/C1/P", "SB"))
    assert records[5] == TieBreakRecord("212", ("PTS", "BH/C1", "DE"))
    assert records[6] == ByesRecord("H", 3, (5, 12))
    assert records[7] == AccelerationRecord(None, Decimal(1), 1, 2, 1, 20)
    assert records[8] == ForbiddenPairsRecord(1, 9, (4, 7))
    assert isinstance(records[10], RawRecord)
    assert records[10].code == "310"
    assert parse_trf(Path("u.trf"), write_trf(trf).encode()) == trf


def test_javafo_and_bbp_extensions() -> None:
    text = "\n".join(
        ["XXR 7", "XXC rank white1", "XXA    3  1.0  1.0", "XXP 1 2", "XXZ 4", "BBW  3.0"]
    )
    trf = parse_trf(Path("t.trf"), text.encode())
    assert trf.total_rounds == 7
    assert trf.initial_colour is Colour.WHITE
    assert trf.records[2] == XxaRecord(3, (Decimal(1), Decimal(1)))
    assert trf.scoring == {"W": Decimal(3)}
    back = to_trf16(trf)
    assert back.total_rounds == 7
    assert back.initial_colour is Colour.WHITE


def test_ruler_lines_are_kept_verbatim() -> None:
    ruler = "0123456789" * 5
    (record,) = _parse(ruler)
    assert record == RawRecord(ruler)


def test_real_file_with_team_records_and_rulers() -> None:
    path = require_testdata("chess", "real", "icu_armstrong_2011.trf")
    trf = parse_trf(path)
    assert len(trf.players) == 160
    assert sum(isinstance(r, RawRecord) and r.code == "013" for r in trf.records) == 12
    assert isinstance(trf.records[0], HeaderRecord)


def test_crlf_latin1_real_file() -> None:
    path = require_testdata("chess", "real", "icu_irish_junior_champs_2011.trf")
    trf = parse_trf(path)
    assert len(trf.players) == 34
    assert trf.warnings
    assert all("\r" not in p.name for p in trf.players)


def test_records_compare_by_class_and_fields_but_their_line() -> None:
    """Records compare (and hash) as frozen dataclasses with ``line`` left out would: where
    a record stood in the file does not count, its class does."""
    first, again = XxpRecord((1, 2), line=3), XxpRecord((1, 2), line=9)
    assert first == again
    assert not first != again  # noqa: SIM202 - __ne__ is its own method on a tuple
    assert hash(first) == hash(XxpRecord((1, 2)))
    assert first != XxpRecord((2, 1))
    others: list[object] = [XxzRecord((1, 2), line=3), RawRecord("XXP", line=3)]
    assert all(first != other and not first == other for other in others)  # noqa: SIM201
    with pytest.raises(AttributeError):
        XxpRecord((1, 2)).players = (3,)  # type: ignore[misc]


@pytest.mark.parametrize(
    "text",
    ["in.trf", "/a/b.trf", "../a.trf", "./a.trf", "a//b", "a/", "//a", "///a", ".", "", "a/./b"],
)
def test_path_text_is_pathlibs_form(text: str) -> None:
    """The name a file is read and shown by (`ingest.textio.path_text`, which loads pathlib
    only for a path not already in its form) is pathlib's."""
    from ingest.textio import path_text

    assert path_text(text) == str(Path(text))
