"""Writer for EGF/EGD tournament tables (``.h9``, formats.md §3).

`h9_from_log` rebuilds the table (``ingest.h9.records``) from a go tournament stream. A live
event gets the EGD's header tags (``EV``, ``PC``, ``DT``, ``HA``, ``KM``, ``CM``), the system
line and the column caption (``ingest.h9.placement``), its players in place order with their
place numbers and the values of the event's placement criteria, and the notes that tell a
pairing bye from a requested one and a withdrawal. A table imported from an h9 file and not
changed since gets its own header, order, places and columns back. Columns follow OpenGotha's
fixed widths (place 4, name 30, rank 3, country 2, club 4, criteria 4 each, results 8 each),
the PIN as ``|12345678``. UTF-8 unless another encoding is asked for (`write_h9`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from events.domain import ByeKind, System
from events.errors import UserError
from events.store import RecordedEvent
from ingest.h9.placement import PlayerNotes, SystemLine, caption
from ingest.h9.records import H9Comment, H9Entry, H9File, H9Player, H9Tag
from projections.exports.go_table import go_cells, name_tokens
from projections.exports.log_view import LogView, view_of
from projections.standings import StandingRow, standings

__all__ = ["H9_ENCODING", "H9EncodingError", "h9_from_log", "render_h9", "write_h9"]

H9_ENCODING = "utf-8"


class H9EncodingError(UserError):
    """A text of the table that the asked encoding cannot hold."""


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


def write_h9(table: H9File, encoding: str = H9_ENCODING, *, replace: bool = False) -> bytes:
    """Encoded file contents.

    :raises H9EncodingError: a line holds a character ``encoding`` cannot (unless ``replace``,
        which writes ``?`` for it).
    """
    if replace:
        return render_h9(table).encode(encoding, errors="replace")
    lines = [_entry(entry) for entry in table.entries]
    for number, (entry, line) in enumerate(zip(table.entries, lines, strict=True), start=1):
        try:
            line.encode(encoding)
        except UnicodeEncodeError as exc:
            what = f"player {' '.join(entry.name)}" if isinstance(entry, H9Player) else "header"
            raise H9EncodingError(
                f"h9 line {number} ({what}): {encoding} cannot hold {line[exc.start]!r}; "
                "write the file in UTF-8 (the default)"
            ) from None
    return "".join(line + "\n" for line in lines).encode(encoding)


def _value(value: float | None) -> str:
    return "0" if value is None else f"{value:g}"


def _head(view: LogView, codes: tuple[str, ...]) -> list[H9Entry]:
    """The EGD's header tags, the system line and the caption of a live event."""
    settings = view.state.settings
    entries: list[H9Entry] = [H9Tag("EV", settings.name)]
    if settings.city or settings.federation:
        country, city = settings.federation or "", settings.city or ""
        entries.append(H9Tag("PC", f"{country}, {city}" if country else f",{city}"))
    if settings.start_date is not None:
        end = settings.end_date or settings.start_date
        entries.append(H9Tag("DT", f"{settings.start_date},{end}"))
    go = settings.pairing_params.go
    macmahon = view.state.system is System.MACMAHON
    correction = go.opengotha.get("handicap_correction", 1) if macmahon else 9
    entries.append(H9Tag("HA", f"h{correction}"))
    boards = [b for r in view.state.rounds.values() for b in r.boards if b.black is not None]
    # KM is the komi of even games; a handicap game's komi is the rules' (0.5).
    komi = next((b.komi for b in boards if b.komi is not None and not b.handicap), go.komi)
    if komi is not None:
        entries.append(H9Tag("KM", f"{komi:g}"))
    if settings.time_control:
        entries.append(H9Tag("CM", settings.time_control))
    # An imported table changed since: its other tags (TC, CL, TM, CM ...) stay.
    written = {e.key for e in entries if isinstance(e, H9Tag)}
    kept = view.created_meta.get("h9_head") or []
    entries.extend(H9Tag(k, v) for k, v in kept if k and k not in written)
    if view.state.system in (System.MACMAHON, System.SWISS):
        entries.append(H9Comment(SystemLine(macmahon, go.mm_bar, go.mm_floor).line()))
    entries.append(H9Comment("; Generated by arbiter"))
    entries.append(H9Comment(";"))
    entries.append(H9Comment(caption(codes)))
    return entries


def _notes(view: LogView, player: int) -> PlayerNotes:
    state = view.state
    pairing = frozenset(
        r
        for r, rnd in state.rounds.items()
        if (b := rnd.by_player.get(player)) is not None and b.black is None
    )
    zero = frozenset(r for r, byes in state.byes.items() if byes.get(player) is ByeKind.ZERO)
    return PlayerNotes(pairing, zero, state.players[player].withdrawn_from)


def _live(view: LogView) -> H9File:
    state = view.state
    codes = tuple(state.tiebreaks)
    rows: list[StandingRow] = standings(state)
    lines = {row.player: i for i, row in enumerate(rows, start=1)}
    entries = _head(view, codes)
    for i, row in enumerate(rows, start=1):
        p = state.players[row.player]
        entries.append(
            H9Player(
                number=i,
                place=row.rank if row.rank == i else None,
                name=name_tokens(p.name),
                rank=p.rank or "20k",
                country=p.federation or "XX",
                club=p.club or "xxxx",
                criteria=tuple(_value(row.tiebreaks.get(code)) for code in codes),
                results=go_cells(view, p, lines),
                pin=p.ids.get("egd_pin"),
                comment=_notes(view, p.id).text(),
            )
        )
    return H9File.model_construct(path="", entries=tuple(entries), rounds=state.total_rounds)


def _imported(view: LogView, head: list[list[str]]) -> H9File:
    """A table as its file gave it: header, line order, places and columns, cells from the log."""
    players = view.players()
    lines = {p.id: i for i, p in enumerate(players, start=1)}
    entries: list[H9Entry] = [H9Tag(k, v) if k else H9Comment(v) for k, v in head]
    for p in players:
        kept: dict[str, Any] = view.player_meta[p.id]["h9"]
        entries.append(
            H9Player(
                number=lines[p.id],
                place=kept["place"],
                name=name_tokens(p.name),
                rank=p.rank or "20k",
                country=p.federation or "XX",
                club=p.club or "xxxx",
                criteria=tuple(kept["criteria"]),
                results=go_cells(view, p, lines),
                after=tuple(kept["after"]),
                pin=p.ids.get("egd_pin"),
                comment=kept["comment"],
            )
        )
    return H9File.model_construct(path="", entries=tuple(entries), rounds=view.state.total_rounds)


def h9_from_log(events: Sequence[RecordedEvent]) -> H9File:
    view = view_of(events)
    head = view.created_meta.get("h9_head")
    source = view.created_meta.get("sha256")
    unchanged = source is not None and all(e.meta.get("sha256") == source for e in events)
    kept = all("h9" in view.player_meta.get(p, {}) for p in view.state.players)
    if head is not None and unchanged and kept:
        return _imported(view, head)
    return _live(view)
