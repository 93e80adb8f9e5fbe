"""What an h9 table says beyond its cells: the placement columns, the system, player notes.

The EGD reads only the tags and the cells; everything after ``;`` is a comment to it. Three
comments carry what a tournament needs to rank and continue the same way:

* the column caption ``; Pl Name Rk Co Club MMS SOSM SOSOSM``: the codes of the placement
  columns, in order. OpenGotha's short names are read too (``SOS``, ``SOSOS``, ``SODOS``,
  ``CUSS``, ``SOS-1``, glued as it writes them: ``SOSSOSOS``), as Mac-Mahon criteria (``SOSM``)
  when the first column is ``MMS``, else as Swiss ones (``SOSW``);
* the system line ``; System: Mac-Mahon, bar 2d, floor 15k`` (or ``; System: Swiss``);
* a player line's notes ``; pairing bye in round 2, withdrawn from round 4``: a ``0+`` that
  the pairing gave (not a requested bye), and the round a player stopped playing from.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from events.go import Rank

__all__ = [
    "CAPTION_HEAD",
    "PlayerNotes",
    "SystemLine",
    "caption",
    "criteria_codes",
    "parse_notes",
    "parse_system",
]

CAPTION_HEAD = ("Pl", "Name", "Rk", "Co", "Club")
"""The caption's first words, as OpenGotha writes them."""

GO_CRITERIA = frozenset(
    {
        *("MMS", "NBW", "SOSM", "SOSW", "SOSOSM", "SOSOSW", "SODOSM", "SODOSW"),
        *("CUSSM", "CUSSW", "SOSM-1", "SOSM-2", "SOSW-1", "SOSW-2", "EXT", "EXR", "DC", "SDC"),
    }
)
"""The go placement criteria a table's columns may hold (the tie-break registry's codes)."""

_SHORT = ("SOSOS", "SODOS", "CUSS", "SOS-1", "SOS-2", "SOS")
"""OpenGotha's names without the M/W suffix, longest first (``SOSSOSOS`` = SOS + SOSOS)."""
_NAMES = (*sorted(GO_CRITERIA, key=len, reverse=True), *_SHORT)

_NOTE = re.compile(r"(pairing bye in|zero-point bye in|withdrawn from) round (\d+)")
_SYSTEM = re.compile(
    r";\s*System:\s*(Mac-Mahon|Swiss)(?:,\s*bar\s+(\S+?))?(?:,\s*floor\s+(\S+?))?\s*",
    re.IGNORECASE,
)


def caption(codes: tuple[str, ...]) -> str:
    """The caption line over players written with `projections.exports.h9`'s widths."""
    head = f"; {'Pl':<2} {'Name':<30} {'Rk':>3} Co Club"
    return (head + "".join(f" {code:>4}" for code in codes)).rstrip()


def _words(token: str) -> list[str] | None:
    """A caption token as criterion names (``SOSSOSOS`` → SOS, SOSOS); None if unknown."""
    names: list[str] = []
    rest = token.upper()
    while rest:
        name = next((n for n in _NAMES if rest.startswith(n)), None)
        if name is None:
            return None
        names.append(name)
        rest = rest[len(name) :]
    return names


def criteria_codes(text: str, columns: int) -> tuple[str, ...] | None:
    """The codes of the first placement columns named by a caption comment.

    ``columns`` is the number of columns the player lines have before their cells; names
    after the first unknown one are dropped (category columns such as ``U12``). None when
    ``text`` is no caption or names more columns than the lines have.

    >>> criteria_codes("; Pl Name  Rk Co Club  MMS  SOSSOSOS", 4)
    ('MMS', 'SOSM', 'SOSOSM')
    >>> criteria_codes(";Pl Name Rk Co Club NBW SOS ISOS-1 R1 R2", 3)
    ('NBW', 'SOSW')
    """
    words = text.lstrip(";").split()
    if tuple(words[: len(CAPTION_HEAD)]) != CAPTION_HEAD:
        return None
    names: list[str] = []
    for token in words[len(CAPTION_HEAD) :]:
        parts = _words(token)
        if parts is None:
            break
        names.extend(parts)
    if len(names) > columns:
        return None
    suffix = "M" if names[:1] == ["MMS"] else "W"
    return tuple(
        n if n in GO_CRITERIA else n.replace("-", suffix + "-") if "-" in n else n + suffix
        for n in names
    )


@dataclass(frozen=True, slots=True)
class SystemLine:
    """``; System: Mac-Mahon, bar 2d, floor 15k``: the system and its bar and floor values."""

    macmahon: bool
    bar: int | None = None
    floor: int | None = None

    def line(self) -> str:
        if not self.macmahon:
            return "; System: Swiss"
        parts = ["; System: Mac-Mahon"]
        if self.bar is not None:
            parts.append(f"bar {Rank.from_value(self.bar)}")
        if self.floor is not None:
            parts.append(f"floor {Rank.from_value(self.floor)}")
        return ", ".join(parts)


def parse_system(text: str) -> SystemLine | None:
    """The system line, or None for any other comment.

    >>> parse_system("; System: Mac-Mahon, bar 2d, floor 15k")
    SystemLine(macmahon=True, bar=1, floor=-15)
    """
    match = _SYSTEM.fullmatch(text)
    if match is None:
        return None
    bar, floor = (Rank.parse(v) if v else None for v in match.group(2, 3))
    return SystemLine(
        match.group(1).lower() == "mac-mahon",
        bar.value if bar is not None else None,
        floor.value if floor is not None else None,
    )


@dataclass(frozen=True, slots=True)
class PlayerNotes:
    """A player's rounds that the cells alone do not tell."""

    pairing_byes: frozenset[int] = frozenset()
    zero_byes: frozenset[int] = frozenset()
    withdrawn_from: int | None = None
    other: str = field(default="", compare=False)

    def text(self) -> str:
        notes = [f"pairing bye in round {r}" for r in sorted(self.pairing_byes)]
        notes += [f"zero-point bye in round {r}" for r in sorted(self.zero_byes)]
        if self.withdrawn_from is not None:
            notes.append(f"withdrawn from round {self.withdrawn_from}")
        return ", ".join(notes)


def parse_notes(comment: str) -> PlayerNotes:
    """The notes of a player line's comment (other text is ignored).

    >>> parse_notes("pairing bye in round 2, withdrawn from round 4").withdrawn_from
    4
    """
    found = _NOTE.findall(comment)
    return PlayerNotes(
        frozenset(int(r) for kind, r in found if kind.startswith("pairing")),
        frozenset(int(r) for kind, r in found if kind.startswith("zero")),
        next((int(r) for kind, r in found if kind.startswith("withdrawn")), None),
    )
