"""Start-up: a command imports what it needs and nothing more (read from ``sys.modules`` in a
subprocess, never from a clock); `arbiter --help` lists every command with its own help."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from pathlib import Path

import pytest
import typer

from pipelines.cli import COMMANDS, command_of
from tests.conftest import require_testdata

HEAVY = ("polars", "networkx", "numpy", "scipy", "pyarrow", "psycopg", "fastapi")

PROBE = """
import json, sys
sys.argv = [sys.argv[1], *json.loads(sys.argv[2])]
from pipelines.process import launch
try:
    getattr(launch, sys.argv[0].replace("-", "_"))()
except SystemExit as exc:
    code = exc.code
else:
    code = 0
sys.stdout.flush()
print("\\n" + json.dumps([code, sorted(sys.modules)]))
"""


def loaded_modules(program: str, *args: str) -> tuple[int, set[str]]:
    """The exit status of ``program args`` and every module it imported."""
    done = subprocess.run(
        [sys.executable, "-c", PROBE, program, json.dumps(args)],
        capture_output=True, text=True, check=False, timeout=120,
    )  # fmt: skip
    code, modules = json.loads(done.stdout.strip().splitlines()[-1])
    return code, set(modules)


def loaded(program: str, *args: str) -> tuple[int, set[str]]:
    """The exit status of ``program args`` and the top-level packages it imported."""
    code, modules = loaded_modules(program, *args)
    return code, {m.split(".")[0] for m in modules}


def test_help_loads_no_command_and_no_library_but_typer() -> None:
    code, modules = loaded("arbiter", "--help")
    assert code == 0
    assert modules.isdisjoint({*HEAVY, "pydantic", "duckdb", "rich"}), modules
    assert not {m for m in modules if m in ("events", "projections", "ingest", "ratings")}


def test_a_result_loads_neither_polars_nor_networkx(tmp_path: Path) -> None:
    store = str(tmp_path / "store.duckdb")
    for line in (
        ["tournament", "create", "--name", "T", "--id", "t", "--system", "dutch"],
        ["player", "add", "t", "--name", "A, One"],
        ["player", "add", "t", "--name", "B, Two"],
        ["pair", "t"],
    ):
        assert loaded("arbiter", "--store", store, *line)[0] == 0
    code, modules = loaded("arbiter", "--store", store, "result", "t", "1", "1", "1-0")
    assert code == 0
    assert modules.isdisjoint(HEAVY), modules & set(HEAVY)


@pytest.mark.parametrize(
    "command",
    [
        ["standings", "t"],
        ["pairings", "t"],
        ["result", "t", "1", "2", "0-1"],
        ["player", "add", "t", "--name", "Late, Entry"],
    ],
    ids=lambda c: c[0],
)
def test_a_light_command_loads_neither_rich_nor_what_it_does_not_run(
    tmp_path: Path, command: list[str]
) -> None:
    """Issue 47's light commands (their budget: 1.5x the bare imports, benchmarks/
    bench_startup.py): the one-line messages they print on stderr need no rich, the standings
    none of the write side's input models, and none of them the pairing or undo services."""
    store = str(tmp_path / "store.duckdb")
    script = tmp_path / "setup.txt"
    script.write_text(
        "tournament create --name T --id t --system dutch\n"
        "player add t --name 'A, One'\nplayer add t --name 'B, Two'\n"
        "player add t --name 'C, Three'\nplayer add t --name 'D, Four'\n"
        "pair t\nresult t 1 1 1-0\n",
        encoding="utf-8",
    )
    assert loaded("arbiter", "--store", store, "batch", str(script))[0] == 0
    code, names = loaded_modules("arbiter", "--store", store, *command)
    assert code == 0
    assert "rich" not in {m.split(".")[0] for m in names}
    not_run = {"pipelines.commands.rounds", "pipelines.commands.undo"}
    if command[0] != "player":  # `player import` is the file service's, in the same module
        not_run.add("pipelines.commands.files")
    if command[0] in ("standings", "pairings"):  # a round that leaves no one out: no rule
        not_run |= {"decide.inputs", "decide.registration"}  # of absences, no input model
    assert names.isdisjoint(not_run), names & not_run


