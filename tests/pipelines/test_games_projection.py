"""The games-table projection: which boards are rated games, ids, dates, incremental upkeep."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from pathlib import Path

import polars as pl
import pytest

from events.domain import Board, Game, Outcome, System
from events.duckdb_store import DuckDBStore
from events.params import PairingParams
from events.schema import (
    EventBase,
    FederationPlayerRegistered,
    PlayerRegistered,
    PlayerUpdated,
    ResultCorrected,
    ResultRecorded,
    RoundPaired,
    TournamentCreated,
)
from events.store import NewEvent
from projections.games import GamesCache, project
from ratings.games import GAMES_SCHEMA, validate_games, validate_players
from tests.conftest import require_testdata
from tests.pipelines._season import append_tournament, monthly, players, season


def _club() -> list[EventBase]:
    def reg(n: int, name: str, **kw: object) -> PlayerRegistered:
        return PlayerRegistered(player=n, name=name, federation="FRA", **kw)  # type: ignore[arg-type]

    return [
        TournamentCreated(
            tournament_id="club",
            name="Club",
            game=Game.OTHELLO,
            system=System.IMPORTED,
            rounds=2,
            start_date=dt.date(2024, 3, 2),
        ),
        reg(1, "Alpha, A", ids={"wof": "101"}),
        reg(2, "Beta, B", ids={"wof": "102"}),
        reg(3, "Gamma, G", ids={"registry": "player-local-abc-3"}),
        reg(4, "??????"),
        reg(5, "Delta, D", fide_id="999"),
        reg(6, "Eps, E"),
        reg(7, "Zeta, Z", ids={"wof": "107"}),
        RoundPaired(
            round=1,
            boards=(
                Board(board=1, white=1, black=2),
                Board(board=2, white=3, black=5),
                Board(board=3, white=4, black=6),
                Board(board=4, white=7),
            ),
        ),
        ResultRecorded(round=1, board=1, outcome=Outcome.WHITE_WINS),
        ResultRecorded(round=1, board=2, outcome=Outcome.DRAW),
        ResultRecorded(round=1, board=3, outcome=Outcome.WHITE_WINS),
        RoundPaired(
            round=2,
            boards=(
                Board(board=1, white=2, black=1),
                Board(board=2, white=5, black=3),
                Board(board=3, white=6, black=7),
                Board(board=4, white=4),
            ),
        ),
        ResultRecorded(round=2, board=1, outcome=Outcome.WHITE_WINS_FORFEIT),
        ResultRecorded(round=2, board=2, outcome=Outcome.BLACK_WINS),
        ResultCorrected(round=2, board=2, outcome=Outcome.WHITE_WINS, reason="score sheet"),
        ResultRecorded(round=2, board=3, outcome=Outcome.BLACK_WINS),
        PlayerUpdated(player=6, name="Epsilon, E"),
    ]


@pytest.fixture
def store(tmp_path: Path) -> Iterator[DuckDBStore]:
    s = DuckDBStore(tmp_path / "log.duckdb")
    yield s
    s.close()


def test_rated_games_ids_and_corrections(store: DuckDBStore) -> None:
    append_tournament(store, _club())
    store.append(
        "player-wof-101",
        [
            NewEvent(
                FederationPlayerRegistered(
                    scheme="wof", federation_id="101", name="ALPHA, Anna", country="BEL"
                )
            )
        ],
        -1,
    )
    p = project(store.read_frame())
    games = validate_games(p.games.select(list(GAMES_SCHEMA)))
    rows = games.select("player_a", "player_b", "score_a", "color_a").rows()
    # Byes, the forfeit, the unnamed ?????? player and nothing else drop out; the
    # correction replaces the recorded result.
    assert rows == [
        ("wof:101", "wof:102", 1.0, "white"),
        ("local:abc-3", "fide:999", 0.5, "white"),
        ("fide:999", "local:abc-3", 1.0, "white"),
        ("local:club#6", "wof:107", 0.0, "white"),
    ]
    assert games["date"].unique().to_list() == [dt.date(2024, 3, 2)]
    assert games["event"].unique().to_list() == ["club"]
    assert games["weight"].unique().to_list() == [1.0]
    cache = GamesCache()
    cache.sync(store)
    people = validate_players(cache.players())
    named = dict(people.select("player_id", "name").rows())
    assert named["wof:101"] == "ALPHA, Anna"  # the registry wins over the file's spelling
    assert named["local:club#6"] == "Epsilon, E"  # a later update applies
    assert dict(people.select("player_id", "country").rows())["wof:101"] == "BEL"


def _go(tid: str, klass: str, handicap: int) -> list[EventBase]:
    return [
        TournamentCreated(
            tournament_id=tid,
            name=tid,
            game=Game.GO,
            system=System.MACMAHON,
            rounds=1,
            start_date=dt.date(2024, 5, 4),
            pairing_params=PairingParams.model_validate({"egf_class": klass}),
        ),
        PlayerRegistered(player=1, name="Kim, A", ids={"egd_pin": "11"}, fide_id="5"),
        PlayerRegistered(player=2, name="Lee, B", ids={"egd_pin": "12"}),
        RoundPaired(
            round=1, boards=(Board(board=1, white=1, black=2, handicap=handicap, komi=0.5),)
        ),
        ResultRecorded(round=1, board=1, outcome=Outcome.BLACK_WINS),
    ]


def test_go_handicap_komi_and_class_weight(store: DuckDBStore) -> None:
    append_tournament(store, _go("go-b", "B", 2))
    append_tournament(store, _go("go-x", "X", 0))  # class X: not rated
    games = project(store.read_frame()).games
    assert games.select(
        "event", "player_a", "player_b", "score_a", "weight", "handicap", "komi"
    ).rows() == [("go-b", "egd:11", "egd:12", 0.0, 0.75, 2, 0.5)]


def test_incremental_sync_matches_a_fresh_projection(store: DuckDBStore, tmp_path: Path) -> None:
    field = players(30)
    season(store, field, monthly(dt.date(2024, 1, 6), 4), size=10)
    cache = GamesCache.for_store(store)
    assert cache.path == str(tmp_path / "log.games.duckdb")  # beside the store's file
    first = cache.sync(store)
    assert first.rebuilt
    assert first.games == 4 * 45
    season(store, field, monthly(dt.date(2024, 6, 6), 2), size=10, seed=8)
    store.append(
        "tournament-t00-2024-01-06",
        [NewEvent(ResultCorrected(round=1, board=1, outcome=Outcome.DRAW))],
        store.stream_version("tournament-t00-2024-01-06"),
    )
    second = cache.sync(store)
    assert not second.rebuilt
    assert second.streams == 3  # two new tournaments and the corrected one
    fresh = project(store.read_frame()).games.select(list(GAMES_SCHEMA))
    assert cache.games().equals(fresh)
    assert (
        second.checkpoint == second.source_position == store.read_frame()["global_position"].max()
    )
    again = cache.sync(store)
    assert (again.rebuilt, again.streams, again.games) == (False, 0, second.games)


def test_truncation_changes_the_epoch_and_rebuilds(store: DuckDBStore) -> None:
    field = players(20)
    (tid,) = season(store, field, [dt.date(2024, 2, 3)], size=8)
    cache = GamesCache()
    assert cache.sync(store).games == 28
    stream = f"tournament-{tid}"
    events = store.read_stream(stream)
    round_two = next(
        e for e in events if e.event_type == "RoundPaired" and '"round":2' in e.payload
    )
    store.truncate(stream, round_two.version - 1, events[-1].version, "test", "undo")
    report = cache.sync(store)
    assert report.rebuilt
    assert report.games == 4  # round 1 only


def test_another_log_under_the_same_cache_is_rebuilt(tmp_path: Path) -> None:
    cache_file = str(tmp_path / "cache.duckdb")
    with DuckDBStore(tmp_path / "a.duckdb") as a:
        season(a, players(12), [dt.date(2024, 1, 1)], size=6)
        with GamesCache(cache_file) as cache:
            cache.sync(a)
    with DuckDBStore(tmp_path / "b.duckdb") as b:
        season(b, players(12), [dt.date(2024, 1, 1), dt.date(2024, 2, 1)], size=6, seed=99)
        with GamesCache(cache_file) as cache:
            report = cache.sync(b)
            assert report.rebuilt
            assert cache.games().equals(project(b.read_frame()).games.select(list(GAMES_SCHEMA)))


@pytest.mark.golden
def test_wof_files_project_to_the_games_the_reader_sees(tmp_path: Path) -> None:
    """One archive year through ingest and the projection equals reading the files directly."""
    from pipelines.jobs.ingest import discover, ingest
    from tests.ratings.wof_reference import archive_games

    root = require_testdata("othello", "elo", "2013")
    with DuckDBStore(tmp_path / "wof.duckdb") as store:
        report = ingest(store, discover([root]))
        games = project(store.read_frame()).games
    ingested = {Path(f.path).stem for f in report.files if f.status.value == "ingested"}
    expected = archive_games(root).filter(pl.col("event").is_in(ingested))

    def unordered(frame: pl.DataFrame) -> pl.DataFrame:
        """Games as (date, lower id, higher id, lower id's score): seats differ by design."""
        low_first = pl.col("a") < pl.col("b")
        return frame.select(
            "date",
            pl.when(low_first).then("a").otherwise("b").alias("low"),
            pl.when(low_first).then("b").otherwise("a").alias("high"),
            pl.when(low_first).then("score_a").otherwise(1 - pl.col("score_a")).alias("score"),
        ).sort("date", "low", "high", "score")

    ours = games.select(
        "date",
        pl.col("player_a").str.strip_prefix("wof:").cast(pl.Int64).alias("a"),
        pl.col("player_b").str.strip_prefix("wof:").cast(pl.Int64).alias("b"),
        "score_a",
    )
    theirs = expected.select(
        "date",
        pl.col("player_a").cast(pl.Int64).alias("a"),
        pl.col("player_b").cast(pl.Int64).alias("b"),
        "score_a",
    )
    assert len(ingested) > 300
    assert unordered(ours).equals(unordered(theirs))


def test_the_rating_type_of_a_tournament_reaches_the_games_table(tmp_path: Path) -> None:
    """The creation event's rating type (top level, or in pairing_params as today's events
    can carry it), lower-cased; null when the event states none."""

    def chess(tid: str, **kw: object) -> list[EventBase]:
        return [
            TournamentCreated(
                tournament_id=tid, name=tid, game=Game.CHESS, system=System.IMPORTED, rounds=1,
                start_date=dt.date(2025, 1, 4), **kw,  # type: ignore[arg-type]
            ),
            PlayerRegistered(player=1, name="A, A", fide_id=f"{tid}1"),
            PlayerRegistered(player=2, name="B, B", fide_id=f"{tid}2"),
            RoundPaired(round=1, boards=(Board(board=1, white=1, black=2),)),
            ResultRecorded(round=1, board=1, outcome=Outcome.DRAW),
        ]  # fmt: skip

    path = tmp_path / "log.duckdb"
    with DuckDBStore(path) as store:
        append_tournament(store, chess("std"))
        append_tournament(store, chess("rap", pairing_params={"rating_type": "Rapid"}))
        by_event = dict(project(store.read_frame()).games.select("event", "rating_type").rows())
        assert by_event == {"std": None, "rap": "rapid"}
        # A cache written by the previous projection version (no rating_type column) is
        # rebuilt with the new columns.
        cache_file = tmp_path / "old.games.duckdb"
        with GamesCache(str(cache_file)) as cache:
            cache.sync(store)
            cache._cache._con.execute("ALTER TABLE games DROP COLUMN rating_type")
            cache._cache._con.execute("UPDATE meta SET value = 3 WHERE key = 'version'")
        with GamesCache(str(cache_file)) as cache:
            assert cache.sync(store).rebuilt
            assert sorted(cache.games(full=True)["rating_type"].to_list(), key=str) == [
                None,
                "rapid",
            ]


def test_a_correction_to_rating_0_leaves_no_rating(store: DuckDBStore) -> None:
    """docs/validation.md, rating: 0 is unrated, so a `PlayerUpdated` rating of 0 takes the
    registered rating away (and a later rating gives one again)."""
    events = _club()
    events[1:3] = [
        PlayerRegistered(
            player=1, name="Alpha, A", federation="FRA", ids={"wof": "101"}, rating=1700
        ),
        PlayerRegistered(
            player=2, name="Beta, B", federation="FRA", ids={"wof": "102"}, rating=1600
        ),
    ]
    events += [
        PlayerUpdated(player=1, rating=0),
        PlayerUpdated(player=2, rating=0),
        PlayerUpdated(player=2, rating=1650),
    ]
    append_tournament(store, events)
    cache = GamesCache()
    cache.sync(store)
    ratings = dict(cache.players().select("player_id", "rating").rows())
    assert (ratings["wof:101"], ratings["wof:102"]) == (None, 1650.0)
