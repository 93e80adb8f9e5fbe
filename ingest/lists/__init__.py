"""Published rating lists in: FIDE (XML, TXT), the EGD, the AGA, a national CSV.

`read_list` detects the format from the file's first bytes (`detect`) and calls its reader;
every reader gives a `ListFile` (the lists the file holds, the date it states, the rows left
out) or raises an `IngestError` naming ``FILE:LINE:COL``.
"""

from __future__ import annotations

from pathlib import Path

from ingest.errors import IngestError
from ingest.lists.records import ListFile, Progress, ReadList, SourceFormat

__all__ = ["ListFile", "ReadList", "SourceFormat", "detect", "read_list"]

_SNIFF = 16384


def detect(path: Path, shown: str) -> SourceFormat:
    """The format of the list at ``path``, from its first bytes.

    :raises IngestError: none of the list formats.
    """
    from ingest.lists import aga, csv_list, egd, fide_txt

    try:
        with path.open("rb") as handle:
            head = handle.read(_SNIFF)
    except OSError as exc:
        raise IngestError(shown, 0, 0, f"cannot open: {exc.strerror}") from None
    text = head.decode("utf-8", "replace").lstrip("\ufeff")
    start = text.lstrip()
    if start.startswith(("<?xml", "<playerslist")):
        return SourceFormat.FIDE_XML
    lines = text.splitlines()[:-1] if len(head) == _SNIFF else text.splitlines()
    first = lines[0] if lines else ""
    lowered = start[:2048].lower()
    if lowered.startswith(("<!doctype html", "<html")) or "<pre" in lowered:
        return SourceFormat.EGD_HTML
    if fide_txt.looks_like(first):
        return SourceFormat.FIDE_TXT
    if csv_list.looks_like(first):
        return SourceFormat.CSV
    if egd.looks_like(lines[:20]):
        return SourceFormat.EGD_TXT
    if aga.looks_like(lines[:20]):
        return SourceFormat.AGA
    raise IngestError(
        shown,
        1,
        1,
        "not a rating list arbiter knows",
        first[:40] or "an empty file",
        "FIDE XML or TXT, the EGD list, an AGA TD list, or a CSV with id,name,rating",
    )


def read_list(
    path: Path,
    shown: str | None = None,
    *,
    skip_bad_lines: bool = False,
    progress: Progress | None = None,
) -> ListFile:
    """The lists in the file at ``path``, its format detected (`detect`).

    :raises IngestError: the file is no list, or (`ingest.lists.errors.ListRowError`) a row is
        wrong and ``skip_bad_lines`` is not set: nothing is read.
    """
    shown = shown if shown is not None else str(path)
    fmt = detect(path, shown)
    if fmt is SourceFormat.FIDE_XML:
        from ingest.lists.fide_xml import read_fide_xml

        return read_fide_xml(path, shown, skip_bad_lines=skip_bad_lines, progress=progress)
    if fmt is SourceFormat.FIDE_TXT:
        from ingest.lists.fide_txt import read_fide_txt

        return read_fide_txt(path, shown, skip_bad_lines=skip_bad_lines, progress=progress)
    if fmt in (SourceFormat.EGD_HTML, SourceFormat.EGD_TXT):
        from ingest.lists.egd import read_egd

        return read_egd(
            path,
            shown,
            html=fmt is SourceFormat.EGD_HTML,
            skip_bad_lines=skip_bad_lines,
            progress=progress,
        )
    if fmt is SourceFormat.AGA:
        from ingest.lists.aga import read_aga

        return read_aga(path, shown, skip_bad_lines=skip_bad_lines, progress=progress)
    from ingest.lists.csv_list import read_csv_list

    return read_csv_list(path, shown, skip_bad_lines=skip_bad_lines, progress=progress)
