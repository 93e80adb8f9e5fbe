"""The rating officer's month through the CLI: late reports found from the log, the run's
summary, and the new list in FIDE's own XML layout.

A tournament that ended before the list a run updates and was recorded after that list was
imported is rated late, on the new list, from the list in force at its start (FIDE's F-P05:
its first tournament ended in August 2026, was rated on the October list from the August
list). History ingested before the list is taken as already in it. ``--late`` and
``--not-late`` override; both are recorded in the run's ``RatingListPublished``.

Every expected value comes from ``../shared/testdata/chess/fide_ratings/`` (read in place):
FIDE's published list values, the tournaments' dates and game counts, the US Championship's
66 games. The files are built by :mod:`tests.cli.fide_files`.
"""

from __future__ import annotations

import csv
import datetime as dt
import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from events.duckdb_store import DuckDBStore
from events.imported_lists import latest_list
from events.schema import RatingListPublished
from pipelines.jobs.scheduler import ScheduleConfig, catch_up
from ratings.methods import Method
from tests.cli.fide_files import (
    Json,
    PublishedCase,
    championship_case,
    published_case,
    read_reference,
    write_list,
    write_trf,
)
from tests.cli.test_rating_list_import_cli import arbiter

pytestmark = pytest.mark.golden


def _case(case_id: str) -> tuple[Json, PublishedCase]:
    cases = read_reference("published_calculations.json")["cases"]
    case = next(c for c in cases if c["id"] == case_id)
    return case, published_case(case)


def _import_lists(store: Path, folder: Path, files: PublishedCase) -> None:
    for day, rows in sorted(files.lists.items()):
        path = write_list(folder / f"list-{day:%Y-%m}.xml", rows)
        arbiter(store, "ratings", "import", str(path), "--date", day.isoformat())


def _ingest(store: Path, folder: Path, files: PublishedCase) -> None:
    inbox = folder / "inbox"
    inbox.mkdir()
    for name, start, end, players in files.events:
        write_trf(inbox / f"{name}.trf", name, start, end, players)
    arbiter(store, "ingest", str(inbox))


def _store(folder: Path, files: PublishedCase, *, history_first: bool = False) -> Path:
    """A store built as an officer does: the lists imported, then the events ingested (or,
    ``history_first``, the events ingested before the lists)."""
    store = folder / "arbiter.duckdb"
    arbiter(store, "store", "init")
    if history_first:
        _ingest(store, folder, files)
        _import_lists(store, folder, files)
    else:
        _import_lists(store, folder, files)
        _ingest(store, folder, files)
    return store


def _run(
    store: Path, out: Path, period: dt.date, *extra: str, code: int = 0
) -> subprocess.CompletedProcess[str]:
    args = ("ratings", "run", "--method", "fide", "--as-of", period.isoformat(), "-o", str(out))
    return arbiter(store, *args, *extra, code=code)


