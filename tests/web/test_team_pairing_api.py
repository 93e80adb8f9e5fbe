"""A team Swiss round paired through the HTTP API (``POST /api/tournaments/T/pair``) on a real
``arbiter serve``: every ``chess/team`` fixture ingested, paired by its director's token, and
compared with the fixture's own ``.output.expected`` (C.04.6, derived by hand in the corpus),
as ``tests/teams/test_team_live.py`` does through the command line.

The API answers with the games (board by board, players); each game is read back to its
match through the fixture's own rosters (``310``): the teams of board 1 of each match, White
first, as the expected file writes them. The team PAB is not a game: its team must be on no
board."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from ingest.trf import parse_trf
from ingest.trf.teams import rosters
from tests.conftest import TESTDATA, require_testdata
from tests.web.serving import Served, add_user, cli, serve

FIXTURES = sorted(p.stem for p in (TESTDATA / "chess" / "team").glob("team_*.input"))


def _tid(name: str) -> str:
    return name.replace("_", "-").lower()


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Served, dict[str, str]]]:
    folder = require_testdata("chess", "team")
    work = tmp_path_factory.mktemp("team-api")
    store = str(work / "store.duckdb")
    cli(store, "ingest", *(str(p) for p in sorted(folder.glob("team_*.input"))))
    tokens = {
        name: add_user(store, f"td-{_tid(name)}", "director", _tid(name)) for name in FIXTURES
    }
    server = serve(store, work)
    try:
        yield server, tokens
    finally:
        server.stop()


def _matches(name: str, boards: list[dict[str, Any]]) -> tuple[list[tuple[int, int]], set[int]]:
    """The matches (White's team on the match's first board, Black's) in board order, and
    the teams seated."""
    fixture = TESTDATA / "chess" / "team" / f"{name}.input"
    team_of = {m: r.number for r in rosters(parse_trf(fixture)) for m in r.members}
    matches: list[tuple[int, int]] = []
    for board in boards:
        assert board["black"] is not None, f"a game without an opponent: {board}"
        white, black = team_of[board["white"]["id"]], team_of[board["black"]["id"]]
        if not any({white, black} == set(m) for m in matches):
            matches.append((white, black))
    return matches, {t for m in matches for t in m}


@pytest.mark.parametrize("name", FIXTURES or ["<missing corpus>"])
def test_fixture_paired_through_the_api(served: tuple[Served, dict[str, str]], name: str) -> None:
    server, tokens = served
    response = httpx.post(
        f"{server.url}/api/tournaments/{_tid(name)}/pair",
        headers={"authorization": f"Bearer {tokens[name]}"},
        timeout=60,
    )
    assert response.status_code == 201, response.text
    lines = (TESTDATA / "chess" / "team" / f"{name}.output.expected").read_text("utf-8")
    pairs = [tuple(map(int, line.split())) for line in lines.splitlines()[1:]]
    matches, seated = _matches(name, response.json()["boards"])
    assert matches == [(w, b) for w, b in pairs if b != 0]
    assert not seated & {w for w, b in pairs if b == 0}, "the PAB team has a game"


def test_team_standings_are_published_as_the_command_line_prints_them(
    served: tuple[Served, dict[str, str]],
) -> None:
    """The server holds team events beside the rest; their standings and crosstable are the
    command line's, byte for byte (their values: ``test_team_web.py``)."""
    server, _ = served
    tid = _tid(FIXTURES[0])
    for what in ("standings", "crosstable"):
        response = httpx.get(f"{server.url}/api/tournaments/{tid}/{what}", timeout=60)
        assert response.status_code == 200, response.text
        assert response.content == cli(server.store, what, tid, "--format", "json").encode()
    assert httpx.get(f"{server.url}/api/tournaments", timeout=60).status_code == 200
