"""Files written so that a reader never sees half of one: through a temporary file (or
folder) beside the target, then ``os.replace``."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Mapping
from pathlib import Path

__all__ = ["write_atomic", "write_folder_atomic"]

_FILE_MODE = 0o644


def write_atomic(path: Path, data: bytes) -> None:
    """Write through a temporary file in the same folder, then ``os.replace`` it into place."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, _FILE_MODE)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_folder_atomic(path: Path, files: Mapping[str, bytes]) -> None:
    """Replace the folder ``path`` by one holding exactly ``files``.

    The files go to a fresh temporary folder first (thousands of charts: one rename instead of
    one per file), which then takes the old folder's place.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent))
    try:
        for name, data in files.items():
            staging.joinpath(name).write_bytes(data)
        os.chmod(staging, 0o755)
        old = None
        if path.exists():
            old = Path(tempfile.mkdtemp(prefix=f".{path.name}.", suffix=".old", dir=path.parent))
            os.replace(path, old / path.name)
        os.replace(staging, path)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)
