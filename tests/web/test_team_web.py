"""A team tournament on the web, driven from outside: a real ``arbiter serve`` on a loopback
port, its API read with an HTTP client, its pages in headless Chromium.

The reference is a real team Swiss with published standings: the Friendship Cup 2024
(``chess/real/heltour_friendship_cup_2024_heraklion_team.trf``, ingested as a user would); the
expected ranks, won/drawn/lost, match points, game points, BH:MP and EGGSB are the published
table's, as transcribed in ``tests/teams/test_team_standings_greek.py`` (which explains the one
game point the file lacks for Α.Σ.ΗΡΟΔΟΤΟΣ). A round's pairing-allocated bye (PAB) is checked
against ``chess/team/team_bye`` (seven teams; its ``.output.expected`` gives the PAB, derived
by hand from C.04.6). What the web publishes is also compared, byte for byte, with what
``arbiter standings``, ``crosstable`` and ``pair`` print on the same log.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page

from tests.browser import page_at
from tests.conftest import TESTDATA, require_testdata
from tests.teams.test_go_teams_opengotha import opengotha_team_table
from tests.teams.test_team_match_boards import file_matches
from tests.teams.test_team_standings_greek import ODD, PUBLISHED
from tests.web.serving import Served, add_user, cli, serve

pytestmark = pytest.mark.golden

CUP = "heltour-friendship-cup-2024-heraklion-team"
CUP_FILE = ("chess", "real", "heltour_friendship_cup_2024_heraklion_team.trf")
BYE = "team-bye"
HOSTILE = "hostile"
EVIL = "Evil <script>window.pwned=1</script>"
QUOTED = 'O\'Brien & "Co" <img src=x onerror=window.pwned=2>'
TIMEOUT_S = 120  # a loaded 2-core box can take seconds per request
get = functools.partial(httpx.get, timeout=TIMEOUT_S)
post = functools.partial(httpx.post, timeout=TIMEOUT_S)

GO = "teamegc2013"
GO_TEAMS = ("go", "opengotha-rgf", "TeamEGC2013.xml")
"""A go event with teams (OpenGotha): its tables rank the teams, as `arbiter standings` does."""

SIX_MATCHES = {name for name, won, drawn, lost, *_ in PUBLISHED if won + drawn + lost == 6}
"""The teams the published table credits with six matches in seven rounds: the seven PABs."""


@dataclass
class Site:
    served: Served
    tokens: dict[str, str]
    folder: Path

    @property
    def url(self) -> str:
        return self.served.url


def _batch(store: str, folder: Path) -> None:
    """A small team Swiss typed as a director would (``arbiter batch``): three teams of two,
    two of them with names that are HTML, so one team gets the PAB."""
    lines = [
        f"tournament create --name Hostile --id {HOSTILE} --system team-swiss --rounds 3 "
        "--boards 2",
    ]
    for k, name in enumerate((EVIL, QUOTED, "Plain"), start=1):
        quoted = name.replace("'", "'\\''")
        lines.append(f"team add {HOSTILE} --name '{quoted}'")
        for b in (1, 2):
            lines.append(
                f"team member add {HOSTILE} {k} --name 'P{k}, B{b}' --rating {2400 - 100 * k - b}"
            )
    commands = folder / "hostile.txt"
    commands.write_text("\n".join(lines) + "\n", encoding="utf-8")
    cli(store, "batch", str(commands))


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    cup = require_testdata(*CUP_FILE)
    bye = require_testdata("chess", "team", "team_bye.input")
    folder = tmp_path_factory.mktemp("team-web")
    store = str(folder / "store.duckdb")
    cli(store, "ingest", str(cup), str(bye), str(require_testdata(*GO_TEAMS)))
    _batch(store, folder)
    tokens = {tid: add_user(store, f"td-{tid}", "director", tid) for tid in (BYE, HOSTILE, CUP)}
    served = serve(store, folder)
    try:
        yield Site(served, tokens, folder)
    finally:
        served.stop()


def _pair(site: Site, tid: str) -> dict[str, Any]:
    response = post(
        f"{site.url}/api/tournaments/{tid}/pair",
        headers={"authorization": f"Bearer {site.tokens[tid]}"},
    )
    assert response.status_code == 201, response.text
    paired: dict[str, Any] = response.json()
    return paired


def test_a_team_event_keeps_the_server_up_and_every_door_answers(site: Site) -> None:
    for path in (
        "/",
        f"/t/{CUP}",
        f"/t/{CUP}?round=1",
        f"/t/{CUP}/crosstable",
        f"/t/{CUP}/players/1",
        f"/api/tournaments/{CUP}",
        f"/api/tournaments/{CUP}/standings",
        f"/api/tournaments/{CUP}/crosstable",
        f"/api/tournaments/{CUP}/rounds/7",
        f"/api/tournaments/{CUP}/rounds/7/matches",
        f"/api/tournaments/{CUP}/players/1",
        f"/t/{BYE}",
        f"/api/tournaments/{BYE}/standings",
    ):
        response = get(site.url + path)
        assert response.status_code == 200, (path, response.text[:300])
    assert CUP in get(site.url + "/").text
    # Player 1 of the file: Psarianos, on ΣΑΧ's roster (013), 3.5 points (the 001 line's own)
    card = get(f"{site.url}/api/tournaments/{CUP}/players/1").json()
    assert (card["name"], card["team"]["name"], card["points"]) == (
        "Psarianos,Emmanouil",
        "ΣΑΧ",
        3.5,
    )
    assert card["rank"] is None  # the places are the teams'


def test_api_standings_are_the_published_ones(site: Site) -> None:
    rows = get(f"{site.url}/api/tournaments/{CUP}/standings").json()
    table = get(f"{site.url}/api/tournaments/{CUP}/crosstable").json()
    assert [r["team"]["name"] for r in rows] == [p[0] for p in PUBLISHED]
    assert [r["rank"] for r in rows] == list(range(1, 16))
    odd = next(r["team"]["number"] for r in rows if r["team"]["name"] == ODD)
    against_odd = {
        t["team"]: sum(
            (Decimal(str(c["game_points"])) for c in t["rounds"] if c["opponent"] == odd),
            Decimal(0),
        )
        for t in table
    }
    for row, (name, won, drawn, lost, mp, gp, eggsb, bh) in zip(rows, PUBLISHED, strict=True):
        assert (row["won"], row["drawn"], row["lost"]) == (won, drawn, lost), name
        assert row["match_points"] == mp, name
        assert row["tiebreaks"]["BH:MP"] == bh, name
        missing = 1 if name == ODD else 0  # the game point the file lacks
        assert Decimal(str(row["game_points"])) == Decimal(gp) - missing, name
        if name != ODD:
            eggsb_here = Decimal(str(row["tiebreaks"]["EGGSB"]))
            assert eggsb_here + against_odd[name] == Decimal(eggsb), name
    # the crosstable: the same teams in the same order, the published totals, each team's
    # rounds adding up to its game points
    assert [(t["rank"], t["team"], t["match_points"]) for t in table] == [
        (k, p[0], p[4]) for k, p in enumerate(PUBLISHED, start=1)
    ]
    for t, p in zip(table, PUBLISHED, strict=True):
        assert sum(Decimal(str(c["game_points"])) for c in t["rounds"]) == Decimal(
            str(t["game_points"])
        )
        assert Decimal(str(t["game_points"])) == Decimal(p[5]) - (1 if p[0] == ODD else 0)


def test_each_round_lists_its_matches_and_the_pab_team(site: Site) -> None:
    pabs = []
    for r in range(1, 8):
        rows = get(f"{site.url}/api/tournaments/{CUP}/rounds/{r}/matches").json()
        assert [m["match"] for m in rows] == [*range(1, 8), None]
        pab = rows[-1]
        assert pab["black"] is None
        teams = [m[side]["name"] for m in rows[:-1] for side in ("white", "black")]
        assert len(set(teams)) == 14
        assert pab["white"]["name"] not in teams
        pabs.append(pab["white"]["name"])
    assert sorted(pabs) == sorted(SIX_MATCHES)  # once each
    assert get(f"{site.url}/api/tournaments/{CUP}/rounds/8/matches").status_code == 404


def test_the_api_pairs_a_team_round_and_names_its_pab_team(site: Site, tmp_path: Path) -> None:
    paired = _pair(site, BYE)
    expected = (TESTDATA / "chess" / "team" / "team_bye.output.expected").read_text("utf-8")
    pairs = [tuple(map(int, line.split())) for line in expected.splitlines()[1:]]
    shown = [
        (m["white"]["number"], 0 if m["black"] is None else m["black"]["number"])
        for m in paired["matches"]
    ]
    assert shown == pairs
    assert paired["matches"][-1]["match"] is None
    assert [m["match"] for m in paired["matches"][:-1]] == list(range(1, len(pairs)))
    assert paired["boards"]  # the games, as for every event
    # the round's matches are what `arbiter pair` prints of it (the same file, its own store)
    own = str(tmp_path / "own.duckdb")
    cli(own, "ingest", str(TESTDATA / "chess" / "team" / "team_bye.input"))
    printed = cli(own, "pair", BYE, "--format", "json")
    served = get(f"{site.url}/api/tournaments/{BYE}/rounds/{paired['round']}/matches")
    assert served.text == printed
    assert set(paired) == {"round", "boards", "matches"}


def test_the_api_prints_what_the_command_line_prints(site: Site) -> None:
    store = site.served.store
    for tid in (CUP, GO):
        for what in ("standings", "crosstable"):
            printed = cli(store, what, tid, "--format", "json")
            served = get(f"{site.url}/api/tournaments/{tid}/{what}")
            assert served.content == printed.encode(), (tid, what)


def test_a_go_event_with_teams_ranks_its_teams_on_the_web(site: Site) -> None:
    """TeamEGC2013's team points, board wins and matches as OpenGotha computes them from the
    file (`tests.teams.test_go_teams_opengotha`), through the API; its pages answer."""
    rows = get(f"{site.url}/api/tournaments/{GO}/standings").json()
    got = {r["team"]["name"]: (r["match_points"], r["game_points"], r["played"]) for r in rows}
    assert got == opengotha_team_table(require_testdata(*GO_TEAMS))
    for path in (f"/t/{GO}", f"/t/{GO}/crosstable", f"/api/tournaments/{GO}/rounds/1/matches"):
        response = get(site.url + path)
        assert response.status_code == 200, (path, response.text[:300])
    assert "Wampiry" in get(f"{site.url}/t/{GO}").text


def _table(page: Page, selector: str) -> list[dict[str, str]]:
    """The rows of a table, each cell under its column's heading (textContent, trimmed)."""
    head: list[str] = page.eval_on_selector_all(
        f"{selector} thead th", "cells => cells.map(c => c.textContent.trim())"
    )
    body: list[list[str]] = page.eval_on_selector_all(
        f"{selector} tbody tr",
        "rows => rows.map(r => [...r.cells].map(c => c.textContent.trim()))",
    )
    return [dict(zip(head, cells, strict=True)) for cells in body]


