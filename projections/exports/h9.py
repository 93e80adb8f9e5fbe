"""Writer for EGF/EGD tournament tables (``.h9``, formats.md §3).

`h9_from_log` rebuilds the table (``ingest.h9.records``) from a go tournament stream, header
tags and comments from the import's metadata, else from the tournament's name, dates and komi.
Columns follow OpenGotha's fixed widths (place 4, name 30, rank 3, country 2, club 4,
criteria 4 each, results 8 each), the PIN as ``|12345678``; ISO-8859-15 like OpenGotha.
"""

from __future__ import annotations

from collections.abc import Sequence

from events.store import RecordedEvent
from ingest.h9.records import H9Comment, H9Entry, H9File, H9Player, H9Tag
from projections.exports.go_table import go_cells, name_tokens
from projections.exports.log_view import view_of

__all__ = ["H9_ENCODING", "h9_from_log", "render_h9", "write_h9"]

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


def h9_from_log(events: Sequence[RecordedEvent]) -> H9File:
    view = view_of(events)
    settings = view.state.settings
    players = view.players()
    rows = {p.id: i for i, p in enumerate(players, start=1)}
    entries: list[H9Entry] = []
    head = view.created_meta.get("h9_head")
    if head is None:
        entries.append(H9Tag("EV", settings.name))
        if settings.city or settings.federation:
            country, city = settings.federation or "", settings.city or ""
            entries.append(H9Tag("PC", f"{country}, {city}" if country else f",{city}"))
        if settings.start_date is not None:
            end = settings.end_date or settings.start_date
            entries.append(H9Tag("DT", f"{settings.start_date},{end}"))
        komi = next((b.komi for r in view.state.rounds.values() for b in r.boards), None)
        if komi is not None:
            entries.append(H9Tag("KM", f"{komi:g}"))
    else:
        entries.extend(H9Tag(k, v) if k else H9Comment(v) for k, v in head)
    for p in players:
        entries.append(
            H9Player(
                number=rows[p.id],
                place=None,
                name=name_tokens(p.name),
                rank=p.rank or "20k",
                country=p.federation or "XX",
                club=p.club or "xxxx",
                criteria=(),
                results=go_cells(view, p, rows),
                pin=p.ids.get("egd_pin"),
            )
        )
    return H9File.model_construct(path="", entries=tuple(entries), rounds=view.state.total_rounds)
