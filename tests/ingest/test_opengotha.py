"""OpenGotha XML reader and writer: real files, round trip, errors with positions."""

from __future__ import annotations

from pathlib import Path

import pytest

from events.go import GoResult as GameResult
from ingest.errors import IngestError
from ingest.opengotha import player_key, read_opengotha, read_opengotha_bytes
from projections.exports.opengotha import dump_opengotha
from tests.conftest import TESTDATA, require_testdata

GO_FOLDERS = ("go/opengotha", "go/opengotha-rgf", "go/other", "go/pairgoth/opengotha")
OPENGOTHA_XML = sorted(
    str(p.relative_to(TESTDATA))
    for folder in GO_FOLDERS
    for p in (TESTDATA / folder).rglob("*.xml")
)


@pytest.mark.golden
@pytest.mark.parametrize("relative", OPENGOTHA_XML or ["go/opengotha"])
def test_round_trip(relative: str) -> None:
    path = require_testdata(*relative.split("/"))
    tournament = read_opengotha(path)
    again = read_opengotha_bytes(dump_opengotha(tournament), "written.xml")
    assert again == tournament


@pytest.mark.golden
def test_egc2011_contents() -> None:
    tournament = read_opengotha(require_testdata("go", "opengotha-rgf", "egc2011.xml"))
    assert len(tournament.games) == 2708  # formats.md §6 names the count
    first = tournament.players[0]
    assert (first.name, first.first_name, first.rank, first.rating) == ("Rey", "Jean", 1, 2013)
    assert first.participating[:10] == (True,) * 10
    assert first.participating[10:] == (False,) * 10
    keys = {p.key for p in tournament.players}
    assert all(g.white in keys and g.black in keys for g in tournament.games)
    assert tournament.general is not None
    assert tournament.general.number_of_rounds == 10


@pytest.mark.golden
def test_simplemm_parameters() -> None:
    path = require_testdata("go", "pairgoth", "opengotha", "pairings", "simplemm.xml")
    tournament = read_opengotha(path)
    assert tournament.data_version is None  # the pairgoth test files lack it
    general, handicap, pairing = tournament.general, tournament.handicap, tournament.pairing
    assert general is not None
    assert handicap is not None
    assert pairing is not None
    assert (general.mm_floor, general.mm_bar, general.mm_zero) == (-20, 3, -30)
    assert (handicap.based_on_mms, handicap.correction, handicap.ceiling) == (True, 1, 9)
    assert (pairing.seed_system1, pairing.seed_system2) == ("SPLITANDSLIP", "SPLITANDFOLD")
    assert pairing.avoid_duplicate_game == 500_000_000_000_000
    assert tournament.placement_criteria is not None
    assert tournament.placement_criteria[:3] == ("MMS", "SOSM", "SOSOSM")


@pytest.mark.golden
def test_by_default_and_both_win_results() -> None:
    results = set()
    for relative in OPENGOTHA_XML:
        if "macmahon39" in relative:
            continue
        for game in read_opengotha(TESTDATA / relative).games:
            results.add((game.result, game.by_default))
    assert (GameResult.WHITE_WINS, True) in results
    assert (GameResult.BLACK_WINS, True) in results
    assert (GameResult.BOTH_WIN, False) in results


@pytest.mark.golden
def test_macmahon39_file_is_refused_with_position() -> None:
    path = require_testdata("go", "pairgoth", "macmahon39", "sample-tournament.xml")
    with pytest.raises(IngestError, match=r"sample-tournament\.xml:\d+:\d+: not an OpenGotha"):
        read_opengotha(path)


def _tournament(players: str, games: str = "") -> bytes:
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n<Tournament dataVersion="201">\n'
        f"<Players>\n{players}</Players>\n<Games>\n{games}</Games>\n</Tournament>\n"
    ).encode()


PLAYER_A = '<Player name="Minieri" firstName="Davide" rank="3d" rating="2250"/>\n'
PLAYER_B = '<Player name="Ban" firstName="Ko" rank="20k"/>\n'


def test_small_file_fields_and_keys() -> None:
    game = (
        '<Game roundNumber="1" tableNumber="1" whitePlayer="MinieriDavide" '
        'blackPlayer="BANKO" handicap="0" result="RESULT_BOTHLOSE_BYDEF"/>\n'
    )
    tournament = read_opengotha_bytes(_tournament(PLAYER_A + PLAYER_B, game))
    assert [p.key for p in tournament.players] == ["MINIERIDAVIDE", "BANKO"]
    assert [p.rank for p in tournament.players] == [2, -20]
    assert tournament.players[1].rating == -2950  # the DTD's default
    (played,) = tournament.games
    assert (played.white, played.black) == ("MINIERIDAVIDE", "BANKO")
    assert (played.result, played.by_default) == (GameResult.BOTH_LOSE, True)
    assert player_key("de la Cruz", "Ana") == "DELACRUZANA"


def test_bad_rank_names_line_and_column() -> None:
    players = PLAYER_A + '  <Player name="X" firstName="Y" rank="12p"/>\n'
    with pytest.raises(IngestError) as caught:
        read_opengotha_bytes(_tournament(players), "t.xml")
    assert str(caught.value).startswith("t.xml:5:3: <Player> rank is not a go rank")
    assert "'12p'" in str(caught.value)
    assert "\n" not in str(caught.value)


def test_unknown_player_in_game() -> None:
    game = '<Game roundNumber="1" tableNumber="1" whitePlayer="NOBODY" blackPlayer="BANKO"/>\n'
    with pytest.raises(IngestError, match=r"^t\.xml:8:1: <Game> whitePlayer names no"):
        read_opengotha_bytes(_tournament(PLAYER_A + PLAYER_B, game), "t.xml")


def test_unknown_result() -> None:
    game = (
        '<Game roundNumber="1" tableNumber="1" whitePlayer="BANKO" '
        'blackPlayer="MINIERIDAVIDE" result="RESULT_DRAW"/>\n'
    )
    with pytest.raises(IngestError, match="unknown game result"):
        read_opengotha_bytes(_tournament(PLAYER_A + PLAYER_B, game), "t.xml")


def test_malformed_xml_position(tmp_path: Path) -> None:
    path = tmp_path / "broken.xml"
    path.write_bytes(b"<Tournament>\n<Players>\n</Tournament>\n")
    with pytest.raises(IngestError, match=r"broken\.xml:3:\d+: not well-formed XML"):
        read_opengotha(path)


def test_unknown_declared_encoding_is_refused_with_position() -> None:
    data = _tournament(PLAYER_A).replace(b'encoding="UTF-8"', b'encoding="U0TF-8"')
    with pytest.raises(IngestError, match=r"bad\.xml:1:\d+: unknown encoding"):
        read_opengotha_bytes(data, "bad.xml")
