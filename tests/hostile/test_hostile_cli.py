"""Hostile text through the command line (issue 17, parts 2 and 3), in subprocesses.

Free-text options with control characters or beyond the limits are refused in one line and
append nothing; a name that reached the log anyway (written before these checks, or by another
client of the store) cannot add a record line to an export; CSV cells cannot carry a
spreadsheet formula; ``-o`` never replaces a symbolic link, a device, a FIFO or a folder.
"""

from __future__ import annotations

import csv
import io
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from events.duckdb_store import DuckDBStore
from events.schema import PlayerRegistered
from events.store import NewEvent
from ingest.elo import parse_elo
from ingest.trf import parse_trf
from pipelines.cli import app
from pipelines.jobs.ingest import ingest
from tests.conftest import require_testdata

ARBITER = str(Path(sys.executable).parent / "arbiter")
FORGED = "Smith, John\n001    2      Forged, Line                      2000"


def cli(store: Path, *args: str, code: int = 0) -> str:
    """The command in this process (fast, for the many cases); returns stdout, or the one
    stderr line of a refusal."""
    result = CliRunner().invoke(app, ["--store", str(store), *args])
    assert result.exit_code == code, (args, result.output, result.exception)
    if code:
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1, result.stderr
        return lines[0]
    return result.stdout