def _rows(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8") as f:
        return list(csv.DictReader(f))


def _published(store: Path) -> list[dict[str, Any]]:
    """The parameters of every FIDE list the runs published, in log order."""
    with DuckDBStore(str(store)) as s:
        return [
            dict(r.event.parameters)
            for r in s.read_stream("ratinglist-fide")
            if isinstance(r.event, RatingListPublished)
        ]


def _log_length(store: Path) -> int:
    with DuckDBStore(str(store)) as s:
        return s.read_frame().height


def _expected_row(case: Json) -> tuple[int, int, int]:
    period = case["rating_period"]
    return (
        case["published_list_ratings"][period],
        case["published_list_games"][period],
        case["published_list_k"][period],
    )


def _row(out: Path, fide_id: int) -> tuple[int, int, int]:
    row = next(r for r in _rows(out / "ratings.csv") if r["fide_id"] == str(fide_id))
    return int(row["rating"]), int(row["games"]), int(row["k"])


def _ended(case: Json) -> dict[str, str]:
    return {f"e{t['event_id']}": t["end"] for t in case["tournaments"]}


def test_the_run_finds_a_late_report_from_the_log(tmp_path: Path) -> None:
    """F-P05 as an officer works: lists imported, TRF files ingested, one run naming no
    tournament. The August tournament arrived after the September list: rated late on the
    October list, named on stderr and in tournaments.csv; FIDE's October values."""
    case, files = _case("F-P05")
    assert files.late  # the data has a tournament that ended before the previous list
    store = _store(tmp_path, files)
    out = tmp_path / "list"
    done = _run(store, out, files.period)
    ended = _ended(case)
    for name in files.late:
        assert f"rated late: {name}, ended {ended[name]} (recorded after the list)" in done.stderr
    assert done.stderr.count("rated late:") == len(files.late)
    marks = {r["event"]: r["late"] for r in _rows(out / "tournaments.csv")}
    assert marks == {name: ("log" if name in files.late else "") for name in ended}
    assert _row(out, case["fide_id"]) == _expected_row(case)
    (params,) = _published(store)
    assert (params["late"], params["not_late"], params["rated_late"]) == ([], [], files.late)


def test_history_ingested_first_is_not_rerated_unless_named(tmp_path: Path) -> None:
    """The same files, the events ingested before the lists: the August tournament is taken
    as already in the September list (not rated: the period has its other games only);
    --late names it, and the run gives FIDE's October values."""
    case, files = _case("F-P05")
    store = _store(tmp_path, files, history_first=True)
    out = tmp_path / "list"
    done = _run(store, out, files.period)
    assert "rated late" not in done.stderr
    rated = {g["event"] for g in _rows(out / "games.csv")}
    assert rated == {f"e{t['event_id']}" for t in case["tournaments"]} - set(files.late)
    late_games = sum(int(t["n"]) for t in case["tournaments"] if f"e{t['event_id']}" in files.late)
    rating, games, k = _expected_row(case)
    assert _row(out, case["fide_id"])[1] == games - late_games
    named = tmp_path / "named"
    late = [a for n in files.late for a in ("--late", n)]
    done = _run(store, named, files.period, *late)
    ended = _ended(case)
    for name in files.late:
        assert f"rated late: {name}, ended {ended[name]} (--late)" in done.stderr
    assert _row(named, case["fide_id"]) == (rating, games, k)
    params = _published(store)[-1]
    assert (params["late"], params["not_late"], params["rated_late"]) == (
        files.late, [], files.late,
    )  # fmt: skip


def test_not_late_and_refused_overrides(tmp_path: Path) -> None:
    """--not-late keeps a tournament recorded after the list out of the run, recorded in the
    run's event; a name given both ways, or not a tournament of the run, or one of the run's
    own period, is refused in one line and nothing is appended to the log."""
    case, files = _case("F-P05")
    store = _store(tmp_path, files)
    (name,) = files.late
    length = _log_length(store)
    both = _run(store, tmp_path / "x", files.period, "--late", name, "--not-late", name, code=1)
    assert (
        both.stderr
        == f"error: --late, --not-late: found tournament '{name}' in both, expected one\n"
    )
    unknown = _run(store, tmp_path / "x", files.period, "--not-late", "nowhere", code=1)
    assert unknown.stderr == (
        "error: --not-late: found tournament 'nowhere', expected a tournament of the run\n"
    )
    current = f"e{case['tournaments'][-1]['event_id']}"
    own = _run(store, tmp_path / "x", files.period, "--not-late", current, code=1)
    assert own.stderr.startswith(f"error: --not-late: tournament '{current}' ended on ")
    assert own.stderr.count("\n") == 1
    assert _log_length(store) == length
    assert not (tmp_path / "x").exists()
    out = tmp_path / "list"
    done = _run(store, out, files.period, "--not-late", name)
    assert "rated late" not in done.stderr
    assert name not in {g["event"] for g in _rows(out / "games.csv")}
    (params,) = _published(store)
    assert (params["late"], params["not_late"], params["rated_late"]) == ([], [name], [])


def test_summary_counts_each_game_once_against_the_imported_list(tmp_path: Path) -> None:
    """The US Championship (66 games, one round robin of 12): the summary line counts 66
    games and compares with the imported October list."""
    data, files = championship_case()
    store = _store(tmp_path, files)
    done = _run(store, tmp_path / "list", files.period, "-f", "json")
    summary = json.loads(done.stdout)
    assert summary["games"] == len(data["games"]) == 66
    assert summary["compared_with"] == "the imported list of 2025-10-01"
    text = _run(store, tmp_path / "again", files.period).stderr
    assert f"from {len(data['games'])} games" in text
    assert "vs the imported list of 2025-10-01:" in text
    assert "no previous list" not in text


def test_the_new_list_in_fides_xml_layout(tmp_path: Path) -> None:
    """OUT/fide.xml imported into a fresh store as the November list: `player add --fide-id`
    registers each player with the run's rating, and the list holds the run's K and games;
    FIDE's November values for the ten players who played nothing else that period.
    OUT/fide.txt (FIDE's TXT layout) imports as the same list."""
    data, files = championship_case()
    store = _store(tmp_path, files)
    out = tmp_path / "list"
    _run(store, out, files.period)
    ours = {r["fide_id"]: r for r in _rows(out / "ratings.csv")}
    fresh = tmp_path / "fresh.duckdb"
    arbiter(fresh, "store", "init")
    arbiter(fresh, "ratings", "import", str(out / "fide.xml"), "--date", "2025-11-01")
    create = ("tournament", "create", "--name", "Next", "--game", "chess", "--system", "swiss")
    t = arbiter(fresh, *create, "--rounds", "5").stdout.strip().splitlines()[-1]
    for player in data["players"]:
        arbiter(fresh, "player", "add", t, "--fide-id", str(player["fide_id"]))
    listed = json.loads(arbiter(fresh, "player", "list", t, "-f", "json").stdout)
    registered = {str(p["fide_id"]): p for p in listed}
    with DuckDBStore(str(fresh)) as s:
        imported = latest_list(s, "fide-standard")
    assert imported is not None
    rows = {r["player_id"]: r for r in imported.rows.to_dicts()}
    assert len(rows) == len(data["players"]) == 12
    for player in data["players"]:
        fide_id = str(player["fide_id"])
        run = ours[fide_id]
        assert registered[fide_id]["rating"] == int(run["rating"])
        assert (rows[fide_id]["rating"], rows[fide_id]["k"], rows[fide_id]["games"]) == (
            int(run["rating"]), int(run["k"]), int(run["games"]),
        )  # fmt: skip
        assert rows[fide_id]["name"] == run["name"]
        if not player["fide_other_events_in_period"]:
            november = player["list_2025_11"]
            assert (rows[fide_id]["rating"], rows[fide_id]["k"], rows[fide_id]["games"]) == (
                november["rating"], november["k"], november["games"],
            )  # fmt: skip
    text = tmp_path / "fresh-txt.duckdb"
    arbiter(text, "store", "init")
    arbiter(text, "ratings", "import", str(out / "fide.txt"), "--date", "2025-11-01")
    with DuckDBStore(str(text)) as s:
        from_text = latest_list(s, "fide-standard")
    assert from_text is not None
    assert from_text.rows.to_dicts() == imported.rows.to_dicts()  # the TXT layout: the same


def test_the_scheduled_run_finds_the_late_report(tmp_path: Path) -> None:
    """The scheduled job (`arbiter schedule`) runs the same rule: F-P05's store as an officer
    builds it, the October 2026 list due: the August tournament rated late, FIDE's values."""
    case, files = _case("F-P05")
    store = _store(tmp_path, files)
    config = ScheduleConfig(
        store=str(store),
        output_root=tmp_path / "lists",
        methods=(Method.FIDE,),
        cron="30 3 1 * *",
        timezone="UTC",
    )
    (result,) = catch_up(config, dt.datetime(2026, 10, 1, 4, 0, tzinfo=dt.UTC))
    assert result.request.as_of == files.period
    assert [r.event for r in result.late] == files.late
    assert _row(result.output, case["fide_id"]) == _expected_row(case)
    marks = {r["event"]: r["late"] for r in _rows(result.output / "tournaments.csv")}
    assert {e for e, m in marks.items() if m == "log"} == set(files.late)


def test_a_list_published_by_a_run_counts_as_entered(tmp_path: Path) -> None:
    """The September list enters the log with the federation's own run (published), before
    FIDE's September list is imported: the August tournament recorded between the two is late
    on the October list (it was not in the list published), and FIDE's October values follow."""
    case, files = _case("F-P05")
    september = max(d for d in files.lists if d < files.period)
    store = tmp_path / "arbiter.duckdb"
    arbiter(store, "store", "init")
    earlier = PublishedCase(
        {d: rows for d, rows in files.lists.items() if d < september}, [], september, []
    )
    _import_lists(store, tmp_path, earlier)
    _run(store, tmp_path / "september", september)
    _ingest(store, tmp_path, files)
    path = write_list(tmp_path / "list-september.xml", files.lists[september])
    arbiter(store, "ratings", "import", str(path), "--date", september.isoformat())
    out = tmp_path / "october"
    done = _run(store, out, files.period)
    ended = _ended(case)
    for name in files.late:
        assert f"rated late: {name}, ended {ended[name]} (recorded after the list)" in done.stderr
    assert _row(out, case["fide_id"]) == _expected_row(case)
