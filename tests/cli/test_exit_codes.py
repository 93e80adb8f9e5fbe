"""Every exit code of the README's table, through the installed commands in a subprocess.

``arbiter``: 0 ok, 1 user or pairing error, 2 usage, 3 retryable (busy store or cache), 70 a
bug, 130 Ctrl-C. ``arbiter-pairings`` keeps bbpPairings' codes: 0, 1 no valid pairing, 3
invalid input, 5 file access. Every error is one line on stderr, never a traceback.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest

from tests.process import ARBITER
from tests.process import arbiter_run as arbiter

BIN = Path(sys.executable).parent
PAIRINGS = str(BIN / "arbiter-pairings")


def one_line(done: subprocess.CompletedProcess[str]) -> str:
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert "Traceback" not in done.stderr
    return lines[0]


def test_0_ok_and_2_usage(tmp_path: Path) -> None:
    store = tmp_path / "s.duckdb"
    done = arbiter(store, "tournament", "create", "--name", "Club", "--rounds", "3")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "club"
    usage = arbiter(store, "tournament", "create", "--rounds", "3")
    assert usage.returncode == 2
    assert "Missing option '--name'" in usage.stderr


def test_1_unknown_object_and_refused_pairing(tmp_path: Path) -> None:
    store = tmp_path / "s.duckdb"
    missing = arbiter(store, "standings", "nope")
    assert missing.returncode == 1
    assert one_line(missing) == "error: unknown tournament 'nope' (known: none yet)"
    tid = "rr"
    assert arbiter(store, "tournament", "create", "--name", "RR", "--id", tid).returncode == 0
    for name in ("A, A", "B, B", "C, C"):
        assert arbiter(store, "player", "add", tid, "--name", name).returncode == 0
    refused = arbiter(store, "pair", tid)  # three players play 3 rounds, not the default 5
    assert refused.returncode == 1
    assert one_line(refused) == (
        f"error: {tid}: a round robin of 3 players has 3 rounds per cycle, "
        "but the tournament was created with --rounds 5"
    )


HOLDER = textwrap.dedent(
    """
    import sys, time
    import duckdb
    connection = duckdb.connect(sys.argv[1])
    print("ready", flush=True)
    time.sleep(60)
    """
)


@pytest.mark.parametrize("held", ["store", "cache"])
def test_3_busy_store_or_games_cache(tmp_path: Path, held: str) -> None:
    store = tmp_path / "s.duckdb"
    assert arbiter(store, "tournament", "list").returncode == 0  # the store file exists
    target = store if held == "store" else tmp_path / "s.games.duckdb"
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(target)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None
        assert holder.stdout.readline().strip() == "ready"
        # The store waits $ARBITER_STORE_TIMEOUT; the games cache waits its own 10 s.
        done = arbiter(store, "ratings", "show", "wof:1", env={"ARBITER_STORE_TIMEOUT": "0.2"})
    finally:
        holder.kill()
        holder.communicate()
    assert done.returncode == 3
    line = one_line(done)
    if held == "store":
        assert line == f"error: store is busy (held by pid {holder.pid}); retry: {store}"
    else:
        assert line.startswith(f"error: {target}: games cache is busy or unreadable: ")


BUG = textwrap.dedent(
    """
    import sys
    from pipelines.cli import app, main
    from pipelines.cli.common import user_errors

    def boom() -> None:
        {}["no such key"]  # what a bug looks like: not an ArbiterError

    app.command("boom")(user_errors(boom) if sys.argv[1] == "wrapped" else boom)
    sys.argv = ["arbiter", "boom"]
    main()
    """
)


@pytest.mark.parametrize("command", ["wrapped", "bare"])
def test_70_a_bug_is_reported_as_one_line(command: str) -> None:
    """Inside a command (`user_errors`) or escaping typer (`main`), a bug exits 70."""
    done = subprocess.run(
        [sys.executable, "-c", BUG, command],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env={k: v for k, v in os.environ.items() if k != "ARBITER_DEBUG"},
    )
    assert done.returncode == 70
    assert one_line(done) == (
        "arbiter: internal error: KeyError: 'no such key' — please report this "
        "(run it again with ARBITER_DEBUG=1 for the traceback)"
    )
    debug = subprocess.run(
        [sys.executable, "-c", BUG, command],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env={**os.environ, "ARBITER_DEBUG": "1"},
    )
    assert debug.returncode == 70
    assert debug.stderr.startswith("Traceback (most recent call last):")
    assert debug.stderr.strip().splitlines()[-1].startswith("arbiter: internal error: KeyError")


def test_130_ctrl_c_stops_the_scheduler(tmp_path: Path) -> None:
    process = subprocess.Popen(
        [ARBITER, "--store", str(tmp_path / "s.duckdb"), "schedule", "--output-root", "out"],
        cwd=tmp_path,
        stderr=subprocess.PIPE,
        text=True,
    )
    guard = threading.Timer(120, process.kill)  # a scheduler deaf to Ctrl-C fails, never hangs
    guard.start()
    try:
        assert process.stderr is not None
        for line in process.stderr:  # APScheduler logs when its loop runs
            if "INFO Scheduler started" in line:
                break
        process.send_signal(signal.SIGINT)
        rest = process.stderr.read()
        assert process.wait(timeout=60) == 130
    finally:
        guard.cancel()
        process.kill()
        process.communicate()
    assert rest.strip().splitlines()[-1] == "interrupted"
    assert "Traceback" not in rest


def _trf(tmp_path: Path, extra: str) -> Path:
    players = "\n".join(
        f"001 {i:>4}      Test{i:04d} Player{i:04d}               {2500 - 10 * i:>4}"
        f"                             0.0 {i:>4}"
        for i in (1, 2)
    )
    path = tmp_path / "in.trf"
    path.write_text(f"XXR 5\nXXC white1\n{players}\n{extra}", encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("extra", "code"),
    [("", 0), ("XXP 1 2\n", 1), ("152 X\n", 3), ("BBW 0.25\n", 3), (None, 5)],
    ids=["paired", "no-valid-pairing", "invalid-input", "points-in-quarters", "no-file"],
)
def test_arbiter_pairings_keeps_bbppairings_codes(
    tmp_path: Path, extra: str | None, code: int
) -> None:
    path = _trf(tmp_path, extra) if extra is not None else tmp_path / "absent.trf"
    done = subprocess.run(
        [PAIRINGS, "--dutch", str(path), "-p"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == code, done.stderr
    if code == 0:
        assert done.stdout.splitlines() == ["1", "1 2"]
    else:
        assert one_line(done).startswith("error: ")
