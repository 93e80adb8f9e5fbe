"""docs/validation.md's table, row by row: the command through `arbiter` in a subprocess
fails with exactly the documented one-line message, exit 1, and appends nothing."""

from __future__ import annotations

import fcntl
import os
import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

from events.duckdb_store import DuckDBStore

ROOT = Path(__file__).resolve().parents[2]
ARBITER = str(Path(os.environ.get("VIRTUAL_ENV", "") or ROOT / ".venv") / "bin" / "arbiter")
TABLE = ROOT / "docs" / "validation.md"
ROW = re.compile(r"^\| `(?P<command>.+)` \| `(?P<message>.+)` \|$")


def rows() -> list[tuple[str, str]]:
    text = TABLE.read_text(encoding="utf-8")
    body = text.split("<!-- validation-table -->")[1].split("<!-- /validation-table -->")[0]
    found = [(m["command"], m["message"]) for m in map(ROW.match, body.splitlines()) if m]
    assert len(found) >= 40, "the table lost rows"
    return found


SETUP = (
    "tournament create --name T --id t --system dutch --rounds 5 "
    "--start 2026-03-01 --end 2026-03-09",
    'player add t --name "Berg, Anna" --birth 2001-05-04 --rating 2311 --federation NOR '
    "--fide-id 1503014",
    'player add t --name "Dahl, Ivar" --rating 2000',
    "pair t",
    "tournament create --name G --id g --game go --system macmahon --rounds 3",
    'player add g --name "Sato, Ken" --rank 3d --seed 1',
    'player add g --name "Ito, Mai" --rank 1k',
    "tournament edit g --check-in 2026-01-01T00:00/2099-12-31T23:59",
    "tournament create --name W --id w --system team-swiss --rounds 5",
    "team add w --name Oslo",
    'team member add w Oslo --name "Lund, Siv"',
    "ratings import {fide_list} --date 2025-11-01",
    "tournament create --name R --id r --system dutch --rounds 2",
    'player add r --name "Aas, Per" --rating 2000',
    'player add r --name "Bakke, Eva" --rating 1900',
    'player add r --name "Dale, Tor" --rating 1800',
    "pair r",
    "result r 1 1 1-0",
    "tournament create --name S --id s --system dutch --rounds 2",
    'player add s --name "Alm, Siv" --rating 1500',
    "tournament create --name V --id v --system team-swiss --rounds 3",
    "team add v --name Aker",
    "team add v --name Berg",
    'team member add v Aker --name "Moe, Kari"',
)
"""The events every row is refused against: a chess event paired once, a go event with a
check-in window, a team Swiss with one team of one member; then FIDE's list of 2025-11-01
imported (two players: Carlsen 1503014 and Hou 8602980); a chess event of three players paired
once (board 1 a game with its result 1-0, board 2 the bye), one of a single player, and a team
Swiss of two teams, one member between them."""


def setup(folder: Path) -> list[str]:
    """`SETUP`'s lines, the FIDE list written in ``folder``."""
    from tests.cli.list_files import fide_xml
    from tests.cli.test_rating_list_import_cli import CARLSEN, HOU

    path = fide_xml(folder / "players_list_xml_foa.xml", [CARLSEN, HOU])
    return [line.format(fide_list=shlex.quote(str(path))) for line in SETUP]


def run(store: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [ARBITER, "--store", str(store), *args], capture_output=True, text=True, check=False
    )


def setup_store(tmp_path_factory: pytest.TempPathFactory, folder: Path) -> Path:
    """A store in ``folder`` holding `SETUP`'s events, each line run by `arbiter` (in one
    `arbiter batch`). It is built once per test run: the first module to ask builds it, under
    a lock in the temporary folder all xdist workers share, and every module gets a copy."""
    root = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = root.parent  # pytest-N/, above each worker's popen-gwK/
    built = root / "validation-setup"
    with (root / "validation-setup.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (built / "done").exists():
            shutil.rmtree(built, ignore_errors=True)
            built.mkdir()
            lines = built / "setup.txt"
            lines.write_text("".join(f"{line}\n" for line in setup(built)), encoding="utf-8")
            done = run(built / "store.duckdb", "batch", str(lines))
            assert done.returncode == 0, done.stderr
            (built / "done").touch()
    for part in built.glob("store.duckdb*"):
        shutil.copy(part, folder / part.name)
    return folder / "store.duckdb"


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return setup_store(tmp_path_factory, tmp_path_factory.mktemp("validation"))


def versions(store: Path) -> tuple[int, ...]:
    s = DuckDBStore(str(store))
    try:
        return tuple(s.stream_version(f"tournament-{t}") for t in "tgwrsv")
    finally:
        s.close()


@pytest.mark.parametrize(("command", "message"), rows(), ids=[c for c, _ in rows()])
def test_refused_with_its_message(store: Path, command: str, message: str) -> None:
    before = versions(store)
    done = run(store, *shlex.split(command))
    assert done.returncode == 1, done.stderr
    assert done.stderr == f"error: {message}\n"
    assert done.stdout == ""
    assert versions(store) == before


ROUND_ROWS = [(c, m) for c, m in rows() if c.split()[0] in ("result", "pair", "undo", "bye")]
"""The rows of the results, pairing, undo and bye deciders (`decide.results`, `decide.pairing`,
`decide.undo`, `decide.rounds.bye`), which `arbiter batch` also runs."""


@pytest.mark.parametrize(("command", "message"), ROUND_ROWS, ids=[c for c, _ in ROUND_ROWS])
def test_a_batch_refuses_as_the_command_line(
    store: Path, tmp_path: Path, command: str, message: str
) -> None:
    before = versions(store)
    path = tmp_path / "batch.txt"
    path.write_text(f"arbiter {command}\n", encoding="utf-8")
    done = run(store, "batch", str(path))
    assert done.returncode == 1, done.stderr
    assert done.stderr == f"error: {message}\n{path}:1: stopped: `arbiter {command}` failed\n"
    assert versions(store) == before
