"""Tie-break codes with modifiers, written as in C.07 / TRF-2026: `BH/C1`, `ARO/C1/U1400`."""

from __future__ import annotations

import re
from dataclasses import dataclass

from events.errors import UserError


class UnknownTiebreak(UserError):
    """A tie-break code or modifier arbiter does not know."""

    def __init__(self, code: str, known: str = "") -> None:
        hint = f" (known: {known})" if known else ""
        super().__init__(f"unknown tie-break '{code}'{hint}")


_DASHED_CUT = re.compile(r"^(?P<base>SOS[WM])-(?P<cut>[12])$")
_MODIFIER = re.compile(r"^(?P<kind>[CMUL])(?P<value>\d+)$")


@dataclass(frozen=True, slots=True)
class TiebreakSpec:
    """A parsed code: base name, cuts (`/Cn` low, `/Mn` low and high) and `/Unnnn`."""

    base: str
    cut_low: int = 0
    cut_high: int = 0
    unrated: int | None = None
    limit_percent: int | None = None  # KS: `/Lnn`, the share of the maximum score

    @property
    def code(self) -> str:
        if self.base in {"SOSW", "SOSM"} and self.cut_low and not self.cut_high:
            return f"{self.base}-{self.cut_low}"
        parts = [self.base]
        if self.cut_low and self.cut_low == self.cut_high:
            parts.append(f"M{self.cut_low}")
        elif self.cut_low:
            parts.append(f"C{self.cut_low}")
        if self.limit_percent is not None:
            parts.append(f"L{self.limit_percent}")
        if self.unrated is not None:
            parts.append(f"U{self.unrated}")
        return "/".join(parts)


def parse_code(code: str) -> TiebreakSpec:
    """`"bh/c1"` → TiebreakSpec("BH", cut_low=1); raises UnknownTiebreak on a bad modifier."""
    base, *mods = code.strip().upper().split("/")
    if not base:
        raise UnknownTiebreak(code)
    cut_low = cut_high = 0
    dashed = _DASHED_CUT.match(base)  # OpenGotha writes SOSM-1, SOSW-2
    if dashed is not None:
        base, cut_low = dashed["base"], int(dashed["cut"])
    unrated: int | None = None
    limit: int | None = None
    for mod in mods:
        m = _MODIFIER.match(mod)
        if m is None:
            raise UnknownTiebreak(code)
        value = int(m["value"])
        match m["kind"]:
            case "C":
                cut_low = value
            case "M":
                cut_low = cut_high = value
            case "U":
                unrated = value
            case _:
                limit = value
    return TiebreakSpec(base, cut_low, cut_high, unrated, limit)
