"""Named points where a test may kill the process as a power cut would (``kill -9``).

``ARBITER_CRASH_AT=<name>`` makes the process send itself ``SIGKILL`` when it reaches the
point of that name: no ``finally`` block, no atexit handler, no flush runs, as in a real crash.
The tests of atomic outputs use it to stop ``ratings run`` at each step of writing a list
(``tests/hostile/test_kill_ratings_run.py``). Unset, a point costs one dictionary look-up.
"""

from __future__ import annotations

import os
import signal

__all__ = ["CRASH_ENV", "crash_point"]

CRASH_ENV = "ARBITER_CRASH_AT"


def crash_point(name: str) -> None:
    """Die at once (``SIGKILL``) when ``$ARBITER_CRASH_AT`` names this point."""
    if os.environ.get(CRASH_ENV) == name:
        os.kill(os.getpid(), signal.SIGKILL)
