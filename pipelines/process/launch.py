"""The console entry points: Ctrl-C ends in one line and exit 130 from the first moment on.

The command modules take a second or more to import (pydantic models, polars, typer); a Ctrl-C
in that time would print Python's traceback. These functions import only `sys` before they
catch it, then hand over to the real entry points, which catch it themselves.
"""

from __future__ import annotations

import sys

INTERRUPTED = 130  # as events.errors.INTERRUPTED_EXIT_CODE, without importing it


def _interrupted() -> None:
    sys.stderr.write("interrupted\n")
    sys.stderr.flush()
    sys.exit(INTERRUPTED)


def arbiter() -> None:
    """``arbiter``."""
    try:
        from pipelines.cli import main
    except KeyboardInterrupt:
        _interrupted()
    main()


def arbiter_pairings() -> None:
    """``arbiter-pairings``."""
    try:
        from pipelines.engines.cli import main
    except KeyboardInterrupt:
        _interrupted()
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        _interrupted()