def _number(text: str) -> Decimal:
    return Decimal(text)


def test_pages_show_the_published_standings_the_rounds_and_the_crosstable(
    site: Site, browser: Browser
) -> None:
    page = page_at(browser, 1280, 800)
    page.goto(f"{site.url}/t/{CUP}")  # finished: the final standings first
    rows = _table(page, "#standings")
    assert [(r["#"], r["Team"], _number(r["MP"]), _number(r["GP"])) for r in rows] == [
        (str(k), name, Decimal(mp), Decimal(gp) - (1 if name == ODD else 0))
        for k, (name, _w, _d, _l, mp, gp, _e, _b) in enumerate(PUBLISHED, start=1)
    ]
    assert [r["BH:MP"] for r in rows] == [str(p[7]) for p in PUBLISHED]
    assert page.locator("#matches").count() == 0

    page.goto(f"{site.url}/t/{CUP}?round=7")
    matches = _table(page, "#matches")
    api = get(f"{site.url}/api/tournaments/{CUP}/rounds/7/matches").json()
    assert [(m["White"], m["Black"]) for m in matches] == [
        (m["white"]["name"], m["black"]["name"] if m["black"] else "PAB") for m in api
    ]
    assert matches[-1]["White"] in SIX_MATCHES
    for m in matches[:-1]:  # six boards a match; the file lacks one point of ODD's (round 7)
        white, black = m["Score"].split("–")
        assert _number(white) + _number(black) == 6 - (ODD in (m["White"], m["Black"])), m
    assert matches[-1]["Score"] == "3"  # the PAB: a drawn match (C.04.6), 3 of 6 game points

    page.goto(f"{site.url}/t/{CUP}/crosstable")
    cells = _table(page, "#crosstable")
    assert [(c["Rank"], c["Team"], c["MP"]) for c in cells] == [
        (str(k), p[0], str(p[4])) for k, p in enumerate(PUBLISHED, start=1)
    ]
    page.context.close()


