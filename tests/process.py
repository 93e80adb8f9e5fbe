"""The `arbiter` command in a subprocess, as a user runs it: one helper for the tests that
look at its exit status and stderr themselves (tests/web/serving.cli asserts success)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

__all__ = ["ARBITER", "PAIRINGS", "arbiter_run", "pairings_run"]

ARBITER = str(Path(sys.executable).parent / "arbiter")
PAIRINGS = str(Path(sys.executable).parent / "arbiter-pairings")


def arbiter_run(
    store: str | Path,
    *args: str,
    env: dict[str, str] | None = None,
    timeout: float = 120,
    cwd: Path | None = None,
) -> subprocess.CompletedProcess[str]:
    """``arbiter --store STORE ARGS`` (in folder `cwd`): its exit status, stdout and stderr
    (never raises)."""
    return subprocess.run(
        [ARBITER, "--store", str(store), *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
        cwd=cwd,
        env={**os.environ, **(env or {})},
    )


def pairings_run(*args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """``arbiter-pairings ARGS``: its exit status, stdout and stderr (never raises)."""
    return subprocess.run(
        [PAIRINGS, *args], capture_output=True, text=True, timeout=timeout, check=False
    )
