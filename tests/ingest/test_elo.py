"""The .ELO reader and writer: worked examples from formats.md §7, the WOF archive, fuzzing."""

from __future__ import annotations

import dataclasses
from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from events.domain import Colour
from ingest.elo import (
    EloComment,
    EloEntry,
    EloFile,
    EloGame,
    EloPlayer,
    Outcome,
    parse_elo,
)
from ingest.errors import IngestError
from projections.exports.elo import render_elo, to_ascii, write_elo
from tests.conftest import require_testdata
from tests.ingest._mutation import mutate, mutation

HEADER = (
    "%%Tournament: WOC 2025\n"
    "%%Country: World\n"
    "%%Date: 13/11/2025 - 15/11/2025\n"
    "%%Sender: Dmitry Atamanoff\n"
    "\n"
)
NAME = Path("20251113_WOC_2025.ELO")


def parse(body: str, header: str = HEADER, name: Path = NAME) -> EloFile:
    return parse_elo(name, (header + body).encode())


# --- worked examples (formats.md §7) -------------------------------------------------------


def test_header_and_file_name_dates() -> None:
    elo = parse("")
    assert elo.header.tournament == "WOC 2025"
    assert elo.header.sender == "Dmitry Atamanoff"
    assert elo.name == "WOC_2025"
    assert elo.start == date(2025, 11, 13)
    assert elo.end == date(2025, 11, 15)
    assert elo.errors == ()


def test_player_lines_with_rating_and_new_mark() -> None:
    elo = parse(
        "%_%    5537, TAKANASHI, Yusuke, JPN, 10.5, 497, 2627\n"
        "%_% +210103, GAMZA, Dagna, PL, 4, 214\n"
    )
    first, second = elo.players
    assert (first.wof_id, first.new, first.surname, first.first_name) == (
        5537,
        False,
        "TAKANASHI",
        "Yusuke",
    )
    assert (first.country, first.score, first.discs, first.rating) == (
        "JPN",
        Decimal("10.5"),
        497,
        2627,
    )
    assert (second.wof_id, second.new, second.country, second.rating) == (210103, True, "PL", None)


def test_new_and_old_result_forms() -> None:
    elo = parse("  4094 (19)<(45)   5539  B\n 50130 (32)=(32)  50132  B\n1868 > 1912\n")
    new_loss, new_draw, old_win = elo.games
    assert new_loss == EloGame(4094, 5539, Outcome.SECOND_WINS, 19, 45, Colour.BLACK)
    assert new_draw.outcome is Outcome.DRAW
    assert new_draw.first_score == 0.5
    assert old_win == EloGame(1868, 1912, Outcome.FIRST_WINS)


def test_unknown_players_and_comments_and_rounds() -> None:
    elo = parse(
        "%_% ??????, LEE-JUAN, hang, ?, 1.0, 96\n"
        "%Round: 2\n"
        "    488 (45)>(19) ?????? \n"
        "%%Final\n"
        "    488 > 35 % best of three\n"
        "%%Added results\n"
        "% Round 7\n"
        "35 = 488\n"
    )
    assert elo.players[0].wof_id is None
    r2, final, added = elo.games
    assert (r2.second, r2.round, r2.added) == (None, 2, False)
    assert (final.round, final.comment) == (None, "best of three")
    assert (added.round, added.added) == (7, True)
    assert [c.text for c in elo.comments] == [
        "%Round: 2",
        "%%Final",
        "%%Added results",
        "% Round 7",
    ]


def test_quirks_seen_in_the_archive() -> None:
    elo = parse(
        "%_% Classical tournament\n"
        "%        ID, NAME, Firstname, COUNTRY, score, disc-count, rating\n"
        "%_%     698, SUEKUNI, Makoto,  J,   8,   617   %Champion\n"
        "6441 (35)>(29) 6453 w\n"
        "  5071 >   4875      36 (49)>(15)   5071 \n"
        "  4617 >   4165  B\n"
        " %%Finale\n"
    )
    assert elo.errors == ()
    assert isinstance(elo.entries[0], EloComment)
    assert elo.players[0].comment == "Champion"
    assert elo.players[0].discs == 617
    assert [(g.first, g.second, g.first_colour) for g in elo.games] == [
        (6441, 6453, Colour.WHITE),
        (5071, 4875, None),
        (36, 5071, None),
        (4617, 4165, Colour.BLACK),
    ]


