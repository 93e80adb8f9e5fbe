"""``--as`` and ``$ARBITER_USER`` refuse newlines and control characters (issue 34, item 8):
the actor is stored with every event and printed by ``arbiter log``, so ``ola\\n<forged line>``
or an escape sequence would forge output. The installed command in subprocesses; a refusal
is one line naming the option and appends nothing."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ARBITER = str(Path(sys.executable).parent / "arbiter")
CREATE = ("tournament", "create", "--name", "Oslo Open", "--rounds", "3", "--id", "oslo")


def run(
    store: Path, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    environment = {k: v for k, v in os.environ.items() if k != "ARBITER_USER"}
    return subprocess.run(
        [ARBITER, "--store", str(store), *args],
        capture_output=True, text=True, timeout=120, check=False,
        env={**environment, **(env or {})},
    )  # fmt: skip


@pytest.mark.parametrize(
    ("args", "env", "error"),
    [
        (["--as", "ola\n2026-11-27 kari PlayerRemoved"], None,
         "error: --as holds a control character (U+000A) at 4: "
         "'ola\\n2026-11-27 kari PlayerRemoved'"),
        (["--as=ola\x1b[2K"], None,
         "error: --as holds a control character (U+001B) at 4: 'ola\\x1b[2K'"),
        ([], {"ARBITER_USER": "ola\r"},
         "error: $ARBITER_USER holds a control character (U+000D) at 4: 'ola\\r'"),
        ([], {"ARBITER_USER": "o\u2028la"},
         "error: $ARBITER_USER holds a control character (U+2028) at 2: 'o\\u2028la'"),
        (["--as", " "], None, "error: --as is empty: ' '"),
    ],
    ids=["newline", "escape", "env-cr", "env-u2028", "blank"],
)  # fmt: skip
def test_a_forged_actor_is_refused(
    tmp_path: Path, args: list[str], env: dict[str, str] | None, error: str
) -> None:
    store = tmp_path / "store.duckdb"
    done = run(store, *args, *CREATE, env=env)
    assert done.returncode == 1, (done.stdout, done.stderr)
    assert done.stderr.strip().splitlines() == [error]
    listed = run(store, "tournament", "list")
    assert listed.returncode == 0, listed.stderr
    assert "oslo" not in listed.stdout


def test_a_plain_actor_is_recorded(tmp_path: Path) -> None:
    store = tmp_path / "store.duckdb"
    done = run(store, *CREATE, env={"ARBITER_USER": "Ola Nordmann"})
    assert done.returncode == 0, done.stderr
    log = run(store, "log", "oslo", "--format", "json")
    assert '"actor": "Ola Nordmann"' in log.stdout
