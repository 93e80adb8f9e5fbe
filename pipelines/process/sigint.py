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


def _on_sigint(_signum: int, frame: object) -> None:
    """Python's own Ctrl-C (KeyboardInterrupt), remembered.

    Not inside the import of a compiled module: a KeyboardInterrupt raised in the Python code
    such a module runs while it sets itself up (duckdb creating its enums) makes its binding
    library abort the process (nanobind: "Critical nanobind error", SIGABRT). There the
    interrupt is raised as soon as that import is over (`_later`)."""
    _seen[0] = True
    if _in_compiled_import(frame):
        _later()
        return
    raise KeyboardInterrupt


def _in_compiled_import(frame: object) -> bool:
    """Whether ``frame`` runs inside ``ExtensionFileLoader.exec_module`` (a compiled module's
    set-up)."""
    while frame is not None:
        code = getattr(frame, "f_code", None)
        if getattr(code, "co_name", "") == "exec_module":
            loader = getattr(frame, "f_locals", {}).get("self")
            if type(loader).__name__ == "ExtensionFileLoader":
                return True
        frame = getattr(frame, "f_back", None)
    return False


_TICK = 0.01  # seconds between two looks for the end of a compiled module's import


def _later() -> None:
    """Raise the KeyboardInterrupt from a SIGALRM once no compiled import runs."""
    _signal.signal(_signal.SIGALRM, _on_alarm)
    _signal.setitimer(_signal.ITIMER_REAL, _TICK)


def _on_alarm(_signum: int, frame: object) -> None:
    if _in_compiled_import(frame):
        _signal.setitimer(_signal.ITIMER_REAL, _TICK)
        return
    _signal.signal(_signal.SIGALRM, _signal.SIG_DFL)
    raise KeyboardInterrupt


def catch() -> None:
    """Remember every Ctrl-C from now on (unless someone already handles SIGINT otherwise)."""
    if _signal.getsignal(_signal.SIGINT) is _signal.default_int_handler:
        _signal.signal(_signal.SIGINT, _on_sigint)


def interrupted_already() -> bool:
    """Whether Ctrl-C has been pressed in this process since `catch`."""
    return _seen[0]
