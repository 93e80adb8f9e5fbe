"""Outputs written so that a reader never sees half of one, and nothing but a file is replaced.

* :func:`write_atomic`: one file, through a temporary file beside it, then ``os.replace``.
* :func:`folder_swap`: a whole folder (a rating list: CSV, Parquet, HTML, charts, manifest)
  built beside the target and swapped in with one ``renameat2(RENAME_EXCHANGE)``, so the
  folder is always the old list or the new one, never a mix.

Targets are checked first (:func:`check_file_target`): an ``-o`` that names a symbolic link, a
device, a FIFO or a folder is refused with a one-line :class:`OutputError`, never replaced.
What a killed run left beside a target (``.NAME.*.tmp``, ``.NAME.*.old``) is removed by the
next write of that target.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import fcntl
import os
import shutil
import stat
import tempfile
from collections.abc import Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from events.errors import UserError
from ingest.limits import display_path, file_kind
from pipelines.process.crashpoints import crash_point

__all__ = [
    "OutputError",
    "check_file_target",
    "clean_leftovers",
    "folder_swap",
    "write_atomic",
    "write_new_files",
]

_FILE_MODE = 0o644
_FOLDER_MODE = 0o755


class OutputError(UserError):
    """An output path arbiter will not write: a symbolic link, a device, a folder where a file
    is asked for (or a file where a folder is), a folder that is not one of its lists."""


def _lstat(path: Path) -> os.stat_result | None:
    try:
        return os.lstat(path)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise OutputError(f"{display_path(path)}: {exc.strerror}") from None


def check_file_target(path: Path) -> None:
    """``path`` may be written as a file: it does not exist yet, or is a regular file.

    :raises OutputError: a symbolic link, a folder, a device or a FIFO (one line).
    """
    found = _lstat(path)
    if found is None or stat.S_ISREG(found.st_mode):
        return
    if stat.S_ISLNK(found.st_mode):
        what = "a symbolic link"
    elif stat.S_ISDIR(found.st_mode):
        what = "a folder; give a file name"
    else:
        what = file_kind(found.st_mode)
    raise OutputError(f"{display_path(path)}: is {what}: refusing to replace it")


def clean_leftovers(path: Path) -> list[Path]:
    """Remove what an interrupted write of ``path`` left beside it (``.NAME.*.tmp`` files and
    folders, ``.NAME.*.old`` folders); returns what was removed."""
    removed: list[Path] = []
    parent = path.parent
    if not parent.is_dir():
        return removed
    for suffix in (".tmp", ".old"):
        for leftover in parent.glob(f".{path.name}.*{suffix}"):
            if leftover.is_dir() and not leftover.is_symlink():
                shutil.rmtree(leftover, ignore_errors=True)
            else:
                leftover.unlink(missing_ok=True)
            removed.append(leftover)
    return removed


@contextlib.contextmanager
def _writing_in(folder: Path) -> Iterator[None]:
    """Hold ``folder``'s lock (``flock`` on the folder itself, released by the system when the
    process dies): two runs writing beside each other wait in turn, so that one never cleans
    away the other's temporary file as a leftover."""
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def _fsync_folder(folder: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def write_atomic(path: Path, data: bytes) -> None:
    """Write through a temporary file in the same folder, then ``os.replace`` it into place.

    :raises OutputError: ``path`` is not a regular file (see :func:`check_file_target`), or
        its folder cannot be written.
    """
    check_file_target(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(f"{display_path(path.parent)}: {exc.strerror}") from None
    with _writing_in(path.parent):
        _write_locked(path, data)


def _write_locked(path: Path, data: bytes) -> None:
    clean_leftovers(path)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as exc:
        raise OutputError(f"{display_path(path)}: {exc.strerror}") from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, _FILE_MODE)
        crash_point(f"tmp:{path.name}")
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    _fsync_folder(path.parent)


def write_new_files(folder: Path, files: Iterable[tuple[str, bytes]]) -> int:
    """Write many small new files (a list's charts) into ``folder``, a staging folder of
    :func:`folder_swap` that nobody else reads yet; the number written.

    Each is created relative to the folder's descriptor (a name given twice keeps the later
    file, as a write of a path would), by two threads: creating a file is the kernel's work,
    done outside the GIL, while ``files`` (a generator) makes the next ones.
    """
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC | os.O_NOFOLLOW
    where = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)

    def write(batch: list[tuple[str, bytes]]) -> None:
        for name, data in batch:
            fd = os.open(name, flags, _FILE_MODE, dir_fd=where)
            try:
                view = memoryview(data)
                while view:
                    view = view[os.write(fd, view) :]
            finally:
                os.close(fd)

    written = 0
    try:
        with ThreadPoolExecutor(max_workers=2) as pool:
            pending = []
            batch: list[tuple[str, bytes]] = []
            seen: set[str] = set()
            for item in files:
                if os.sep in item[0] or item[0] in ("", ".", ".."):
                    raise ValueError(f"not a file name: {item[0]!r}")
                if item[0] in seen:  # written after every earlier file: the later one stays
                    pending.append(pool.submit(write, batch))
                    written += len(batch)
                    batch = []
                    for future in pending:
                        future.result()
                    pending.clear()
                seen.add(item[0])
                batch.append(item)
                if len(batch) == 512:
                    pending.append(pool.submit(write, batch))
                    written += len(batch)
                    batch = []
            if batch:
                pending.append(pool.submit(write, batch))
                written += len(batch)
            for future in pending:
                future.result()
    finally:
        os.close(where)
    return written