def test_team_names_are_text_on_the_pages(site: Site, browser: Browser) -> None:
    paired = _pair(site, HOSTILE)
    names = {m["white"]["name"] for m in paired["matches"]} | {
        m["black"]["name"] for m in paired["matches"] if m["black"]
    }
    assert names == {EVIL, QUOTED, "Plain"}
    assert paired["matches"][-1]["black"] is None  # three teams: one PAB
    page = page_at(browser, 390)
    page.goto(f"{site.url}/t/{HOSTILE}")
    matches = _table(page, "#matches")
    assert {m["White"] for m in matches} | {m["Black"] for m in matches} == {
        EVIL,
        QUOTED,
        "Plain",
        "PAB",
    }
    assert {r["Team"] for r in _table(page, "#standings")} == {EVIL, QUOTED, "Plain"}
    assert page.evaluate("window.pwned === undefined")
    page.context.close()


def test_the_api_enters_a_match_board_of_a_file_round(site: Site) -> None:
    """``"board": "M.B"`` on the API is the file's board B of match M (the expectation read
    from the file's own records: `tests.teams.test_team_match_boards`); each board is
    re-entered with its own result (``correct``), so the published table stays as it is."""
    expected = file_matches(require_testdata(*CUP_FILE), 7)
    boards = get(f"{site.url}/api/tournaments/{CUP}/rounds/7").json()
    games = {
        b["board"]: (frozenset((b["white"]["id"], b["black"]["id"])), b["result"]) for b in boards
    }
    entered = []
    for b in (1, 2):
        response = post(
            f"{site.url}/api/tournaments/{CUP}/results",
            headers={"authorization": f"Bearer {site.tokens[CUP]}"},
            json={"round": 7, "board": f"1.{b}", "result": "1-0", "correct": True},
        )
        assert response.status_code == 201, response.text
        number = response.json()["board_number"]
        entered.append(games[number][0])
        post(
            f"{site.url}/api/tournaments/{CUP}/results",
            headers={"authorization": f"Bearer {site.tokens[CUP]}"},
            json={"round": 7, "board": number, "result": games[number][1], "correct": True},
        ).raise_for_status()
    (match,) = [g for g in expected.values() if g[0] == entered[0]]
    assert entered == match[:2]
