"""The rating-list run: files, publication, reproducibility, diff, atomic writes, escaping."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
from collections.abc import Iterator
from pathlib import Path

import polars as pl
import pytest

from events.duckdb_store import DuckDBStore
from events.schema import RatingListPublished
from pipelines.jobs import ratings as ratings_job
from pipelines.jobs.ratings import RunRequest, publications, run_list
from pipelines.process.files import write_atomic, write_new_files
from pipelines.views.rating_player import UnknownPlayer, player_report
from projections.games import GamesCache
from ratings.listing import LIST_COLUMNS, diff_lists
from ratings.methods import Method
from tests.pipelines._season import monthly, players, season

AS_OF = dt.date(2025, 1, 1)
EVIL = '<script>alert("x")</script>, Eve'


@pytest.fixture
def store(tmp_path: Path) -> Iterator[DuckDBStore]:
    s = DuckDBStore(tmp_path / "log.duckdb")
    season(s, players(30), monthly(dt.date(2024, 1, 6), 12), names={7: EVIL})
    yield s
    s.close()


def _run(
    store: DuckDBStore, out: Path, as_of: dt.date = AS_OF, **kw: object
) -> ratings_job.RunResult:
    request = RunRequest(method=Method.WOF, as_of=as_of, output=out, **kw)  # type: ignore[arg-type]
    with GamesCache() as cache:
        return run_list(store, cache, request)


FILES = ("ratings.csv", "ratings.parquet", "diff.csv", "index.html", "manifest.json")


def _bytes(folder: Path) -> dict[str, bytes]:
    files = {name: (folder / name).read_bytes() for name in FILES}
    files.update(
        {f"charts/{p.name}": p.read_bytes() for p in sorted((folder / "charts").iterdir())}
    )
    return files


def test_run_writes_the_list_and_publishes_it(store: DuckDBStore, tmp_path: Path) -> None:
    out = tmp_path / "lists" / "2025-01"
    last_position = int(store.read_frame()["global_position"].max())  # type: ignore[arg-type]
    result = _run(store, out)
    csv = (out / "ratings.csv").read_bytes()
    listing = pl.read_csv(out / "ratings.csv")
    assert listing.columns == list(LIST_COLUMNS)
    assert listing.height == 30  # everyone played within the activity window
    assert listing.filter(pl.col("official"))["rank"].to_list() == list(
        range(1, listing.filter(pl.col("official")).height + 1)
    )
    assert pl.read_parquet(out / "ratings.parquet").equals(
        pl.read_csv(out / "ratings.csv", schema=pl.Schema(LIST_COLUMNS))
    )
    (event,) = [e.event for e in store.read_stream("ratinglist-wof")]
    assert isinstance(event, RatingListPublished)
    assert event.content_sha256 == hashlib.sha256(csv).hexdigest() == result.content_sha256
    assert event.as_of_position == last_position
    assert (event.as_of, event.players, event.output) == (AS_OF, 30, str(out.resolve()))
    metadata = pl.read_parquet_metadata(out / "ratings.parquet")
    assert metadata["as_of_position"] == str(last_position)
    assert metadata["method"] == "wof"
    # The list names the log it was computed from: the chain head at its position, the
    # hash of that position's event row (events.chain), which `arbiter verify` recomputes.
    (row,) = [e for e in store.export_image().events.iter_rows(named=True)
              if e["global_position"] == last_position]  # fmt: skip
    head = json.loads((out / "manifest.json").read_text())["log_chain_head"]
    assert head == {"position": last_position, "log_hash": row["log_hash"]}
    assert len(row["log_hash"]) == 64
    assert not [p for p in out.rglob("*") if p.name.startswith(".")]  # no temp files left
    assert result.games == 12 * 66


def test_same_as_of_on_the_same_log_gives_the_same_bytes(
    store: DuckDBStore, tmp_path: Path
) -> None:
    first = _run(store, tmp_path / "a")
    again = _run(store, tmp_path / "a")
    assert not again.published  # the same list in the same place is published once
    second = _run(store, tmp_path / "b")
    assert _bytes(tmp_path / "a") == _bytes(tmp_path / "b")
    # A late result dated before the as-of date changes the list; reading the log up to the
    # first run's position reproduces it byte for byte.
    season(store, players(30), [dt.date(2024, 12, 20)], seed=123)
    late = _run(store, tmp_path / "c")
    assert late.content_sha256 != first.content_sha256
    reproduced = _run(store, tmp_path / "d", at_position=first.as_of_position, publish=False)
    assert reproduced.as_of_position == first.as_of_position == second.as_of_position
    assert (tmp_path / "d" / "ratings.csv").read_bytes() == (
        tmp_path / "a" / "ratings.csv"
    ).read_bytes()
    assert (tmp_path / "d" / "ratings.parquet").read_bytes() == (
        tmp_path / "a" / "ratings.parquet"
    ).read_bytes()


def test_diff_against_the_previous_list(store: DuckDBStore, tmp_path: Path) -> None:
    _run(store, tmp_path / "jul", as_of=dt.date(2024, 7, 1))
    result = _run(store, tmp_path / "jan")
    assert result.previous is not None
    assert result.previous.as_of == dt.date(2024, 7, 1)
    before = pl.read_csv(tmp_path / "jul" / "ratings.csv").select("player_id", "rating")
    after = pl.read_csv(tmp_path / "jan" / "ratings.csv").select("player_id", "rating")
    b, a = dict(before.rows()), dict(after.rows())
    expected = {
        **{p: "new" for p in a if p not in b},
        **{p: "dropped" for p in b if p not in a},
        **{p: "moved" for p in a if p in b and a[p] != b[p]},
    }
    diff = pl.read_csv(tmp_path / "jan" / "diff.csv")
    assert dict(diff.select("player_id", "change").rows()) == expected
    moved = diff.filter(pl.col("change") == "moved")
    assert moved["delta"].abs().to_list() == sorted(moved["delta"].abs().to_list(), reverse=True)
    assert moved.select(
        (pl.col("rating_after") - pl.col("rating_before") == pl.col("delta")).all()
    ).item()


def test_diff_lists_worked_example() -> None:
    def frame(rows: list[tuple[str, int | None, int | None]]) -> pl.DataFrame:
        return pl.DataFrame(
            [
                {"rank": rank, "player_id": pid, "name": pid.upper(), "country": "FRA",
                 "rating": rating}
                for pid, rating, rank in rows
            ],
            schema={"rank": pl.Int64, "player_id": pl.Utf8, "name": pl.Utf8, "country": pl.Utf8,
                    "rating": pl.Int64},
        )  # fmt: skip

    previous = frame([("a", 2000, 1), ("b", 1900, 2), ("c", 1800, 3), ("d", 1700, 4)])
    current = frame([("a", 2010, 1), ("c", 1900, 2), ("d", 1700, 3), ("e", 1750, None)])
    diff = diff_lists(previous, current)
    assert diff.select("change", "player_id", "name", "delta").rows() == [
        ("new", "e", "E", None),
        ("dropped", "b", "B", None),
        ("moved", "c", "C", 100),
        ("moved", "a", "A", 10),
    ]


def test_previous_list_gone_from_disk_is_recomputed(store: DuckDBStore, tmp_path: Path) -> None:
    _run(store, tmp_path / "jul", as_of=dt.date(2024, 7, 1))
    _run(store, tmp_path / "jan")
    kept = (tmp_path / "jan" / "diff.csv").read_bytes()
    (tmp_path / "jul" / "ratings.csv").unlink()
    result = _run(store, tmp_path / "jan2")
    assert any("recomputed" in n for n in result.notes)
    assert (tmp_path / "jan2" / "diff.csv").read_bytes() == kept


def test_html_escapes_names_and_links_charts(store: DuckDBStore, tmp_path: Path) -> None:
    _run(store, tmp_path / "out")
    page = (tmp_path / "out" / "index.html").read_text(encoding="utf-8")
    assert "<script>alert" not in page
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in page
    assert '<option value="JPN">JPN</option>' in page
    assert page.count("<script>") == 1  # only the page's own sorting/filtering script
    assert 'href="charts/wof-7.svg"' in page
    svg = (tmp_path / "out" / "charts" / "wof-7.svg").read_text()
    assert svg.startswith("<svg")
    assert "<polyline" in svg


def test_player_report_follows_the_published_lists(store: DuckDBStore, tmp_path: Path) -> None:
    _run(store, tmp_path / "jul", as_of=dt.date(2024, 7, 1))
    _run(store, tmp_path / "jan")
    with GamesCache() as cache:
        report = player_report(store, cache, Method.WOF, "wof:7", latest_games=3)
    assert [h["as_of"] for h in report.history] == ["2024-07-01", "2025-01-01"]
    assert report.name == EVIL
    jan = pl.read_csv(tmp_path / "jan" / "ratings.csv").filter(pl.col("player_id") == "wof:7")
    assert report.history[-1]["rating"] == jan["rating"][0]
    assert len(report.games) == 3
    entries = store.read_frame().filter(
        (pl.col("event_type") == "PlayerRegistered")
        & pl.col("payload").str.contains('"wof":"7"', literal=True)
    )
    assert report.games_total == 11 * entries.height  # round robins of 12
    with GamesCache() as cache, pytest.raises(UnknownPlayer, match="wof:999"):
        player_report(store, cache, Method.WOF, "wof:999")


def test_write_atomic_keeps_the_old_file_when_the_write_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "ratings.csv"
    target.write_text("old\n")

    def boom(src: str, dst: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(OSError, match="No space"):
        write_atomic(target, b"new\n")
    monkeypatch.undo()
    assert target.read_text() == "old\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ratings.csv"]
    write_atomic(target, b"new\n")
    assert target.read_text() == "new\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ratings.csv"]


def test_publications_read_back(store: DuckDBStore, tmp_path: Path) -> None:
    _run(store, tmp_path / "x")
    (pub,) = publications(store, Method.WOF)
    assert pub.as_of == AS_OF
    assert publications(store, Method.FIDE) == []


def _chess_event(tid: str, start: dt.date, ratings: list[int], *, go: bool = False) -> list[object]:
    """A round robin where the higher-rated player always wins (go: ranks and EGD pins)."""
    from events.domain import Board, Game, Outcome, System
    from events.schema import PlayerRegistered, ResultRecorded, RoundPaired, TournamentCreated
    from tests.pipelines._season import round_robin

    events: list[object] = [
        TournamentCreated(
            tournament_id=tid, name=tid, game=Game.GO if go else Game.CHESS,
            system=System.ROUNDROBIN,
            rounds=len(ratings) - 1, start_date=start,
        )
    ]  # fmt: skip
    for n, rating in enumerate(ratings, start=1):
        if go:
            grade = f"{(rating - 2000) // 100}d"  # 2300 → 3d
            registered = PlayerRegistered(
                player=n, name=f"P{n}, X", rank=grade, ids={"egd_pin": str(1000 + n)}
            )
        else:
            registered = PlayerRegistered(
                player=n, name=f"P{n}, X", rating=rating, fide_id=str(1000 + n)
            )
        events.append(registered)
    for r, pairs in enumerate(round_robin(len(ratings)), start=1):
        events.append(
            RoundPaired(
                round=r,
                boards=tuple(
                    Board(board=b, white=w + 1, black=k + 1) for b, (w, k) in enumerate(pairs, 1)
                ),
            )
        )
        for b, (w, k) in enumerate(pairs, 1):
            won = ratings[w] > ratings[k]
            events.append(
                ResultRecorded(
                    round=r, board=b, outcome=Outcome.WHITE_WINS if won else Outcome.BLACK_WINS
                )
            )
    return events


def test_fide_list_folds_monthly_periods_from_the_registered_ratings(tmp_path: Path) -> None:
    from tests.pipelines._season import append_tournament

    ratings = [2300, 2200, 2100, 2000, 1900, 1800, 1700, 1600]
    with DuckDBStore(tmp_path / "chess.duckdb") as store:
        append_tournament(store, _chess_event("jan", dt.date(2025, 1, 11), ratings))  # type: ignore[arg-type]
        append_tournament(store, _chess_event("feb", dt.date(2025, 2, 8), ratings))  # type: ignore[arg-type]
        request = RunRequest(method=Method.FIDE, as_of=dt.date(2025, 3, 1), output=tmp_path / "f")
        with GamesCache() as cache:
            result = run_list(store, cache, request)
    listing = pl.read_csv(tmp_path / "f" / "ratings.csv")
    assert result.players == 8
    assert listing["player_id"].to_list() == [f"fide:{1000 + n}" for n in range(1, 9)]
    assert listing["games"].to_list() == [14] * 8
    assert listing["official"].all()
    # Everyone scored as expected of their rank; the favourite's gain is below 7 wins' worth.
    top = listing.row(0, named=True)
    assert 2300 < top["rating"] < 2300 + 2 * 20 * 7


def test_egf_list_starts_from_the_registered_grades(tmp_path: Path) -> None:
    from tests.pipelines._season import append_tournament

    ratings = [2700, 2600, 2500, 2400, 2300, 2200, 2100, 2100]
    with DuckDBStore(tmp_path / "go.duckdb") as store:
        append_tournament(store, _chess_event("go", dt.date(2025, 1, 11), ratings, go=True))  # type: ignore[arg-type]
        request = RunRequest(method=Method.EGF, as_of=dt.date(2025, 2, 1), output=tmp_path / "e")
        with GamesCache() as cache:
            run_list(store, cache, request)
    listing = pl.read_csv(tmp_path / "e" / "ratings.csv")
    top = listing.row(0, named=True)
    assert top["player_id"] == "egd:1001"
    assert top["rating"] > 2700  # 7d won every game: above the 7d value
    assert listing["games"].to_list() == [7] * 8


def test_glicko2_period_length_changes_the_list(store: DuckDBStore, tmp_path: Path) -> None:
    one = _run_method(store, tmp_path / "g1", Method.GLICKO2, period_months=1)
    three = _run_method(store, tmp_path / "g3", Method.GLICKO2, period_months=3)
    assert one.players == three.players == 30
    assert one.content_sha256 != three.content_sha256
    listing = pl.read_csv(tmp_path / "g1" / "ratings.csv")
    assert abs(listing["rating"].mean() - 1500) < 50  # type: ignore[operator]
    assert listing.filter(~pl.col("official"))["provisional_reason"].is_not_null().all()


def _run_method(
    store: DuckDBStore, out: Path, method: Method, **kw: object
) -> ratings_job.RunResult:
    request = RunRequest(method=method, as_of=AS_OF, output=out, **kw)  # type: ignore[arg-type]
    with GamesCache() as cache:
        return run_list(store, cache, request)


def test_write_new_files_writes_many_and_the_later_of_a_name_stays(tmp_path: Path) -> None:
    files = [(f"c{i}.svg", f"<svg>{i}</svg>".encode()) for i in range(1500)]
    assert write_new_files(tmp_path, [*files, ("c7.svg", b"again")]) == 1501
    assert len(list(tmp_path.iterdir())) == 1500
    assert (tmp_path / "c1499.svg").read_bytes() == b"<svg>1499</svg>"
    assert (tmp_path / "c7.svg").read_bytes() == b"again"
    with pytest.raises(ValueError, match="not a file name"):
        write_new_files(tmp_path, [("../x.svg", b"")])
