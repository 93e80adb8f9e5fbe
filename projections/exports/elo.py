"""Writer for World Othello Federation result files (``.ELO``, formats.md §7).

Output follows Papp's layout: the four ``%%`` header lines, a blank line, then the entries
in order. Player lines are ``%_% [+]ID, fields...``; games with discs use Papp's
``%6ld (%02d)%c(%02d) %6ld B`` form, games without discs the old ``ID > ID`` form.
"""

from __future__ import annotations

import unicodedata

from ingest.elo import (
    HEADER_KEYS,
    UNKNOWN_ID,
    EloComment,
    EloEntry,
    EloFile,
    EloGame,
    EloHeader,
    EloPlayer,
)

__all__ = ["elo_file_name", "render_elo", "to_ascii", "write_elo"]


def to_ascii(text: str) -> str:
    """Plain ASCII: accents dropped (``WÅHLBERG`` → ``WAHLBERG``), other letters as ``?``.

    >>> to_ascii("Wåhlberg Ørsted")
    'Wahlberg ?rsted'
    """
    if text.isascii():
        return text
    decomposed = unicodedata.normalize("NFKD", text)
    stripped = "".join(c for c in decomposed if not unicodedata.combining(c))
    return stripped.encode("ascii", "replace").decode("ascii")


def elo_file_name(elo: EloFile) -> str:
    """``YYYYMMDD[a-z]_NAME.ELO`` for the file's start date, letter and name."""
    return f"{elo.start:%Y%m%d}{elo.letter}_{elo.name}.ELO"


def _id(wof_id: int | None) -> str:
    return UNKNOWN_ID if wof_id is None else str(wof_id)


def _player(player: EloPlayer) -> str:
    mark = "+" if player.new else " "
    text = f"%_% {mark}{_id(player.wof_id):>6}, " + ", ".join(player.fields)
    if player.comment:
        text += f" %{player.comment}"
    return text


def _game(game: EloGame) -> str:
    first = f"{_id(game.first):>6}"
    second = f"{_id(game.second):>6}"
    glyph = game.outcome.value
    if game.first_discs is not None and game.second_discs is not None:
        text = f"{first} ({game.first_discs:02d}){glyph}({game.second_discs:02d}) {second}"
    else:
        text = f"{first} {glyph} {second}"
    if game.first_colour is not None:
        text += f" {game.first_colour.value}"
    if game.comment:
        text += f" %{game.comment}"
    return text


def _entry(entry: EloEntry) -> str:
    if isinstance(entry, EloPlayer):
        return _player(entry)
    if isinstance(entry, EloGame):
        return _game(entry)
    return entry.text


def _header_values(header: EloHeader) -> tuple[str, ...]:
    return (header.tournament, header.country, header.date, header.sender)


def render_elo(elo: EloFile) -> str:
    """The file as text, LF line endings, a blank line after the header."""
    lines = [
        f"%%{key}: {value}"
        for key, value in zip(HEADER_KEYS, _header_values(elo.header), strict=True)
    ]
    lines.append("")
    previous: EloEntry | None = None
    for entry in elo.entries:
        # A blank line before each comment that follows data keeps rounds readable.
        if isinstance(entry, EloComment) and not isinstance(previous, EloComment | None):
            lines.append("")
        lines.append(_entry(entry))
        previous = entry
    return "\n".join(lines) + "\n"


def write_elo(elo: EloFile, *, ascii_only: bool = True) -> bytes:
    """Encoded file contents: plain ASCII by default (what the WOF expects), else UTF-8."""
    text = render_elo(elo)
    if ascii_only:
        return to_ascii(text).encode("ascii")
    return text.encode("utf-8")
