"""h9, .tou and OpenGotha → events: seats, handicaps, byes, forfeits, ids."""

from __future__ import annotations

from pathlib import Path

from decide.state import project
from events.domain import ByeKind, Outcome
from events.schema import ByeGranted, ResultRecorded, RoundPaired
from ingest.h9 import h9_to_events, parse_h9
from ingest.opengotha import opengotha_to_events, read_opengotha
from ingest.tou import parse_tou, tou_to_events
from tests.conftest import require_testdata

H9 = (
    "; CL[A]\n; EV[Test Cup]\n; PC[FR, Paris]\n; DT[2024-05-01,2024-05-02]\n; KM[6.5]\n"
    "  1 Dupont Jean      2d FR Pari  2+/w0   3+/b2 |12345678\n"
    "  2 Martin Paul      1k FR Lyon  1-/b0    0+\n"
    "  3 Durand Anne      3k FR Pari   0=      1-/w2\n"
)


def test_h9_table() -> None:
    conv = h9_to_events(parse_h9(Path("cup.h9"), H9.encode()))
    created = conv.created
    assert created.name == "Test Cup"
    assert created.city == "Paris"
    assert created.rounds == 2
    assert [(p.name, p.rank, p.ids) for p in conv.players] == [
        ("Dupont, Jean", "2d", {"egd_pin": "12345678"}),
        ("Martin, Paul", "1k", {}),
        ("Durand, Anne", "3k", {}),
    ]
    rounds = [e for e in conv.events if isinstance(e, RoundPaired)]
    (b1,) = rounds[0].boards
    assert (b1.white, b1.black, b1.handicap, b1.komi) == (1, 2, 0, 6.5)
    (b2,) = rounds[1].boards
    assert (b2.white, b2.black, b2.handicap) == (3, 1, 2)
    byes = [(e.player, e.round, e.kind) for e in conv.events if isinstance(e, ByeGranted)]
    assert byes == [(3, 1, ByeKind.HALF), (2, 2, ByeKind.FULL)]
    outcomes = [e.outcome for e in conv.events if isinstance(e, ResultRecorded)]
    assert outcomes == [Outcome.WHITE_WINS, Outcome.BLACK_WINS]
    state = project(conv.events)
    assert [state.points(p) for p in (1, 2, 3)] == [2.0, 1.0, 0.5]
    assert conv.metadata[0]["h9_head"][1] == ["EV", "Test Cup"]


def test_tou_file_with_forfeit_free_cells() -> None:
    text = (
        ";name=Rennes\n;date=27/02/2021\n;komi=7.5\n"
        "   1 Rioland Florent      3D 0900460 35Re    2+b0\n"
        "   2 Vannier Remi         2D ------- 35Re    1-w0\n"
    )
    conv = tou_to_events(parse_tou(Path("r.tou"), text.encode("iso-8859-15")))
    assert [p.ids for p in conv.players] == [{"ffg": "0900460"}, {}]
    (paired,) = [e for e in conv.events if isinstance(e, RoundPaired)]
    assert (paired.boards[0].white, paired.boards[0].black) == (2, 1)
    assert conv.created.start_date is not None
    assert conv.created.start_date.year == 2021


def test_opengotha_games_byes_and_results() -> None:
    path = require_testdata("go", "opengotha", "TournoiChinois.xml")
    t = read_opengotha(path)
    conv = opengotha_to_events(t)
    assert len(conv.players) == len(t.players)
    assert conv.games == len(t.games)
    boards = [b for e in conv.events if isinstance(e, RoundPaired) for b in e.boards]
    assert sum(1 for b in boards if b.black is None) == len(t.byes)
    known = sum(1 for g in t.games if g.result.value != "RESULT_UNKNOWN")
    assert sum(1 for e in conv.events if isinstance(e, ResultRecorded)) == known
