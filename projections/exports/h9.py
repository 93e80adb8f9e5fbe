"""Writer for EGF/EGD tournament tables (``.h9``, formats.md §3).

Columns follow OpenGotha's fixed widths (place 4, name 30, rank 3, country 2, club 4,
criteria 4 each, results 8 each), the PIN as ``|12345678``; ISO-8859-15 like OpenGotha.
"""

from __future__ import annotations

from ingest.h9 import H9Comment, H9Entry, H9File, H9Player, H9Tag

__all__ = ["H9_ENCODING", "render_h9", "write_h9"]

H9_ENCODING = "iso-8859-15"


def _player(player: H9Player) -> str:
    place = "" if player.place is None else str(player.place)
    parts = [f"{place:>4} {' '.join(player.name):<30} {player.rank:>3} {player.country:<2}"]
    parts.append(f"{player.club:<4}")
    parts.extend(f"{value:>4}" for value in player.criteria)
    parts.append(" ".join(f"{cell.h9():>8}" for cell in player.results))
    parts.extend(f"{value:>4}" for value in player.after)
    if player.pin is not None:
        parts.append(f"|{player.pin}")
    if player.comment:
        parts.append(f"; {player.comment}")
    return " ".join(parts).rstrip()


def _entry(entry: H9Entry) -> str:
    if isinstance(entry, H9Player):
        return _player(entry)
    if isinstance(entry, H9Tag):
        return f"; {entry.key}[{entry.value}]"
    assert isinstance(entry, H9Comment)
    return entry.text


def render_h9(table: H9File) -> str:
    """The table as text with LF line endings."""
    return "".join(_entry(entry) + "\n" for entry in table.entries)


def write_h9(table: H9File, encoding: str = H9_ENCODING) -> bytes:
    """Encoded file contents; characters outside ``encoding`` become ``?``."""
    return render_h9(table).encode(encoding, errors="replace")
