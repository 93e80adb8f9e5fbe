"""Writer for the French federation's ``.tou`` files (formats.md §4), ISO-8859-15.

`tou_from_log` rebuilds the table (``ingest.tou.records``) from a go tournament stream, header
lines from the import's metadata, else from the tournament's name and date. Layout as
OpenGotha's ``generateTouFile``: number (4), name (25), level (3), licence (7, ``-------`` when
none), club (4), then 8-character result fields without ``/`` or ``!``.
"""

from __future__ import annotations

from collections.abc import Sequence

from events.store import RecordedEvent
from ingest.tou.records import TouComment, TouEntry, TouFile, TouHeader, TouPlayer, tou_cell
from projections.exports.go_table import go_cells, name_tokens
from projections.exports.log_view import view_of

__all__ = ["TOU_ENCODING", "render_tou", "tou_from_log", "write_tou"]

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


def tou_from_log(events: Sequence[RecordedEvent]) -> TouFile:
    view = view_of(events)
    settings = view.state.settings
    players = view.players()
    rows = {p.id: p.pairing_number or i for i, p in enumerate(players, start=1)}
    entries: list[TouEntry] = []
    head = view.created_meta.get("tou_head")
    if head is None:
        entries.append(TouHeader("name", settings.name))
        if settings.start_date is not None:
            entries.append(TouHeader("date", f"{settings.start_date:%d/%m/%Y}"))
        if settings.city:
            entries.append(TouHeader("vill", settings.city))
    else:
        entries.extend(TouHeader(k, v) if k else TouComment(v) for k, v in head)
    entries.extend(
        TouPlayer(
            rows[p.id],
            name_tokens(p.name),
            p.rank or "20K",
            p.ids.get("ffg"),
            p.club or "xxxx",
            go_cells(view, p, rows),
        )
        for p in players
    )
    return TouFile.model_construct(path="", entries=tuple(entries), rounds=view.state.total_rounds)
