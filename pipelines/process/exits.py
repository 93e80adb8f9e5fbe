"""How the command lines end on an error: one line on stderr and the documented exit code.

An `events.errors.ArbiterError` is the user's to fix (or to retry): its message and its
`exit_code`. Ctrl-C is "interrupted", exit 130, also when it stopped a DuckDB query. Anything
else is a bug in arbiter: a short "please report" line and exit 70, never disguised as a user
error; ``ARBITER_DEBUG=1`` prints the traceback before that line. A reader that closed the pipe
early (``arbiter log T | head -1``) ends the command quietly with exit 0, as ``git log | head``.
"""

from __future__ import annotations

import os
import sys
import traceback

from events.errors import BUG_EXIT_CODE, INTERRUPTED_EXIT_CODE, ArbiterError, Naming
from pipelines.process.sigint import interrupted_already

__all__ = ["DEBUG_ENV", "closed_pipe", "one_line", "report", "said_anything"]

DEBUG_ENV = "ARBITER_DEBUG"
"""Set to 1 to see the traceback of an internal error."""


def one_line(text: object) -> str:
    """``text`` with every run of whitespace (newlines included) made one space.

    >>> one_line("bad cron '* *':\\n  wrong number of fields")
    "bad cron '* *': wrong number of fields"
    """
    return " ".join(str(text).split())


def report(exc: BaseException, program: str = "arbiter", naming: Naming | None = None) -> int:
    """Print the one line that ``exc`` deserves on stderr; return the process exit code.

    ``naming``: how this program names the input fields a message is about (the ``arbiter``
    command line: by its options, ``--federation``).
    """
    if isinstance(exc, ArbiterError):
        _say(f"error: {exc.render(naming) if naming is not None else exc}")
        return exc.exit_code
    if isinstance(exc, BrokenPipeError):
        return closed_pipe()
    if _interrupted(exc):
        _say("interrupted")
        return INTERRUPTED_EXIT_CODE
    if os.environ.get(DEBUG_ENV) == "1":
        traceback.print_exception(exc, file=sys.stderr)
    _say(
        f"{program}: internal error: {type(exc).__name__}: {one_line(exc)} — please report "
        f"this (run it again with {DEBUG_ENV}=1 for the traceback)"
    )
    return BUG_EXIT_CODE


def closed_pipe() -> int:
    """The reader of stdout has gone (``| head -1``): nothing more is written there. Points
    stdout at the null device, so that Python's flush at exit does not fail again, and returns
    exit code 0."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # no file descriptor behind sys.stdout (a test's capture)
        pass
    return 0


def _interrupted(exc: BaseException) -> bool:
    """Ctrl-C, also when it stopped a DuckDB query: DuckDB then raises its own
    ``RuntimeError("Query interrupted")`` in place of ``KeyboardInterrupt``; and any failure
    after a Ctrl-C that a library swallowed half-way through its import (`launch`)."""
    if isinstance(exc, KeyboardInterrupt) or interrupted_already():
        return True
    return type(exc) is RuntimeError and str(exc) == "Query interrupted"


_said: list[str] = []


def _say(line: str) -> None:
    _said.append(line)
    sys.stderr.write(line + "\n")
    sys.stderr.flush()


def said_anything() -> bool:
    """Whether `report` has printed its line in this process (typer ends a Ctrl-C it catches
    itself with exit 130 and no word: `pipelines.cli.main` then says it)."""
    return bool(_said)
