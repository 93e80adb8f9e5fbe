"""Ctrl-C, remembered for the whole process.

A signal that lands while a library runs its import can be swallowed there and leave the
library half set up (numpy then fails with a RecursionError); whatever goes wrong after it is
still "interrupted", exit 130, not a bug (`pipelines.process.exits.report`). The entry points
(`pipelines.process.launch`) install `catch` first thing; this module imports nothing else, so
that costs no start-up.
"""

from __future__ import annotations

import _signal  # type: ignore[import-not-found]  # `signal` without its 10 ms of enum

_seen: list[bool] = [False]


def _on_sigint(_signum: int, _frame: object) -> None:
    """Python's own Ctrl-C (KeyboardInterrupt), remembered."""
    _seen[0] = True
    raise KeyboardInterrupt


def catch() -> None:
    """Remember every Ctrl-C from now on (unless someone already handles SIGINT otherwise)."""
    if _signal.getsignal(_signal.SIGINT) is _signal.default_int_handler:
        _signal.signal(_signal.SIGINT, _on_sigint)


def interrupted_already() -> bool:
    """Whether Ctrl-C has been pressed in this process since `catch`."""
    return _seen[0]
