""".ELO → events: players, rounds (stated or inferred), seats and colours, the points check."""

from __future__ import annotations

from pathlib import Path

import pytest

from decide.state import project
from events.domain import Outcome
from events.schema import PlayerRegistered, ResultRecorded, RoundPaired, TournamentCreated
from ingest.elo import ANONYMOUS, elo_to_events, parse_elo
from ingest.errors import IngestError

HEADER = "%%Tournament: Test Open\n%%Country: NL\n%%Date: 05/01/2019\n%%Sender: Someone\n\n"


def convert(body: str, *, strict: bool = False, name: str = "20190105_Test_open.ELO"):  # type: ignore[no-untyped-def]
    return elo_to_events(parse_elo(Path(name), (HEADER + body).encode()), strict=strict)


BODY = (
    "%_% 101, SMITH, John, NL, 2, 70\n"
    "%_% 102, JONES, Ann, NL, 1, 60\n"
    "%_% 103, BROWN, Bob, NL, 0, 50\n"
    "%Round 1\n"
    "   101 (40)>(24)    102 B\n"
    "%Round 2\n"
    "   103 (20)<(44)    101\n"
    "%Round 3\n"
    "   102 (36)>(28)    103 B\n"
)


def test_players_rounds_and_discs() -> None:
    conv = convert(BODY)
    created = conv.created
    assert isinstance(created, TournamentCreated)
    assert created.rounds == 3
    assert created.name == "Test Open"
    assert created.federation == "NL"
    players = conv.players
    assert [(p.player, p.name, p.ids) for p in players] == [
        (1, "SMITH, John", {"wof": "101"}),
        (2, "JONES, Ann", {"wof": "102"}),
        (3, "BROWN, Bob", {"wof": "103"}),
    ]
    rounds = [e for e in conv.events if isinstance(e, RoundPaired)]
    # "101 ... 102 B": the first player had black, so 102 sits in the white seat.
    assert rounds[0].boards[0].white == 2
    assert rounds[0].boards[0].black == 1
    # No colour mark: the first-named player takes the white seat.
    assert rounds[1].boards[0].white == 3
    assert rounds[1].boards[0].black == 1
    results = [e for e in conv.events if isinstance(e, ResultRecorded)]
    assert results[0].outcome is Outcome.BLACK_WINS
    assert (results[0].white_score, results[0].black_score) == (24, 40)
    assert results[1].outcome is Outcome.BLACK_WINS
    assert conv.metadata[4 + 0] == {"elo_colours": "B"}
    assert conv.warnings == []
    assert conv.games == 3
    state = project(conv.events)
    assert [state.points(p) for p in (1, 2, 3)] == [2.0, 1.0, 0.0]


def test_rounds_are_inferred_without_round_comments() -> None:
    conv = convert("101 > 102\n103 > 104\n101 > 103\n102 = 104\n105 > 101\n")
    rounds = {e.round: len(e.boards) for e in conv.events if isinstance(e, RoundPaired)}
    assert rounds == {1: 2, 2: 2, 3: 1}
    assert conv.metadata[0]["elo"]["rounds_stated"] is False


def test_a_player_twice_in_a_stated_round_falls_back_to_inferred_rounds() -> None:
    conv = convert("%Round 1\n101 > 102\n101 > 103\n")
    assert [e.round for e in conv.events if isinstance(e, RoundPaired)] == [1, 2]


def test_unlisted_ids_and_unknown_players() -> None:
    conv = convert("%_% 101, SMITH, John, NL\n102 > 101\n?????? > ??????\n")
    names = [p.name for p in conv.players]
    assert names == ["SMITH, John", "#102", ANONYMOUS, ANONYMOUS]
    assert conv.metadata[2] == {"elo_listed": False}


def test_inconsistent_points_warn_or_fail_when_strict() -> None:
    body = "%_% 101, SMITH, John, NL, 3, 40\n%_% 102, JONES, Ann, NL, 0, 24\n101 (40)>(24) 102\n"
    conv = convert(body)
    assert len(conv.warnings) == 1
    assert "points of 101 SMITH differ" in str(conv.warnings[0])
    with pytest.raises(
        IngestError,
        match=r"20190105_Test_open.ELO:6:0: points of 101 SMITH .*"
        r"\(found '3', expected 1\)",
    ):
        convert(body, strict=True)


def test_rejected_lines_fail_the_file() -> None:
    with pytest.raises(IngestError, match=":7:1: a player is paired with himself"):
        convert("101 > 102\n101 > 101\n")


def test_events_validate() -> None:
    for event in convert(BODY).events:
        type(event).model_validate(event.model_dump())
    assert all(isinstance(p, PlayerRegistered) for p in convert(BODY).players)
