"""Who wrote an event, and through which channel: the metadata every append carries.

Every event's metadata has ``actor`` (the person: ``--as``, ``$ARBITER_USER``, else the
operating-system user; the web server will put its account there) and ``source``, the channel:

* ``cli``: a command line (``command`` holds it, without ``--store``/``--as`` values, so no
  password ever lands in the log);
* ``file``: an ingested file (``file`` is its path, ``sha256`` its digest);
* ``scheduler``: the scheduled rating run; ``api``: the web server; ``library``: Python code
  that set nothing.

The process's origin is set once by the entry point (`set_origin`) and read by whoever appends.
"""

from __future__ import annotations

import contextvars
import functools
import getpass
import os
from dataclasses import dataclass, replace
from typing import Any

__all__ = ["Origin", "current_origin", "default_actor", "set_origin"]


def default_actor() -> str:
    """``$ARBITER_USER`` (``$ARBITER_ACTOR`` before it), else the operating-system user."""
    explicit = os.environ.get("ARBITER_USER") or os.environ.get("ARBITER_ACTOR")
    if explicit:
        return explicit
    return _os_user()


@functools.cache
def _os_user() -> str:
    """The operating-system user, looked up once per process (it reads the passwd database,
    and an ingest asks once per file)."""
    try:
        return getpass.getuser()
    except (KeyError, OSError):  # no passwd entry (containers)
        return f"uid:{os.getuid()}"


@dataclass(frozen=True, slots=True)
class Origin:
    """The actor and channel of the events this process appends."""

    actor: str
    source: str = "library"
    command: str | None = None

    def metadata(self, **extra: Any) -> dict[str, Any]:
        """Metadata for an event appended on this origin's behalf."""
        meta: dict[str, Any] = {"actor": self.actor, "source": self.source}
        if self.command is not None:
            meta["command"] = self.command
        meta.update(extra)
        return meta

    def file_metadata(self, path: str, sha256: str) -> dict[str, Any]:
        """Metadata for the events read from one file."""
        return {"actor": self.actor, "source": "file", "file": path, "sha256": sha256}

    def acting_as(self, actor: str | None) -> Origin:
        return self if not actor else replace(self, actor=actor)


_current: contextvars.ContextVar[Origin | None] = contextvars.ContextVar("origin", default=None)


def current_origin() -> Origin:
    """The origin the entry point set, else the default actor through ``library``."""
    return _current.get() or Origin(default_actor())


def set_origin(origin: Origin) -> None:
    _current.set(origin)
