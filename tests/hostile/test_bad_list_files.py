"""Bad rating-list files given to `arbiter ratings import` (issue 46, item 6): a CSV field
over the csv module's 128 KB limit, a line or a ``<player>`` without end, a name holding a
bidirectional control. Each is refused in one line ``FILE:LINE:COL`` and nothing is imported.

The reader's memory stays bounded because it never holds more than one line (64 KiB,
`ingest.lists.limits.MAX_LINE_BYTES`) or one player (`MAX_ELEMENT_BYTES`) beyond a block: the
tests give files just over those limits (and one over an XML block, written to disk in
pieces); the gigabyte cases were measured by hand (the commit that added this file).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from ingest.lists.fide_xml import BLOCK
from ingest.lists.limits import MAX_ELEMENT_BYTES, MAX_LINE_BYTES
from tests.cli.list_files import fide_txt, fide_xml

ARBITER = Path(sys.executable).parent / "arbiter"
GOOD = {"fideid": 1503014, "name": "Carlsen, Magnus", "country": "NOR", "rating": 2839}
OTHER = {"fideid": 8602980, "name": "Hou, Yifan", "country": "CHN", "rating": 2633}
BIDI = "Evil, \u202eretsaM"


def arbiter(store: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "ARBITER_STORE": str(store), "COLUMNS": "300"}
    return subprocess.run(
        [str(ARBITER), *args], capture_output=True, text=True, env=env, check=False, timeout=120
    )


def state(store: Path) -> tuple[object, object]:
    """The imported lists and the log's head: what a refused import must leave as it was
    (`ratings lists` and `verify`, in one `arbiter batch`: one process)."""
    script = store.parent / "state.txt"
    script.write_text("ratings lists -f json\nverify -f json\n", encoding="utf-8")
    done = arbiter(store, "batch", str(script))
    assert done.returncode == 0, done.stderr
    decoder = json.JSONDecoder()
    lists, end = decoder.raw_decode(done.stdout)
    head, end = decoder.raw_decode(done.stdout, end + 1)
    assert not done.stdout[end:].strip(), done.stdout
    return lists, head["chain_head"]


_BEFORE: dict[Path, tuple[object, object]] = {}


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A store that holds one list already."""
    folder = tmp_path_factory.mktemp("badlists")
    path = folder / "arbiter.duckdb"
    assert arbiter(path, "store", "init").returncode == 0
    good = fide_xml(folder / "good.xml", [GOOD])
    assert arbiter(path, "ratings", "import", str(good), "--date", "2025-10-01").returncode == 0
    _BEFORE[path] = state(path)
    return path


def refused(store: Path, path: Path, *options: str) -> str:
    """The one line ``ratings import`` refuses ``path`` with; the store unchanged."""
    before = _BEFORE[store]
    done = arbiter(store, "ratings", "import", str(path), "--date", "2025-11-01", *options)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    assert "internal error" not in done.stderr
    lines = [line for line in done.stderr.splitlines() if not line.endswith("% read")]
    assert len(lines) == 1, done.stderr
    assert state(store) == before
    return lines[0]


def write_csv(path: Path, rows: list[str]) -> Path:
    path.write_text("id,name,rating\n" + "".join(row + "\n" for row in rows), encoding="utf-8")
    return path


def test_a_csv_field_over_the_csv_modules_limit(store: Path, tmp_path: Path) -> None:
    field = 128 * 1024 + 1  # csv.field_size_limit() is 131072
    path = write_csv(tmp_path / "nor.csv", ["1,Ann,1500", f"2,{'x' * field},1600"])
    line = refused(store, path, "--list", "NOR-elo")
    assert line.startswith(f"error: {path}:3:{MAX_LINE_BYTES + 1}: a line longer than 64 KiB")


def test_a_line_just_over_the_limit_and_one_at_it(store: Path, tmp_path: Path) -> None:
    prefix = "2,"
    over = write_csv(tmp_path / "over.csv", ["1,Ann,1500", prefix + "9" * (MAX_LINE_BYTES - 1)])
    line = refused(store, over, "--list", "NOR-elo")
    assert line.startswith(f"error: {over}:3:{MAX_LINE_BYTES + 1}: a line longer than 64 KiB")
    # A line of exactly the limit is read as a row: refused for its fields, not its length.
    at = write_csv(tmp_path / "at.csv", ["1,Ann,1500", prefix + "9" * (MAX_LINE_BYTES - 2)])
    line = refused(store, at, "--list", "NOR-elo")
    assert line.startswith(f"error: {at}:3:"), line
    assert "longer than" not in line


def test_a_fide_txt_line_over_the_limit_after_crlf_lines(store: Path, tmp_path: Path) -> None:
    path = fide_txt(tmp_path / "standard_nov25frl.txt", [GOOD, OTHER], month="NOV25")
    lines = path.read_bytes().split(b"\n")
    lines.insert(2, b"1" * (MAX_LINE_BYTES + 1))
    path.write_bytes(b"\r\n".join(lines))
    line = refused(store, path)
    assert line.startswith(f"error: {path}:3:{MAX_LINE_BYTES + 1}: a line longer than 64 KiB")


def test_a_player_just_over_the_limit(store: Path, tmp_path: Path) -> None:
    path = fide_xml(tmp_path / "list.xml", [GOOD, OTHER])
    text = path.read_text()
    at = text.index("<player>", text.index("</player>"))
    note = "x" * MAX_ELEMENT_BYTES
    path.write_text(text[:at] + f'<player note="{note}">' + text[at + len("<player>") :])
    line_number = text[:at].count("\n") + 1
    line = refused(store, path)
    assert line.startswith(f"error: {path}:{line_number}:1: <player> longer than 64 KiB")


def test_an_attribute_longer_than_a_block_is_refused_unread(store: Path, tmp_path: Path) -> None:
    path = fide_xml(tmp_path / "list.xml", [GOOD, OTHER])
    text = path.read_text()
    at = text.index("<player>", text.index("</player>"))
    piece = "x" * (1 << 20)
    with path.open("w", encoding="utf-8") as out:  # a file larger than one block, in pieces
        out.write(text[:at] + '<player note="')
        for _ in range(BLOCK // len(piece) + 1):
            out.write(piece)
        out.write('">' + text[at + len("<player>") :])
    line = refused(store, path)
    assert line.startswith(f"error: {path}:{text[:at].count(chr(10)) + 1}:1: <player> longer")


@pytest.mark.parametrize("where", ["csv", "xml"])
def test_a_name_with_a_bidirectional_control(store: Path, tmp_path: Path, where: str) -> None:
    message = "name holds a bidirectional control (U+202E) at 7"
    if where == "csv":
        path = write_csv(tmp_path / "nor.csv", ["1,Ann,1500", f'2,"{BIDI}",1600'])
        line = refused(store, path, "--list", "NOR-elo")
        assert line.startswith(f"error: {path}:3:3: {message}"), line
    else:
        path = fide_xml(tmp_path / "list.xml", [GOOD, {**OTHER, "name": BIDI}])
        line = refused(store, path)
        number = path.read_text().splitlines().index("<name>" + BIDI + "</name>") + 1
        assert line.startswith(f"error: {path}:{number}:7: {message}"), line
