"""`arbiter user`: accounts from the command line, with the CLI's one-line errors."""

from __future__ import annotations

import subprocess
from pathlib import Path

from tests.web.serving import ARBITER, new_event


def run(store: str, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [ARBITER, "--store", store, "user", *args],
        input=stdin, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip


def test_user_commands(tmp_path: Path) -> None:
    store = str(tmp_path / "store.duckdb")
    new_event(store, ["A, One", "B, Two"])
    done = run(store, "add", "kari", "--role", "director")
    assert (done.returncode, done.stderr.strip()) == (
        1, "error: user kari: a director needs --tournament (the event he runs)"
    )  # fmt: skip
    done = run(store, "add", "kari", "--role", "director", "--tournament", "bergen")
    assert (done.returncode, done.stderr.strip()) == (
        1, "error: user kari: unknown tournament 'bergen'"
    )  # fmt: skip
    done = run(store, "add", "kari", "--role", "director", "--tournament", "oslo")
    assert done.returncode == 0
    token = done.stdout.strip().splitlines()[-1]
    assert token.startswith("arb_")
    assert len(token) > 40
    done = run(store, "passwd", "kari", stdin="short\n")
    assert (done.returncode, done.stderr.strip()) == (
        1, "error: user kari: the password needs at least 8 characters"
    )  # fmt: skip
    assert run(store, "passwd", "kari", stdin="long-enough-1\n").returncode == 0
    assert run(store, "revoke", "kari").returncode == 0
    done = run(store, "revoke", "kari")
    assert (done.returncode, done.stderr.strip()) == (1, "error: no active user 'kari'")
    listing = run(store, "list", "--format", "json").stdout
    assert '"active": false' in listing
    assert token not in listing
    assert "argon2" not in listing