def test_pairing_a_round_loads_no_heavy_library_and_no_pydantic(tmp_path: Path) -> None:
    """The engine's input from a TRF file is plain dataclasses, and a 100-player round's
    brackets narrow on Python ints: neither pydantic nor numpy is imported."""
    trf = require_testdata("chess", "perf") / "input_p0100_pair_r06_bbpgen.trf"
    code, modules = loaded("arbiter-pairings", "--dutch", str(trf), "-p", str(tmp_path / "o.txt"))
    assert code == 0
    not_needed = {*HEAVY, "pydantic", "duckdb", "typer"}
    assert modules.isdisjoint(not_needed), modules & not_needed


def test_pairing_a_burstein_round_loads_neither_argparse_nor_pathlib(tmp_path: Path) -> None:
    """``arbiter-pairings --SYSTEM FILE -p OUT`` is read without argparse (and the gettext,
    shutil and locale it loads) and without pathlib (and its urllib.parse); the generator
    and the team modules are not loaded either."""
    trf = require_testdata("chess", "perf") / "input_p0100_pair_r06_bbpgen.trf"
    code, names = loaded_modules(
        "arbiter-pairings", "--burstein", str(trf), "-p", str(tmp_path / "o.txt")
    )
    assert code == 0
    not_needed = {"argparse", "gettext", "shutil", "locale", "pathlib", "urllib.parse"}
    not_needed |= {"pydantic", "typer", "networkx"}
    assert names.isdisjoint(not_needed), names & not_needed
    assert not {m for m in names if m.startswith(("pipelines.engines.generator", "pairing.team"))}


def test_pairing_a_team_round_loads_neither_pydantic_nor_the_swiss_adapters(tmp_path: Path) -> None:
    """A team file is read into plain dataclasses (`events.team_results`, `pairing.team.model`):
    neither pydantic nor polars is imported, nor the individual Swiss adapters. The engine
    itself imports networkx when it pairs (`pairing.team.swiss`), so it is not checked here."""
    trf = Path(__file__).parent.parent / "data" / "team" / "order_6_teams.trf"
    code, names = loaded_modules(
        "arbiter-pairings", "--team", str(trf), "-p", str(tmp_path / "o.txt")
    )
    assert code == 0
    modules = {m.split(".")[0] for m in names}
    not_needed = {"polars", "numpy", "pydantic", "pydantic_core", "duckdb", "typer"}
    assert modules.isdisjoint(not_needed), modules & not_needed
    assert "pipelines.engines.swiss_from_trf" not in names


@pytest.mark.parametrize("name", list(COMMANDS))
def test_every_command_is_listed_with_its_own_help(name: str) -> None:
    """`arbiter --help` lists each command without loading it, so its line is written in
    `COMMANDS`: it must be the command's own help (its first paragraph)."""
    command = command_of(name)
    own = " ".join((command.help or "").split("\n\n")[0].split())
    assert COMMANDS[name].help == own


def test_every_command_of_the_modules_is_listed() -> None:
    found = set()
    for module in {e.module for e in COMMANDS.values()}:
        app = importlib.import_module(f"pipelines.cli.{module}").app
        found |= set(typer.main.get_group(app).commands)
    assert found == set(COMMANDS)


def test_a_long_write_ahead_log_is_checkpointed_when_the_store_closes(tmp_path: Path) -> None:
    """Every open replays the DuckDB file's write-ahead log (a light command's start-up, issue
    47): a command that leaves it longer than `LONG_WAL` checkpoints it as it closes the store,
    and the next process reads every event from the file itself."""
    from events.recorders.duckdb import LONG_WAL

    store = tmp_path / "store.duckdb"
    names = [f"Player, No{n}" for n in range(40)]
    script = tmp_path / "setup.txt"
    script.write_text(
        "tournament create --name T --id t --system dutch\n"
        + "".join(f"player add t --name '{name}'\n" for name in names),
        encoding="utf-8",
    )
    arbiter = [sys.executable, "-m", "pipelines", "--store", str(store)]
    subprocess.run([*arbiter, "batch", str(script)], check=True, capture_output=True, timeout=120)
    wal = store.with_name(store.name + ".wal")
    assert not wal.exists() or wal.stat().st_size <= LONG_WAL
    listed = subprocess.run(
        [*arbiter, "player", "list", "t"], check=True, capture_output=True, text=True, timeout=120
    ).stdout
    assert all(name in listed for name in names)
