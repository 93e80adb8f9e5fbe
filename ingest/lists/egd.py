"""The EGD's list of every player (``allworld_lp.html``, or the same lines as ``.txt``).

Each player is one line (in the HTML file, inside its ``<pre>``; every other line of the HTML
is page furniture)::

    PIN  last name  first name  country  club  grade  promotion  GoR  tournaments  last one
      19574643  Abad Jahin                            FR  38GJ   20k   --     15     2  T200202B

The name runs up to the two-letter country code; the club is at most four characters; the
grade and the promotion (``--`` when none) are go grades (``20k``, ``5d``, ``1p``). The list
states no date: ``--date`` gives it.
"""

from __future__ import annotations

import re
from pathlib import Path

from events.imported_lists import Kind
from ingest.errors import IngestError
from ingest.lists.check import Spec
from ingest.lists.limits import GOR_RANGE
from ingest.lists.lines import Rows, numbered_lines, open_list
from ingest.lists.records import ListFile, Progress, ReadList, SourceFormat, as_kind

__all__ = ["SPECS", "looks_like", "read_egd"]

_GRADE = r"[0-9]{1,2}[kdpKDP]"
_LINE = re.compile(
    r"^\s*(?P<pin>\S+)\s+(?P<name>\S.*?)\s+(?P<country>[A-Za-z]{2})\s+(?P<club>\S{1,8})\s+"
    r"(?P<grade>\S+)\s+(?P<promotion>\S+)\s+(?P<gor>\S+)\s+(?P<tournaments>\S+)\s+"
    r"(?P<last>\S+)\s*$"
)
_PLAYER = re.compile(r"^\s*[0-9]{8}\s")

SPECS = (
    Spec("pin", "id", "EGD PIN", required=True, pattern=r"^[0-9]{8}$", expected="8 digits"),
    Spec("name", "text", "name", required=True),
    Spec("country", "code", "country", pattern=r"^[A-Z]{2}$", expected="a country code (FR)"),
    Spec("club", "text", "club"),
    Spec("grade", "code", "grade", pattern=rf"^{_GRADE}$", expected="a grade (20k, 5d, 1p)"),
    Spec("gor", "int", "GoR", required=True, low=GOR_RANGE[0], high=GOR_RANGE[1]),
)


def looks_like(lines: list[str]) -> bool:
    """Whether a file's first lines hold EGD list lines."""
    return sum(1 for line in lines if _PLAYER.match(line) and _LINE.match(line)) >= 1


def read_egd(
    path: Path,
    shown: str | None = None,
    *,
    html: bool = False,
    skip_bad_lines: bool = False,
    progress: Progress | None = None,
) -> ListFile:
    """The EGD list at ``path`` (``html``: the HTML page, whose other lines are skipped).

    :raises ListRowError: a player's line or value is wrong, unless ``skip_bad_lines``.
    """
    shown = shown if shown is not None else str(path)
    rows = Rows(shown, SPECS, skip_bad_lines)
    for number, line in numbered_lines(open_list(path, shown), progress):
        if not line.strip() or (html and not _PLAYER.match(line)):
            continue
        match = _LINE.match(line)
        if match is None:
            first = len(line) - len(line.lstrip()) + 1
            rows.refuse(
                number,
                first,
                "not an EGD list line",
                line.strip(),
                "PIN, name, country, club, grade, promotion, GoR, tournaments, last",
            )
            continue
        rows.add(number, {f: (match.group(f), match.start(f) + 1) for f in match.groupdict()})
    if not rows.lines and not rows.errors:
        raise IngestError(shown, 1, 1, "no player in the EGD list", None, "PIN lines")
    typed, skipped = rows.finish("pin")
    frame = typed.rename({"pin": "player_id"}).with_columns(
        typed.get_column("grade").str.to_lowercase()
    )
    read = ReadList("egd", Kind.EGD, as_kind(Kind.EGD, frame))
    fmt = SourceFormat.EGD_HTML if html else SourceFormat.EGD_TXT
    return ListFile(shown, fmt, (read,), skipped=tuple(skipped))
