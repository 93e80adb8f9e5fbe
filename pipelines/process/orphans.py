"""Worker processes that die with their parent.

A ``kill -9`` of a command gives it no chance to stop its workers: left alone they live on
(blocked on a pipe from a parent that is gone), holding the command's stdout and stderr open so
whatever reads its output hangs. A worker calls :func:`die_with_parent` first thing: on Linux the
kernel sends it SIGKILL when its parent dies (``prctl(PR_SET_PDEATHSIG)``); elsewhere a daemon
thread notices the parent is gone (the worker is re-parented) within a second.

Multiprocessing's resource tracker needs nothing: it exits when the last holder of its pipe (the
parent and these workers) is gone.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import signal
import sys
import threading
import time

__all__ = ["die_with_parent"]

_PR_SET_PDEATHSIG = 1


def die_with_parent(parent: int) -> None:
    """End this process when ``parent`` (the pid of the process that started it) dies.

    The check of ``os.getppid()`` after arming closes the race of a parent that died before.
    """
    if sys.platform.startswith("linux") and _pdeathsig():
        if os.getppid() != parent:
            os._exit(1)
        return
    threading.Thread(target=_watch, args=(parent,), name="die-with-parent", daemon=True).start()


def _pdeathsig() -> bool:
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        return int(libc.prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)) == 0
    except (OSError, AttributeError):
        return False


def _watch(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(1)
