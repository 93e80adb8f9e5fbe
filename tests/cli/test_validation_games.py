"""docs/validation_games.md, row by row: each refused input prints its one line and appends
nothing; the accepted spellings are normalised as the page says."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from events.duckdb_store import DuckDBStore
from tests.cli.games_cli import Cli

DOC = Path(__file__).parents[2] / "docs" / "validation_games.md"
ROW = re.compile(r"^\| `(?P<command>[^`]+)` \| `(?P<message>.+)` \|$")
ROWS = [m.groupdict() for line in DOC.read_text().splitlines() if (m := ROW.match(line))]


@pytest.fixture(scope="module")
def cli(tmp_path_factory: pytest.TempPathFactory) -> Cli:
    cli = Cli(tmp_path_factory.mktemp("validation") / "store.duckdb")
    setups = {
        "go": (["--game", "go", "--system", "gopair"], ["--aga-rating", "3.5"]),
        "go-mm": (["--game", "go", "--system", "macmahon", "--komi", "7"], ["--rank", "2d"]),
        "othello": (["--game", "othello", "--system", "swiss"], []),
        "carrom": (["--game", "carrom", "--system", "swiss"], []),
        "chess": (["--game", "chess", "--system", "dutch"], ["--rating", "2000"]),
    }
    lines = []  # the set-up in one `arbiter batch` (one process); the rows run one by one
    for tid, (options, extra) in setups.items():
        lines.append(["tournament", "create", "--name", tid, "--id", tid, "--rounds", "3",
                      *options])  # fmt: skip
        players = ["Ito, Aki", "Kim, Bo"] + (["Lee, Cy"] if tid == "chess" else [])
        lines += [["player", "add", tid, "--name", name, *extra] for name in players]
        if tid != "chess":
            lines.append(["pair", tid])
    cli.batch(Path(cli.store).with_name("setup.txt"), [shlex.join(line) for line in lines])
    return cli


def _head(cli: Cli) -> int:
    """The store's last event position, read from the file (as test_validation_table does):
    a refused command appends nothing to any stream, and the check starts no process."""
    store = DuckDBStore(cli.store)
    try:
        return store.head_position()
    finally:
        store.close()


def test_the_table_has_its_rows() -> None:
    assert len(ROWS) >= 20


@pytest.mark.parametrize("row", ROWS, ids=[r["command"] for r in ROWS])
def test_refused_input_says_why_in_one_line(cli: Cli, row: dict[str, str]) -> None:
    before = _head(cli)
    assert cli.refused(*shlex.split(row["command"])) == "error: " + row["message"]
    assert _head(cli) == before


def test_accepted_spellings_are_normalised(cli: Cli) -> None:
    cli("tournament", "create", "--name", "norm", "--id", "norm", "--game", "go",
        "--system", "gopair")  # fmt: skip
    for rank in ("3 dan", "12Kyu", "9 Dan"):
        cli("player", "add", "norm", "--name", f"P {rank}", "--rank", rank)
    for aga in ("3.27", "-5.5"):
        cli("player", "add", "norm", "--name", f"A {aga}", "--aga-rating", aga)
    rows = cli.json("player", "list", "norm")
    assert sorted(r["rank"] for r in rows if r["rank"]) == ["12k", "3d", "9d"]
    # go-mm has komi 7: a jigo is a result there
    cli("result", "go-mm", "1", "1", "jigo")
    board = cli.json("pairings", "go-mm", "--round", "1")[0]
    assert (board["result"], board["komi"]) == ("jigo", 7.0)
