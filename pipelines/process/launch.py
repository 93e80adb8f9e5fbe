"""The console entry points: Ctrl-C ends in one line and exit 130 from the first moment on.

The command modules take a second or more to import (pydantic models, polars, typer); a Ctrl-C
in that time would print Python's traceback. These functions import only `sys` and `os` before
they catch it, then hand over to the real entry points, which catch it themselves.

A Ctrl-C is also remembered (`pipelines.process.sigint`), and an interrupted command leaves
without the interpreter's clean-up (`_leave_interrupted`).

A reader that closed stdout early (``arbiter log T | head -1``) ends the command quietly with
exit 0, as ``git log | head`` does: also when the pipe breaks only at the last flush.
"""

from __future__ import annotations

import os
import sys

from pipelines.process import sigint

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up, Ctrl-C)
if TYPE_CHECKING:  # annotations only: the entry points import nothing they can avoid
    from collections.abc import Callable
    from typing import NoReturn

INTERRUPTED = 130  # as events.errors.INTERRUPTED_EXIT_CODE, without importing it


def _interrupted() -> NoReturn:
    sys.stderr.write("interrupted\n")
    _leave_interrupted()


def _quiet_stdout() -> None:
    """stdout at the null device: its reader has gone (as `pipelines.process.exits.closed_pipe`)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):
        pass


def _run(main: Callable[[], object]) -> NoReturn:
    """``main()``, then stdout flushed; a closed pipe on the way is exit 0 and no word."""
    try:
        try:
            code = main()
        except SystemExit as exc:
            code = exc.code
        sys.stdout.flush()
    except BrokenPipeError:
        _quiet_stdout()
        code = 0
    except KeyboardInterrupt:
        _interrupted()
    if code == INTERRUPTED and sigint.interrupted_already():
        _leave_interrupted()
    sys.exit(code)  # type: ignore[arg-type]


def _leave_interrupted() -> NoReturn:
    """Exit 130 without the interpreter's clean-up: a library whose import the Ctrl-C cut
    short can abort the process there (SIGABRT) instead of ending it. The command's own work
    is already unwound (stores closed, transactions rolled back) when this runs."""
    for stream in (sys.stdout, sys.stderr):
        try:  # noqa: SIM105 - contextlib would cost start-up before Ctrl-C is caught
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(INTERRUPTED)


def arbiter() -> None:
    """``arbiter``.

    Pydantic plugins are off unless ``$PYDANTIC_DISABLE_PLUGINS`` says otherwise: arbiter uses
    none, and looking for them reads the metadata of every installed distribution when the
    first model is built (~0.0025 s of a light command's start-up)."""
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    sigint.catch()
    try:
        from pipelines.cli import main
    except KeyboardInterrupt:
        _interrupted()
    _run(main)


def arbiter_pairings() -> None:
    """``arbiter-pairings``."""
    sigint.catch()
    try:
        from pipelines.engines.cli import main
    except KeyboardInterrupt:
        _interrupted()
    _run(main)