def test_crlf_and_latin1_fallback() -> None:
    data = (HEADER + "%_% 1, WÅHLBERG, Per, SWE, 1, 33\n1 > 2\n").replace("\n", "\r\n")
    elo = parse_elo(NAME, data.encode("iso-8859-15"))
    assert elo.players[0].surname == "WÅHLBERG"
    assert elo.encoding == "iso-8859-15"
    assert [w.line for w in elo.warnings if "UTF-8" in w.message] == [6]
    assert len(elo.games) == 1


# --- validation -----------------------------------------------------------------------------


def test_missing_header_line_raises_with_location() -> None:
    with pytest.raises(IngestError) as caught:
        parse_elo(NAME, b"%%Tournament: X\n%%Date: 01/01/2020\n")
    assert str(caught.value) == (
        f"{NAME}:2:1: bad header line (found '%%Date: 01/01/2020', expected %%Country:)"
    )


def test_truncated_header_raises() -> None:
    with pytest.raises(IngestError, match=r":3:1: file ends inside the header"):
        parse_elo(NAME, b"%%Tournament: X\n%%Country: Y\n")


def test_bad_date_without_file_name_date_raises() -> None:
    header = HEADER.replace("13/11/2025 - 15/11/2025", "31/02/2025")
    with pytest.raises(IngestError, match=r"inbox.elo:3:9: no event date.*found '31/02/2025'"):
        parse("", header, Path("inbox.elo"))


def test_bad_date_with_file_name_date_warns() -> None:
    header = HEADER.replace("13/11/2025 - 15/11/2025", "13/13/2025")
    elo = parse("", header)
    assert elo.start == date(2025, 11, 13)
    assert [w.message for w in elo.warnings] == [
        "impossible %%Date (no such day, or a range that ends before it starts), "
        "using the file name's date"
    ]


def test_date_range_must_not_run_backwards() -> None:
    header = HEADER.replace("13/11/2025 - 15/11/2025", "15/11/2025 - 13/11/2025")
    assert parse("", header).warnings[0].found == "15/11/2025 - 13/11/2025"


def test_unreadable_result_line_is_rejected_with_column() -> None:
    elo = parse("1 > 2\n  12 (33)?(31) 14 B\n3 > 4\n")
    assert [(g.first, g.second) for g in elo.games] == [(1, 2), (3, 4)]
    (error,) = elo.errors
    assert (error.line, error.column) == (7, 3)
    assert error.found == "12 (33)?(31) 14 B"
    with pytest.raises(IngestError):
        elo.raise_first_error()


def test_unknown_result_glyph_and_half_discs() -> None:
    elo = parse("1 (33)>31 2\n1 x 2\n")
    assert [e.line for e in elo.errors] == [6, 7]
    assert elo.games == ()


def test_truncated_player_line_is_rejected() -> None:
    elo = parse("%_% 5537, TAKANASHI\n")
    (error,) = elo.errors
    assert error.reason == "truncated player line"
    assert elo.players == ()


def test_duplicate_player_id() -> None:
    elo = parse("%_% 7, A, B, FRA, 1, 33\n%_% 7, C, D, FRA, 0, 31\n")
    (error,) = elo.errors
    assert (error.line, error.found) == (7, "7")
    assert "first on line 6" in str(error)


def test_self_pairing_is_rejected() -> None:
    elo = parse("11992  >11992\n1 > 2\n")
    assert [e.reason for e in elo.errors] == ["a player is paired with himself"]
    assert len(elo.games) == 1


def test_unknown_opponent_and_player_twice_in_a_round_warn() -> None:
    elo = parse("%_% 1, A, B, FRA, 1, 33\n%_% 2, C, D, FRA, 0, 31\n%Round 1\n1 > 2\n1 > 3\n")
    messages = [w.message for w in elo.warnings]
    assert "id 3 plays but is not on a %_% player line" in messages
    assert "id 1 plays twice in round 1 (also on line 9)" in messages
    assert len(elo.games) == 2


# --- writer ---------------------------------------------------------------------------------


def test_writer_follows_papp_layout() -> None:
    elo = parse(
        "%_% +210103, GAMZA, Dagna, PL, 4, 214\n%Round: 1\n  4094 (19)<(45)   5539  B\n1 = 2\n"
    )
    assert render_elo(elo) == (
        HEADER + "%_% +210103, GAMZA, Dagna, PL, 4, 214\n"
        "\n"
        "%Round: 1\n"
        "  4094 (19)<(45)   5539 B\n"
        "     1 =      2\n"
    )


