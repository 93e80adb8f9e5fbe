"""Go exports that come back the same: every OpenGotha tournament and h9 table of the go corpora
that `arbiter ingest` takes is exported in its own format (`arbiter export`), the export is
ingested into a second store, and `arbiter standings` of the two tournaments are equal (places,
names, points, every tie-break of the chain). A Mac-Mahon event run in arbiter (bar, floor,
komi, its own chain) exported as OpenGotha XML also ranks and pairs its next round the same.
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Any

import pytest

from tests.cli.games_cli import Cli
from tests.conftest import require_testdata

EXTENSION = {"opengotha": "xml", "h9": "h9"}


def _corpus_files() -> list[Path]:
    go = require_testdata("go")
    files = [
        *sorted((go / "opengotha").glob("*.xml")),
        *sorted((go / "opengotha-rgf").glob("*.xml")),
    ]
    files += sorted((go / "pairgoth" / "opengotha").rglob("*.xml"))
    files += sorted((go / "h9").glob("*.h9"))
    return files


def _ingest(cli: Cli, files: list[Path]) -> list[dict[str, Any]]:
    done = cli.run("ingest", "--format", "json", *map(str, files))
    report: dict[str, Any] = json.loads(done.out)
    return [f for f in report["files"] if f["status"] == "ingested"]


def _batch(cli: Cli, tmp: Path, name: str, lines: list[str]) -> list[Any]:
    return cli.batch(tmp / f"{name}.txt", lines)


def _table(rows: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    return [
        (r["rank"], r["player"]["name"], r["points"], tuple(sorted(r["tiebreaks"].items())))
        for r in rows
    ]


@pytest.mark.golden
def test_every_go_export_ingests_to_equal_standings(tmp_path: Path) -> None:
    first = Cli(tmp_path / "first.duckdb")
    ingested = _ingest(first, _corpus_files())
    assert {f["format"] for f in ingested} == {"opengotha", "h9"}
    assert len(ingested) >= 40
    out = tmp_path / "exports"
    out.mkdir()
    exported = {}
    lines = []
    for f in ingested:
        path = out / f"{f['tournament']}.{EXTENSION[f['format']]}"
        exported[str(path)] = f["tournament"]
        lines.append(shlex.join(["export", f["tournament"], "-f", f["format"], "-o", str(path)]))
        lines.append(shlex.join(["standings", f["tournament"], "--individual", "--format", "json"]))
    before = dict(
        zip((f["tournament"] for f in ingested), _batch(first, tmp_path, "a", lines), strict=True)
    )
    second = Cli(tmp_path / "second.duckdb")
    again = _ingest(second, [Path(p) for p in exported])
    assert sorted(f["path"] for f in again) == sorted(exported)
    lines = [
        shlex.join(["standings", f["tournament"], "--individual", "--format", "json"])
        for f in again
    ]
    after = _batch(second, tmp_path, "b", lines)
    differ = [
        exported[f["path"]]
        for f, rows in zip(again, after, strict=True)
        if _table(rows) != _table(before[exported[f["path"]]])
    ]
    assert not differ, f"{len(differ)}/{len(again)} differ: {differ}"
    players = {f["tournament"]: f["players"] for f in ingested}
    empty = [t for t, rows in before.items() if len(rows) != players[t]]
    assert not empty, f"standings without every player: {empty}"
    assert sum(1 for rows in before.values() if rows) >= 40


RANKS = ["4d", "3d", "2d", "1d", "1k", "3k", "5k", "8k", "12k", "16k", "20k"]


def _boards(rows: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    return [
        (
            r["white"]["name"],
            r["black"]["name"] if r["black"] else None,
            r.get("handicap"),
            r.get("komi"),
        )
        for r in rows
    ]


def test_a_live_macmahon_event_exported_ranks_and_pairs_the_same(tmp_path: Path) -> None:
    players = tmp_path / "players.csv"
    players.write_text(
        "name,rank,club\n"
        + "".join(f'"P{i:02d}, Go",{r},C{i % 3}\n' for i, r in enumerate(RANKS, start=1))
    )
    lines = [
        "tournament create --name 'Live Go' --id live-go --game go --system macmahon "
        "--rounds 4 --bar 2d --floor 15k --komi 7.5",
        f"player import live-go {players}",
    ]
    for rnd in (1, 2):
        sheet = tmp_path / f"r{rnd}.txt"
        # white wins on odd boards, black on even ones; board 6 is the bye
        sheet.write_text("".join(f"{b} {'W+' if b % 2 else 'B+'}\n" for b in range(1, 6)))
        lines += ["pair live-go --format json", f"results live-go --round {rnd} --file {sheet}"]
    xml = tmp_path / "live.xml"
    lines += ["standings live-go --format json", f"export live-go -f opengotha -o {xml}"]
    lines += ["pair live-go --format json"]
    first = Cli(tmp_path / "first.duckdb")
    *_, table, paired = _batch(first, tmp_path, "a", lines)
    second = Cli(tmp_path / "second.duckdb")
    (again,) = _ingest(second, [xml])
    tid = again["tournament"]
    *_, table2, paired2 = _batch(
        second, tmp_path, "b", [f"standings {tid} --format json", f"pair {tid} --format json"]
    )
    assert _table(table2) == _table(table)
    assert _boards(paired2) == _boards(paired)
    # --komi 7.5 is the even boards'; a handicap board's is 0.5 (EGF, AGA rules)
    assert {(bool(b[2]), b[3]) for b in _boards(paired) if b[1]} == {(False, 7.5), (True, 0.5)}
