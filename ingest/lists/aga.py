"""The AGA's TD lists (``TDListA.txt``, ``TDListB.txt``: tab-separated; ``TDListN.txt``: the
same fields in fixed-width columns).

One player a line: name (``Last, First``), AGA id, membership type (Full, Youth, Forgn,
Limit ...), rating (stones: ``-20.5`` is 20 kyu, ``5.3`` 5 dan; empty when unrated), membership
expiry (m/d/yyyy), chapter (club code, ``none`` when none), state (or country); the tab files add
sigma and the date of the last rating, which are not kept. The list states no date: ``--date``
gives it.
"""

from __future__ import annotations

import re
from pathlib import Path

from events.imported_lists import Kind
from ingest.errors import IngestError
from ingest.lists.check import Spec
from ingest.lists.limits import AGA_RATING
from ingest.lists.lines import Rows, numbered_lines, open_list
from ingest.lists.records import ListFile, Progress, ReadList, SourceFormat, as_kind

__all__ = ["SPECS", "looks_like", "read_aga"]

_FIELDS = ("name", "aga_id", "membership", "rating", "expires", "club", "state")
_SPACED = re.compile(
    r"^(?P<name>\S.*?)\s+(?P<aga_id>[0-9]+)\s+(?P<membership>[A-Za-z]+)"
    r"(?:\s+(?P<rating>[-+]?[0-9]*\.?[0-9]+))?(?:\s+(?P<expires>[0-9]{1,2}/[0-9]{1,2}/[0-9]{4}))?"
    r"(?:\s+(?P<club>\S+))?(?:\s+(?P<state>\S+))?\s*$"
)

SPECS = (
    Spec("aga_id", "id", "AGA id", required=True, expected="digits (an AGA id)"),
    Spec("name", "text", "name", required=True),
    Spec("membership", "code", "membership type", pattern=r"^[A-Za-z]{1,12}$"),
    Spec("rating", "float", "rating", low=AGA_RATING[0], high=AGA_RATING[1], none=("0",)),
    Spec("expires", "date", "expiry date", expected="a date m/d/yyyy"),
    Spec("club", "text", "chapter", none=("none",)),
    Spec("state", "text", "state"),
)


def looks_like(lines: list[str]) -> bool:
    """Whether a file's first lines look like a TD list."""
    data = [line for line in lines if line.strip()]
    if not data:
        return False
    tabbed = all(line.count("\t") >= 6 for line in data)
    return tabbed or all(_SPACED.match(line) and "," in line for line in data[:5])


def read_aga(
    path: Path,
    shown: str | None = None,
    *,
    skip_bad_lines: bool = False,
    progress: Progress | None = None,
) -> ListFile:
    """The AGA TD list at ``path`` (tab-separated or fixed-width).

    :raises ListRowError: a player's line or value is wrong, unless ``skip_bad_lines``.
    """
    shown = shown if shown is not None else str(path)
    rows = Rows(shown, SPECS, skip_bad_lines)
    for number, line in numbered_lines(open_list(path, shown), progress):
        if not line.strip():
            continue
        fields: dict[str, tuple[str | None, int]] = {}
        if "\t" in line:
            parts = line.split("\t")
            if len(parts) < len(_FIELDS):
                rows.refuse(
                    number,
                    len(line) + 1,
                    f"{len(parts)} fields",
                    line.strip(),
                    "7 to 9 tab-separated fields",
                )
                continue
            at = 1
            for name, value in zip(_FIELDS, parts, strict=False):
                fields[name] = (value, at)
                at += len(value) + 1
        else:
            match = _SPACED.match(line)
            if match is None:
                rows.refuse(
                    number,
                    1,
                    "not a TD list line",
                    line.strip(),
                    "name, AGA id, membership, rating, expiry, chapter, state",
                )
                continue
            for name in _FIELDS:
                fields[name] = (match.group(name), (match.start(name) + 1) or 1)
            if fields["club"][0] is not None and fields["state"][0] is None:
                fields["state"], fields["club"] = fields["club"], (None, 1)
        rows.add(number, fields)
    if not rows.lines and not rows.errors:
        raise IngestError(shown, 1, 1, "no player in the TD list")
    typed, skipped = rows.finish("aga_id")
    frame = typed.rename({"aga_id": "player_id"})
    read = ReadList("aga", Kind.AGA, as_kind(Kind.AGA, frame))
    return ListFile(shown, SourceFormat.AGA, (read,), skipped=tuple(skipped))