def arbiter(store: Path, *args: str, code: int = 0) -> subprocess.CompletedProcess[str]:
    """The installed command in a subprocess, as a user runs it."""
    done = subprocess.run(
        [ARBITER, "--store", str(store), *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == code, (args, done.stdout, done.stderr)
    assert "Traceback" not in done.stderr
    if code:
        assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    return done


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A TRF, an h9 and an .ELO tournament, each with one more player whose stored name holds
    a newline (as an older log or another client of the store may hold)."""
    path = tmp_path_factory.mktemp("cli") / "store.duckdb"
    files = [
        require_testdata("chess", "real", "icu_armstrong_2011.trf"),
        require_testdata("go", "h9", "honte_amp2006.h9"),
        require_testdata("othello", "elo", "1978", "19781104_WOC_1978.ELO"),
    ]
    with DuckDBStore(path) as opened:
        report = ingest(opened, files)
        assert report.ok, report
        for result in report.files:
            stream = f"tournament-{result.tournament}"
            players = result.players
            forged = PlayerRegistered(player=players + 1, name=FORGED, rating=1500)
            commas = PlayerRegistered(player=players + 2, name="Doe, Jane, JPN, 99.0")
            opened.append(
                stream, [NewEvent(forged), NewEvent(commas)], opened.stream_version(stream)
            )
    return path


def test_free_text_options_are_refused_in_one_line(tmp_path: Path) -> None:
    store = tmp_path / "s.duckdb"
    cli(store, "tournament", "create", "--name", "Open", "--id", "open")
    refused = [
        (["tournament", "create", "--name", "Open\n012 Forged"], "U+000A"),
        (["tournament", "create", "--name", "x" * 100_000], "100000 characters long"),
        (["tournament", "create", "--name", "Big", "--rounds", "999999999"], "rounds is out"),
        (["player", "add", "open", "--name", "Smith\n001    2  Forged"], "U+000A"),
        (["player", "add", "open", "--name", "Doe, J", "--club", "\x1b[2J"], "U+001B"),
        (["player", "add", "open", "--name", "Doe, J", "--rating", "1" + "0" * 32], "rating"),
        (["player", "add", "open", "--name", "Doe, J", "--fide-id", "9" * 29], "--fide-id"),
    ]
    for args, fragment in refused:
        line = cli(store, *args, code=1)
        assert fragment in line, line
        assert len(line) < 200, line
    # The same through the installed command: one line on stderr, exit 1.
    line = arbiter(store, *refused[3][0], code=1).stderr.strip()
    assert line == (
        "error: --name holds a control character (U+000A) at 6: 'Smith\\n001    2  Forged'"
    ), line
    listed = cli(store, "tournament", "list", "-f", "csv")
    assert listed.splitlines()[1:] == ["open,Open,chess,roundrobin,0,0,5"]
    assert cli(store, "player", "list", "open", "-f", "csv").strip() == ""


def test_a_stored_newline_cannot_forge_an_export_line(store: Path, tmp_path: Path) -> None:
    exports = {"armstrong-2011": "trf", "amp2006": "h9", "19781104-woc-1978": "elo"}
    tournaments = cli(store, "tournament", "list", "-f", "csv")
    rows = {r["id"]: r for r in csv.DictReader(io.StringIO(tournaments))}
    for tid, fmt in exports.items():
        (key,) = [k for k in rows if tid in k]
        out = tmp_path / f"{key}.{fmt}"
        arbiter(store, "export", key, "--format", fmt, "-o", str(out))
        lines = out.read_text(encoding="utf-8").splitlines()
        if fmt == "trf":
            players = [x for x in lines if x.startswith("001")]
            # Read back: the long one-line name stayed in its 33 columns, its rating is 1500.
            (forged,) = [p for p in parse_trf(out).players if p.name.startswith("Smith")]
            assert (forged.name, forged.rating) == (FORGED.replace("\n", " ")[:33], 1500)
        elif fmt == "elo":
            players = [x for x in lines if x.startswith("%_%")]
            # Read back: the commas of a name make no country and no score of their own.
            (doe,) = [p for p in parse_elo(out).players if p.surname == "Doe"]
            assert (doe.first_name, doe.country, doe.fields[3]) == ("Jane JPN 99.0", "", "0")
        else:
            players = [x for x in lines if x.strip() and not x.lstrip().startswith(";")]
        assert len(players) == int(rows[key]["players"]), (fmt, players[-2:])
        assert not any(x.startswith("001    2      Forged") for x in lines)
        assert any("Smith" in x and "Forged" in x for x in players), fmt  # one line, kept


def test_csv_cells_cannot_hold_a_formula(tmp_path: Path) -> None:
    store = tmp_path / "s.duckdb"
    cli(store, "tournament", "create", "--name", "Open", "--id", "open", "--system", "dutch")
    names = ['=HYPERLINK("http://evil.example","click")', "@SUM(A1:A9)", "+1+2", "-3-4"]
    for name in names:
        cli(store, "player", "add", "open", "--name", name, "--club", "=1+1")
    cli(store, "pair", "open")
    table = arbiter(store, "standings", "open", "-f", "csv").stdout
    cells = [cell for row in csv.reader(io.StringIO(table)) for cell in row]
    for name in names:
        assert "'" + name in cells, (name, cells)
        assert name not in cells
    crosstable = cli(store, "crosstable", "open", "-f", "csv")
    cells = [cell for row in csv.reader(io.StringIO(crosstable)) for cell in row]
    assert "'@SUM(A1:A9)" in cells
    assert not any(c.startswith(("=", "@", "+")) for c in cells), cells
    assert all(not c.startswith("-") or c.lstrip("-").replace(".", "").isdigit() for c in cells)


def test_o_refuses_links_devices_fifos_and_folders(store: Path, tmp_path: Path) -> None:
    (key,) = [
        line.split(",")[0]
        for line in cli(store, "tournament", "list", "-f", "csv").splitlines()
        if "armstrong" in line
    ]
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    link = tmp_path / "link.trf"
    link.symlink_to(victim)
    fifo = tmp_path / "fifo.trf"
    os.mkfifo(fifo)
    folder = tmp_path / "folder"
    folder.mkdir()
    cases = [(link, "is a symbolic link"), (fifo, "is a FIFO"), (folder, "is a folder")]
    if os.geteuid() == 0:  # a device node of our own (never a real one such as /dev/full)
        device = tmp_path / "full"
        os.mknod(device, stat.S_IFCHR | 0o600, os.makedev(1, 7))
        cases.append((device, "is a character device"))
    for target, fragment in cases:
        line = cli(store, "export", key, "--format", "trf", "-o", str(target), code=1)
        assert f"{target}: {fragment}" in line, line
    done = arbiter(store, "export", key, "--format", "trf", "-o", str(link), code=1)
    assert done.stderr == f"error: {link}: is a symbolic link: refusing to replace it\n"
    assert link.is_symlink()
    assert victim.read_text() == "precious\n"
    assert stat.S_ISFIFO(fifo.lstat().st_mode)
    assert list(folder.iterdir()) == []
    if os.geteuid() == 0:
        assert stat.S_ISCHR((tmp_path / "full").lstat().st_mode)
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []


def test_a_list_folder_is_never_something_else(store: Path, tmp_path: Path) -> None:
    documents = tmp_path / "documents"
    documents.mkdir()
    (documents / "letter.txt").write_text("keep me\n")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    link = tmp_path / "link"
    link.symlink_to(elsewhere)
    a_file = tmp_path / "file"
    a_file.write_text("x\n")
    run = ["ratings", "run", "--game", "othello", "--as-of", "2000-01-01", "--no-publish", "-o"]
    cases = [
        (documents, "holds no rating list (no manifest.json)"),
        (link, "is a symbolic link"),
        (a_file, "is a regular file, not a folder"),
    ]
    for target, fragment in cases:
        line = cli(store, *run, str(target), code=1)
        assert fragment in line, line
    assert (documents / "letter.txt").read_text() == "keep me\n"
    assert list(elsewhere.iterdir()) == []
    assert link.is_symlink()
    cli(store, *run, str(tmp_path / "list"))
    assert (tmp_path / "list" / "manifest.json").is_file()
