"""Which result-file format a file is in: by its content first, then by its extension.

Content signatures are strong (``%%Tournament:`` opens every ``.ELO`` file, OpenGotha files
are XML with a ``<Tournament`` root), so a misnamed file is still read right; the extension
decides only when the content says nothing.  ``--format`` on the command line bypasses both.
"""

from __future__ import annotations

import re
from enum import StrEnum
from pathlib import Path

from ingest.errors import IngestError

__all__ = ["FileFormat", "detect_format"]


class FileFormat(StrEnum):
    ELO = "elo"
    H9 = "h9"
    TOU = "tou"
    TRF = "trf"
    OPENGOTHA = "opengotha"


_BY_EXTENSION: dict[str, FileFormat] = {
    ".elo": FileFormat.ELO,
    ".h9": FileFormat.H9,
    ".tou": FileFormat.TOU,
    ".trf": FileFormat.TRF,
    ".trfx": FileFormat.TRF,
    ".xml": FileFormat.OPENGOTHA,
}

_TRF_LINE = re.compile(rb"^(?:001 [ \d]{4} |0[1-9]2 |XX[RCSAPZ]|1[0-9]2 )", re.MULTILINE)
_H9_TAG = re.compile(rb"^\s*;\s*(?:EV|CL|DT|PC|TC|KM|HA|RE|RN|TY)\[", re.MULTILINE)
_TOU_HEADER = re.compile(rb"^;(?:name|date|vill|comm|prog|size|komi)=", re.MULTILINE)

EXPECTED = "an .ELO, h9, .tou, TRF or OpenGotha XML file"


def _sniff(head: bytes) -> FileFormat | None:
    text = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    if text.startswith(b"%%Tournament:"):
        return FileFormat.ELO
    if text.startswith(b"<") and b"<Tournament" in head:
        return FileFormat.OPENGOTHA
    if _TOU_HEADER.search(head):
        return FileFormat.TOU
    if _H9_TAG.search(head):
        return FileFormat.H9
    if _TRF_LINE.search(head):
        return FileFormat.TRF
    return None


def detect_format(path: Path, data: bytes) -> FileFormat:
    """The format of ``data`` (the contents of ``path``).

    :raises IngestError: neither the content nor the extension names a known format.
    """
    found = _sniff(data[:8192])
    if found is not None:
        return found
    by_name = _BY_EXTENSION.get(path.suffix.lower())
    if by_name is not None:
        return by_name
    # The content is not quoted: a file that is no result file may hold anything (a password
    # file given by mistake), and the extension is what the officer can act on.
    raise IngestError(
        str(path),
        1,
        1,
        "unknown file format",
        found=path.suffix or "no extension",
        expected=EXPECTED,
    )
