"""A reader that closes the pipe early ends the command quietly with exit 0, as ``git log |
head`` does: `arbiter log T | head -1`, `arbiter pairings T | head -1` and
`arbiter-pairings … | head -1`, through the installed commands in a subprocess.

Two ways the pipe closes: ``head -1`` in a shell with ``pipefail`` (the command's own exit code
is the pipeline's), and a pipe whose reading end is closed before the command writes its first
line (so the write surely fails, whatever the pipe's buffer holds).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli.test_exit_codes import _trf

BIN = Path(sys.executable).parent
ARBITER = str(BIN / "arbiter")
PAIRINGS = str(BIN / "arbiter-pairings")


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("pipe") / "s.duckdb"
    env = {**os.environ, "ARBITER_STORE": str(path)}
    steps = [["tournament", "create", "--name", "Pipe", "--id", "po", "--system", "dutch"]]
    steps += [
        ["player", "add", "po", "--name", f"P{i}, X", "--rating", str(1500 + 10 * i)]
        for i in range(1, 13)
    ]
    steps += [["pair", "po"]]
    for step in steps:
        done = subprocess.run(
            [ARBITER, *step], env=env, capture_output=True, text=True, check=False, timeout=120
        )
        assert done.returncode == 0, (step, done.stderr)
    return path


def _commands(store: Path, tmp_path: Path) -> dict[str, list[str]]:
    return {
        "log": [ARBITER, "--store", str(store), "log", "po"],
        "pairings": [ARBITER, "--store", str(store), "pairings", "po", "--round", "1"],
        "arbiter-pairings": [PAIRINGS, "--dutch", str(_trf(tmp_path, "")), "-p"],
    }


@pytest.mark.parametrize("which", ["log", "pairings", "arbiter-pairings"])
def test_head_1_ends_quietly_with_exit_0(store: Path, tmp_path: Path, which: str) -> None:
    command = _commands(store, tmp_path)[which]
    pipeline = f"set -o pipefail; {subprocess.list2cmdline(command)} | head -1"
    done = subprocess.run(
        ["bash", "-c", pipeline], capture_output=True, text=True, check=False, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert len(done.stdout.splitlines()) == 1


@pytest.mark.parametrize("which", ["log", "pairings", "arbiter-pairings"])
def test_pipe_closed_before_the_first_line(store: Path, tmp_path: Path, which: str) -> None:
    read, write = os.pipe()
    os.close(read)  # the reader has gone before a line is written: every write fails (EPIPE)
    try:
        done = subprocess.run(
            _commands(store, tmp_path)[which],
            stdout=write,
            stderr=subprocess.PIPE,
            text=True,
            check=False,
            timeout=120,
        )
    finally:
        os.close(write)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
