"""The games table a FIDE list run reads: the projection carries each tournament's days."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import polars as pl

from events.domain import Board, Game, Outcome, System
from events.duckdb_store import DuckDBStore
from events.schema import PlayerRegistered, ResultRecorded, RoundPaired, TournamentCreated
from projections.games import project
from ratings.fide_run import rated_on, run_fide_list
from ratings.games import validate_games
from tests.pipelines._season import append_tournament

OCT, NOV, DEC = dt.date(2025, 10, 1), dt.date(2025, 11, 1), dt.date(2025, 12, 1)


def test_a_projected_tournament_is_rated_when_it_ends_from_the_list_when_it_started(
    tmp_path: Path,
) -> None:
    """31 October-2 November: dated 31 October in the games table, rated on the December list
    (it ended in November), from the October list (in force on its first day)."""
    store = DuckDBStore(tmp_path / "log.duckdb")
    try:
        append_tournament(
            store,
            [
                TournamentCreated(
                    tournament_id="thanksgiving",
                    name="Thanksgiving Open",
                    game=Game.CHESS,
                    system=System.IMPORTED,
                    rounds=1,
                    start_date=dt.date(2025, 10, 31),
                    end_date=dt.date(2025, 11, 2),
                ),
                PlayerRegistered(player=1, name="A", fide_id="101"),
                PlayerRegistered(player=2, name="B", fide_id="102"),
                RoundPaired(round=1, boards=(Board(board=1, white=1, black=2),)),
                ResultRecorded(round=1, board=1, outcome=Outcome.WHITE_WINS),
            ],
        )
        games = validate_games(project(store.read_frame()).games)
    finally:
        store.close()
    assert games.select("date", "event_start", "event_end").row(0) == (
        dt.date(2025, 10, 31),
        dt.date(2025, 10, 31),
        dt.date(2025, 11, 2),
    )
    assert rated_on(games, NOV).height == 0
    lists = {
        OCT: pl.DataFrame({"player_id": ["101", "102"], "rating": [2000, 2000], "k": [20, 20]}),
        NOV: pl.DataFrame({"player_id": ["101", "102"], "rating": [2100, 1900], "k": [20, 20]}),
    }
    run = run_fide_list(rated_on(games, DEC), lists, list_date=DEC)
    # October's ratings (D 0 → .50): +10 / −10 on November's 2100 / 1900.
    assert run.tournaments["list_date"].to_list() == [OCT, OCT]
    assert dict(zip(run.new_list["player_id"], run.new_list["rating"], strict=True)) == {
        "fide:101": 2110,
        "fide:102": 1890,
    }
