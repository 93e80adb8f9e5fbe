"""Bytes to numbered text lines: encoding fallback and line-ending normalisation."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ingest.errors import IngestWarning

if TYPE_CHECKING:
    from pathlib import Path

__all__ = ["DecodedText", "decode", "path_text", "read_text", "split_lines"]

# ISO-8859-15 rather than plain latin-1: it is what OpenGotha writes, and it still maps
# every byte, so the fallback never fails.
FALLBACK_ENCODING = "iso-8859-15"


@dataclass(frozen=True, slots=True)
class DecodedText:
    """A decoded file: its lines (1-based numbering is ``index + 1``) and what was noticed."""

    lines: tuple[str, ...]
    encoding: str
    warnings: tuple[IngestWarning, ...]


def path_text(path: str | os.PathLike[str]) -> str:
    """``str(pathlib.Path(path))``, without importing pathlib for a string already in that form
    (a POSIX path of non-empty parts, none ``.``, below no ``//`` root): pathlib and the
    urllib.parse it imports cost ~7 ms of ``arbiter-pairings``' start-up.

    >>> path_text("data/in.trf"), path_text("./data//in.trf/")
    ('data/in.trf', 'data/in.trf')
    """
    if (
        isinstance(path, str)
        and os.sep == "/"
        and not path.startswith("//")
        and all(part not in ("", ".") for part in path.removeprefix("/").split("/"))
    ):
        return path
    from pathlib import Path

    return str(Path(path))


def split_lines(text: str) -> list[str]:
    """Split on CRLF, CR or LF alike; a trailing newline does not make an extra line.

    >>> split_lines("a\\r\\nb\\rc\\n")
    ['a', 'b', 'c']
    """
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def decode(data: bytes, path: str, *, prefer: str = "utf-8") -> DecodedText:
    """Decode ``data`` with ``prefer`` (UTF-8 by default), else ISO-8859-15 with a warning.

    A UTF-8 byte-order mark is dropped. When ``prefer`` is a single-byte charset (the
    ISO-8859-15 convention of .tou and OpenGotha h9), valid UTF-8 is still recognised first,
    since files are often re-saved by editors.
    """
    warnings: list[IngestWarning] = []
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        text = data.decode("utf-8")
        encoding = "utf-8"
    except UnicodeDecodeError as exc:
        text = data.decode(FALLBACK_ENCODING)
        encoding = FALLBACK_ENCODING
        if prefer == "utf-8":
            before = data[: exc.start].decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")
            line = before.count("\n") + 1
            column = len(before) - (before.rfind("\n") + 1) + 1
            warnings.append(
                IngestWarning(
                    path,
                    line,
                    column,
                    "not valid UTF-8, read as ISO-8859-15",
                    found=data[exc.start : exc.start + 1].hex(),
                    expected="UTF-8",
                )
            )
    return DecodedText(tuple(split_lines(text)), encoding, tuple(warnings))


def read_text(path: Path, data: bytes | None = None, *, prefer: str = "utf-8") -> DecodedText:
    """Read ``path`` (or the given bytes, named by ``path``) and decode it."""
    raw = path.read_bytes() if data is None else data
    return decode(raw, str(path), prefer=prefer)