def test_writer_is_plain_ascii() -> None:
    elo = parse_elo(NAME, (HEADER + "%_% 1, WÅHLBERG, Per, SWE, 1, 33\n").encode())
    assert b"WAHLBERG" in write_elo(elo)
    assert "WÅHLBERG".encode() in write_elo(elo, ascii_only=False)


# --- the WOF archive ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def archive() -> list[EloFile]:
    root = require_testdata("othello", "elo")
    return [parse_elo(path) for path in sorted(root.glob("*/*.ELO"))]


@pytest.mark.golden
def test_archive_matches_the_reference_figures(archive: list[EloFile]) -> None:
    # formats.md §7: 7,938 files, 584 date ranges, 15,499 player lines with a 7th field,
    # 429,289 games (counted with a slightly different line classification), ~1.5 % draws.
    assert len(archive) == 7938
    assert sum(1 for f in archive if " - " in f.header.date) == 584
    backwards = [f for f in archive if " - " in f.header.date and f.end is None]
    assert [Path(f.path).name for f in backwards] == ["20070325_EGP_HOORN.ELO"]  # 25/03 - 24/03
    seven = sum(1 for f in archive for p in f.players if len(p.fields) == 6)
    assert abs(seven - 15_499) <= 5  # two captions "%_% ID, ..., rating" are comments here
    games = [g for f in archive for g in f.games]
    assert abs(len(games) - 429_289) / 429_289 < 0.005
    draws = sum(1 for g in games if g.outcome is Outcome.DRAW) / len(games)
    assert 0.014 < draws < 0.016
    # The only rejected lines in the archive are games of a player against himself.
    reasons = {e.reason for f in archive for e in f.errors}
    assert reasons == {"a player is paired with himself"}


def _ascii_entry(entry: EloEntry) -> EloEntry:
    if isinstance(entry, EloPlayer):
        fields = tuple(to_ascii(f) for f in entry.fields)
        return dataclasses.replace(entry, fields=fields, comment=to_ascii(entry.comment))
    if isinstance(entry, EloComment):
        return dataclasses.replace(entry, text=to_ascii(entry.text))
    return dataclasses.replace(entry, comment=to_ascii(entry.comment))


def assert_same_file(original: EloFile, copy: EloFile, *, ascii_only: bool) -> None:
    convert = to_ascii if ascii_only else str
    assert copy.errors == ()
    assert (copy.start, copy.end, copy.name, copy.letter) == (
        original.start,
        original.end,
        original.name,
        original.letter,
    )
    assert copy.header.model_dump() == {
        k: convert(v) for k, v in original.header.model_dump().items()
    }
    if ascii_only:
        assert copy.entries == tuple(_ascii_entry(e) for e in original.entries)
    else:
        assert copy.entries == original.entries


@pytest.mark.golden
def test_archive_round_trip(archive: list[EloFile]) -> None:
    for original in archive:
        path = Path(original.path)
        copy = parse_elo(path, write_elo(original))
        assert_same_file(original, copy, ascii_only=True)


# --- fuzzing --------------------------------------------------------------------------------

SAMPLES = (
    "2025/20250104_Nouvel_An_Grenoble.ELO",
    "1985/19851116_WOC_1985.ELO",
    "2013/20130406_EGP_Barcelona.ELO",
    "2009/20090725_CH_SINGAPORE.ELO",
)


@pytest.fixture(scope="module")
def samples() -> list[tuple[Path, bytes]]:
    root = require_testdata("othello", "elo")
    return [(root / name, (root / name).read_bytes()) for name in SAMPLES]


MUTATION = mutation(8, [b"%", b"%_%", b",", b"(", b")", b">", b"?", b"\n", b"\r", b"/", b"+"])


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(which=st.integers(0, len(SAMPLES) - 1), mutations=st.lists(MUTATION, max_size=6))
def test_mutated_files_raise_only_ingest_errors_and_still_round_trip(
    samples: list[tuple[Path, bytes]], which: int, mutations: list[tuple[str, float, bytes]]
) -> None:
    path, data = samples[which]
    try:
        elo = parse_elo(path, mutate(data, mutations))
    except IngestError:
        return
    copy = parse_elo(path, write_elo(elo, ascii_only=False))
    assert_same_file(elo, copy, ascii_only=False)
