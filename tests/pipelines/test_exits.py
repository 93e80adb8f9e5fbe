"""Ctrl-C ends a command as "interrupted", exit 130, even when it stops a DuckDB query.

DuckDB checks for a pending signal while a query runs and then raises its own
``RuntimeError("Query interrupted")`` instead of ``KeyboardInterrupt``; a Ctrl-C that lands
there must not be reported as an internal error (exit 70).
"""

from __future__ import annotations

import os
import signal
import threading
import time

import duckdb
import pytest

from events.errors import BUG_EXIT_CODE, INTERRUPTED_EXIT_CODE
from pipelines.process.exits import report


def _interrupt_soon() -> None:
    time.sleep(0.3)
    os.kill(os.getpid(), signal.SIGINT)


def test_ctrl_c_during_a_duckdb_query_is_interrupted(capsys: pytest.CaptureFixture[str]) -> None:
    # One thread: DuckDB then runs the query on this thread and checks for the signal
    # between its tasks (0.3 s, 11 runs of 11). With worker threads this thread may be
    # inside a long task when the signal comes and notice it seconds later (7 s of CPU in 8
    # runs of 16; a minute at load 20); the Ctrl-C is the same either way.
    con = duckdb.connect(config={"threads": 1})
    caught: BaseException | None = None
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        threading.Thread(target=_interrupt_soon).start()
        con.execute("SELECT count(*) FROM range(100000000000)").fetchall()
    except BaseException as exc:  # what DuckDB raises, KeyboardInterrupt or its own error
        caught = exc
    finally:
        signal.signal(signal.SIGINT, previous)
    assert caught is not None
    assert report(caught) == INTERRUPTED_EXIT_CODE
    assert capsys.readouterr().err == "interrupted\n"


def test_other_runtime_errors_stay_internal_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert report(RuntimeError("Query failed")) == BUG_EXIT_CODE
    assert "internal error: RuntimeError: Query failed" in capsys.readouterr().err
