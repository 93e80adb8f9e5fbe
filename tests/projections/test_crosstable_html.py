"""Crosstable rows and numbering, CSV/text output, and the HTML page in headless Chromium."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from decide.state import TournamentState, project
from events.domain import Board, Game, Outcome, System
from events.schema import Event, PlayerRegistered, ResultRecorded, RoundPaired, TournamentCreated
from projections.crosstable import as_rows, crosstable, to_csv, to_text
from projections.html import crosstable_html, standings_html
from projections.standings import standings

EVIL = "<script>document.title='pwned'</script>"


def _events(first_name: str = "Alpha") -> list[Event]:
    # R1: 1-4 1-0, 2-3 ½;  R2: 4-3 0-1, 1-2 forfeit won by 1;  R3: 2-4 1-0, 3-1 ½.
    # Points: 1 = 2.5, 3 = 2, 2 = 1.5, 4 = 0.
    rounds = [
        [(1, 4, Outcome.WHITE_WINS), (2, 3, Outcome.DRAW)],
        [(4, 3, Outcome.BLACK_WINS), (1, 2, Outcome.WHITE_WINS_FORFEIT)],
        [(2, 4, Outcome.WHITE_WINS), (3, 1, Outcome.DRAW)],
    ]
    events: list[Event] = [
        TournamentCreated(
            tournament_id="t",
            name="Club <Championship>",
            game=Game.CHESS,
            system=System.ROUNDROBIN,
            rounds=3,
            tiebreaks=("SB",),
        )
    ]
    names = [first_name, "Bravo", "Charlie", "Delta"]
    events += [
        PlayerRegistered(player=i, name=n, rating=2000 - 10 * i, federation="IRL", pairing_number=i)
        for i, n in enumerate(names, start=1)
    ]
    for r, games in enumerate(rounds, start=1):
        boards = tuple(Board(board=i, white=w, black=b) for i, (w, b, _) in enumerate(games, 1))
        events.append(RoundPaired(round=r, boards=boards))
        events += [
            ResultRecorded(round=r, board=i, outcome=o) for i, (_, _, o) in enumerate(games, 1)
        ]
    return events


@pytest.fixture
def state() -> TournamentState:
    return project(_events())


def test_rank_order_renumbers_opponents(state: TournamentState) -> None:
    table = crosstable(state)
    assert [(r.number, r.player, r.points) for r in table.rows] == [
        (1, 1, 2.5),
        (2, 3, 2.0),
        (3, 2, 1.5),
        (4, 4, 0.0),
    ]
    assert [c.text for c in table.rows[0].cells] == ["4w1", "3w+", "2b½"]
    assert [c.text for c in table.rows[2].cells] == ["2w½", "1b-", "4w1"]
    # Round robin, C.07: the forfeit counts as a game; SB(1) = 0·1 + 1.5·1 + 2·½.
    assert table.rows[0].tiebreaks == {"SB": 2.5}


def test_start_order_keeps_start_numbers(state: TournamentState) -> None:
    table = crosstable(state, order="start")
    assert [r.player for r in table.rows] == [1, 2, 3, 4]
    assert [c.text for c in table.rows[0].cells] == ["4w1", "2w+", "3b½"]
    assert table.rows[1].rank == 3


def test_text_and_csv_rows(state: TournamentState) -> None:
    table = crosstable(state)
    rows = as_rows(table)
    assert rows[0] == ["No", "Rank", "Name", "Rtg", "Fed/Club", "R1", "R2", "R3", "Pts", "SB"]
    assert rows[1] == ["1", "1", "Alpha", "1990", "IRL", "4w1", "3w+", "2b½", "2.5", "2.5"]
    assert to_csv(table).splitlines()[1] == "1,1,Alpha,1990,IRL,4w1,3w+,2b½,2.5,2.5"
    assert to_text(table).splitlines()[1].split() == rows[1]


def test_html_escapes_names_and_is_self_contained() -> None:
    state = project(_events(EVIL))
    page = crosstable_html(crosstable(state))
    assert EVIL not in page
    assert "&lt;script&gt;" in page
    assert "Club &lt;Championship&gt;" in page
    assert "<script" not in page
    assert "http" not in page
    assert '<meta name="viewport"' in page
    spage = standings_html("Standings", standings(state))
    assert EVIL not in spage
    assert "&lt;script&gt;" in spage


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.mark.skipif(
    CHROMIUM is None and os.environ.get("ARBITER_REQUIRE_CHROMIUM") != "1",
    reason="headless Chromium not installed (apt-get install chromium); CI requires it",
)
def test_html_renders_in_headless_chromium(tmp_path: Path) -> None:
    assert CHROMIUM is not None
    page = tmp_path / "crosstable.html"
    page.write_text(crosstable_html(crosstable(project(_events(EVIL)))), encoding="utf-8")
    done = subprocess.run(
        [
            CHROMIUM,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            f"--user-data-dir={tmp_path / 'profile'}",
            "--dump-dom",
            page.as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    dom = done.stdout
    assert "<table>" in dom
    assert dom.count("<tr>") == 5
    assert "<title>Club &lt;Championship&gt;</title>" in dom  # the injected script never ran
    assert "pwned" in dom  # the name is there, as text
    assert "<script" not in dom
