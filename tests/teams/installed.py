"""The installed `arbiter` commands in a subprocess, on a store named by ``$ARBITER_STORE``
(shared by the team tests)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def run_installed(store: Path, *args: str, exe: str = "arbiter") -> str:
    """``exe ARGS`` with ``ARBITER_STORE=store``; its stdout (asserting exit 0)."""
    done = subprocess.run(
        [str(Path(sys.executable).with_name(exe)), *args],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "ARBITER_STORE": str(store)},
    )
    assert done.returncode == 0, (args, done.stderr)
    return done.stdout