# ------------------------------------------------------------------ swapping a folder

_RENAME_EXCHANGE = 2
_AT_FDCWD = -100


def _exchange(a: Path, b: Path) -> bool:
    """Swap the paths ``a`` and ``b`` in one step (Linux ``renameat2``); False when the
    system or file system cannot."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    renameat2.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p]
    renameat2.argtypes += [ctypes.c_uint]
    renameat2.restype = ctypes.c_int
    done = renameat2(
        _AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), ctypes.c_uint(_RENAME_EXCHANGE)
    )
    if done == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP):
        return False
    raise OSError(code, os.strerror(code), str(a))


def _recover(path: Path) -> None:
    """A run killed between the two renames of the fallback swap left no ``path`` but its old
    content as ``.NAME.*.old/NAME``: put it back."""
    if path.exists() or path.is_symlink():
        return
    for old in sorted(path.parent.glob(f".{path.name}.*.old")):
        kept = old / path.name
        if kept.is_dir():
            os.replace(kept, path)
            return


def _check_folder_target(path: Path, require_manifest: bool) -> None:
    found = _lstat(path)
    if found is None:
        return
    shown = display_path(path)
    if stat.S_ISLNK(found.st_mode):
        raise OutputError(f"{shown}: is a symbolic link: refusing to replace it")
    if not stat.S_ISDIR(found.st_mode):
        raise OutputError(f"{shown}: is {file_kind(found.st_mode)}, not a folder")
    if require_manifest and any(path.iterdir()) and not (path / "manifest.json").is_file():
        raise OutputError(
            f"{shown}: a folder that holds no rating list (no manifest.json): refusing to "
            "replace it; give a new or an empty folder"
        )


@contextlib.contextmanager
def folder_swap(path: Path, *, require_manifest: bool = True) -> Iterator[Path]:
    """Build the new content of the folder ``path`` in the yielded staging folder; when the
    block ends without error it takes ``path``'s place in one rename, and the old content is
    removed. An error or a kill leaves ``path`` as it was (the staging folder is cleaned by
    the next run).

    ``require_manifest``: an existing, non-empty ``path`` must hold a ``manifest.json`` (one
    of arbiter's lists), so that ``-o ~/Documents`` is refused instead of replaced.

    :raises OutputError: ``path`` is a symbolic link, a file, or a folder of something else.
    """
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(f"{display_path(path.parent)}: {exc.strerror}") from None
    with _writing_in(path.parent):
        _recover(path)
        _check_folder_target(path, require_manifest)
        clean_leftovers(path)
        with _swapped(path) as staging:
            yield staging


@contextlib.contextmanager
def _swapped(path: Path) -> Iterator[Path]:
    staging = Path(tempfile.mkdtemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent))
    try:
        yield staging
        os.chmod(staging, _FOLDER_MODE)
        _fsync_folder(staging)
        crash_point("swap:before")
        if not path.exists():
            os.replace(staging, path)
        elif _exchange(staging, path):
            crash_point("swap:exchanged")
        else:  # two renames; a kill between them is undone by _recover
            old = Path(tempfile.mkdtemp(prefix=f".{path.name}.", suffix=".old", dir=path.parent))
            os.replace(path, old / path.name)
            crash_point("swap:moved-old")
            os.replace(staging, path)
            staging = old
        _fsync_folder(path.parent)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    shutil.rmtree(staging, ignore_errors=True)
