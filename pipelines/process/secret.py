"""The installation's secret: the key of the codes the server derives (players' check-in codes).

It is never in the log (whoever reads the log or its exports must not learn it), and it is the
same across restarts and across every process that serves or prints the same events:

* ``$ARBITER_SECRET`` when set (several servers on one PostgreSQL log: give each the same);
* else the file ``arbiter/secret`` in ``$XDG_CONFIG_HOME`` (default ``~/.config``), made with
  32 random bytes on first use, in a folder only its owner may read.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import secrets
from pathlib import Path

from pipelines.process.files import OutputError, write_atomic

__all__ = ["SECRET_ENV", "secret", "secret_file"]

SECRET_ENV = "ARBITER_SECRET"
_FOLDER_MODE = 0o700


def secret_file() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "arbiter" / "secret"


def secret() -> bytes:
    """The secret's bytes (see the module's text); made once, under a lock, when missing."""
    given = os.environ.get(SECRET_ENV)
    if given:
        return given.encode()
    path = secret_file()
    try:
        path.parent.mkdir(mode=_FOLDER_MODE, parents=True, exist_ok=True)
        # A lock of its own (the safe writer holds the folder's while it writes).
        fd = os.open(path.parent / ".secret.lock", os.O_RDONLY | os.O_CREAT, 0o600)
    except OSError as exc:
        raise OutputError(f"{path.parent}: {exc.strerror} (or set ${SECRET_ENV})") from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)  # two first uses at once make one secret
        with contextlib.suppress(FileNotFoundError):
            kept = path.read_bytes().strip()
            if kept:
                return kept
        made = secrets.token_hex(32).encode()
        write_atomic(path, made + b"\n")
        os.chmod(path, 0o600)
        return made
    finally:
        os.close(fd)
