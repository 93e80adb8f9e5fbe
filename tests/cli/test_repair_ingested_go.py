"""Issue 7's flow on OpenGotha's own events: ingest the XML, undo back to round k, pair again.

The round we pair must hold the games OpenGotha paired (players, colours and handicap).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from decide.state import TournamentState
from events.duckdb_store import DuckDBStore
from pipelines.commands import base as commands
from pipelines.commands import rounds, undo
from pipelines.jobs.ingest import ingest
from tests.conftest import require_testdata

FILES = {"simpleswiss": 7, "notsosimpleswiss": 10, "simplemm": 5, "notsimplemm": 5}
CASES = [(name, k) for name, rounds in FILES.items() for k in range(1, rounds + 1)]


def games(state: TournamentState, k: int) -> set[tuple[int, int | None, int]]:
    return {(b.white, b.black, b.handicap) for b in state.rounds[k].boards}


@pytest.mark.golden
@pytest.mark.parametrize(("name", "k"), CASES)
def test_undo_and_pair_reproduces_opengotha(name: str, k: int, tmp_path: Path) -> None:
    path = require_testdata("go", "pairgoth", "opengotha", "pairings", f"{name}.xml")
    with DuckDBStore(tmp_path / "s.duckdb") as store:
        report = ingest(store, [path])
        assert report.ok
        (tid,) = commands.tournament_ids(store)
        expected = games(commands.load(store, tid).state, k)
        undo.undo(store, tid, k, reason="test")
        rounds.pair(store, tid)
        assert games(commands.load(store, tid).state, k) == expected
