"""Orphans after ``kill -9`` (issue 34, item 6): the reader workers of ``arbiter ingest`` (and
multiprocessing's resource tracker) die with the command, so nothing keeps its output open.

A real ``arbiter ingest`` in its own session over a folder of generated .ELO files (enough for
worker processes); once its workers exist it is killed with SIGKILL; within 5 s no process of
its session is left and its stdout reaches end of file.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ARBITER = str(Path(sys.executable).parent / "arbiter")

ELO = """\
%%Tournament: Club night {n}
%%Country: World
%%Date: 04/11/1978
%%Sender: test

%_%  {a}, ALPHA, ann, NOR, 1.0, 40, 1500
%_%  {b}, BETA, bob, SWE, 0.0, 24, 1400

  {a} (40)>(24)    {b}
"""


def session_members(sid: int) -> dict[int, str]:
    """Live (not zombie) processes of session ``sid``: pid -> command line."""
    found: dict[int, str] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        # Fields after the command name (which may hold spaces): state ppid pgrp session ...
        fields = stat.rsplit(")", 1)[1].split()
        if int(fields[3]) == sid and fields[0] != "Z":
            found[int(entry.name)] = cmdline
    return found


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_kill_9_leaves_no_process_behind(tmp_path: Path) -> None:
    folder = tmp_path / "elo"
    folder.mkdir()
    for n in range(3000):
        (folder / f"19781104_N{n}.ELO").write_text(
            ELO.format(n=n, a=100000 + 2 * n, b=100001 + 2 * n), encoding="utf-8"
        )
    process = subprocess.Popen(
        [ARBITER, "--store", str(tmp_path / "store.duckdb"), "ingest", str(folder)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    sid = process.pid
    try:
        deadline = time.monotonic() + 120
        while True:
            members = session_members(sid)
            workers = [p for p, c in members.items() if "multiprocessing" in c]
            if len(workers) >= 1:
                break
            assert process.poll() is None, process.stdout.read() if process.stdout else ""
            assert time.monotonic() < deadline, "no worker process started"
            time.sleep(0.05)
        time.sleep(0.5)  # the workers at work (and the resource tracker started)
        before = session_members(sid)
        assert len(before) >= 2, before
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=10)
        deadline = time.monotonic() + 5
        left = session_members(sid)
        while left and time.monotonic() < deadline:
            time.sleep(0.1)
            left = session_members(sid)
        assert left == {}, f"left after kill -9 of {sid} (of {before}): {left}"
        assert process.stdout is not None
        os.set_blocking(process.stdout.fileno(), False)
        # Nobody holds the write end any more: end of file, not "no data yet" (None).
        chunk: bytes | None = b"?"
        while chunk:
            chunk = process.stdout.read()
        assert chunk == b""
    finally:
        for pid in session_members(sid):
            os.kill(pid, signal.SIGKILL)
        if process.poll() is None:
            process.kill()
            process.wait()
