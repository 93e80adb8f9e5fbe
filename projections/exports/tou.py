"""Writer for the French federation's ``.tou`` files (formats.md §4), ISO-8859-15.

Layout as OpenGotha's ``generateTouFile``: number (4), name (25), level (3), licence (7,
``-------`` when none), club (4), then 8-character result fields without ``/`` or ``!``.
"""

from __future__ import annotations

from ingest.tou import TouComment, TouEntry, TouFile, TouHeader, TouPlayer, tou_cell

__all__ = ["TOU_ENCODING", "render_tou", "write_tou"]

TOU_ENCODING = "iso-8859-15"


def _player(player: TouPlayer) -> str:
    name = " ".join(player.name)
    licence = player.licence or "-------"
    text = f"{player.number:>4} {name:<25}"
    if len(name) >= 25:
        text += " "
    text += f"{player.level:>3} {licence} {player.club:<4}"
    text += "".join(f" {tou_cell(cell):>7}" for cell in player.results)
    return text.rstrip()


def _entry(entry: TouEntry) -> str:
    if isinstance(entry, TouPlayer):
        return _player(entry)
    if isinstance(entry, TouHeader):
        return f";{entry.key}={entry.value}"
    assert isinstance(entry, TouComment)
    return entry.text


def render_tou(table: TouFile) -> str:
    """The file as text with LF line endings."""
    return "".join(_entry(entry) + "\n" for entry in table.entries)


def write_tou(table: TouFile, encoding: str = TOU_ENCODING) -> bytes:
    """Encoded file contents; characters outside ``encoding`` become ``?``."""
    return render_tou(table).encode(encoding, errors="replace")
