"""EGD table (h9) → the events of a go tournament (see ``ingest.go_table``).

The header tags (``EV``, ``DT``, ``PC``, ``KM``, ``HA``, ...) and comment lines are kept in
the ``TournamentCreated`` metadata as ``h9_head`` so an export writes them back; the EGD PIN
becomes the player's ``egd_pin`` id. The column caption gives the placement criteria and with
them the system (``MMS`` first: Mac-Mahon, ``NBW``: Swiss), the system line the Mac-Mahon bar
and floor, the players' notes their pairing byes and withdrawals (``ingest.h9.placement``); a
table without a caption that names its columns stays ``imported``.
"""

from __future__ import annotations

from pathlib import Path

from events.domain import System
from events.params import GoSettings, PairingParams
from events.schema import TournamentCreated
from ingest.conversion import Conversion
from ingest.go_table.to_events import GoRow, go_table_to_events
from ingest.h9.placement import SystemLine, criteria_codes, parse_notes, parse_system
from ingest.h9.records import H9Comment, H9File, H9Tag

__all__ = ["h9_to_events"]


def _city(place: str | None) -> str | None:
    """``PC[FR, Paris]``: the part after the country code."""
    if not place:
        return None
    _, _, city = place.partition(",")
    return city.strip() or None


def _country(place: str | None) -> str | None:
    """``PC[FR, Paris]``: the country code (OpenGotha leaves it empty: ``PC[,Paris]``)."""
    country, comma, _ = (place or "").partition(",")
    return country.strip() or None if comma else None


def h9_to_events(table: H9File) -> Conversion:
    """The stream of a parsed h9 table.

    :raises IngestError: the table has rejected lines or inconsistent cells (the first one).
    """
    table.raise_first_error()
    rows = [
        GoRow(
            number=p.number,
            surname=p.surname,
            first_name=p.first_name,
            rank=p.rank,
            country=p.country,
            club=p.club,
            cells=p.results,
            line=p.line,
            ids={"egd_pin": p.pin} if p.pin else {},
        )
        for p in table.players
    ]
    notes = {p.number: parse_notes(p.comment) for p in table.players}
    dates = table.dates
    conversion = go_table_to_events(
        rows,
        table.rounds,
        name=(table.tag("EV") or "").strip() or Path(table.path).stem,
        start=dates[0] if dates else None,
        end=dates[1] if dates else None,
        city=_city(table.tag("PC")),
        komi=table.komi,
        pairing_byes=frozenset((r, n) for n, x in notes.items() for r in x.pairing_byes),
        zero_byes=frozenset((r, n) for n, x in notes.items() for r in x.zero_byes),
        withdrawals={n: x.withdrawn_from for n, x in notes.items() if x.withdrawn_from},
    )
    created = conversion.events[0]
    assert isinstance(created, TournamentCreated)
    created = created.model_copy(update={"federation": _country(table.tag("PC"))})
    conversion.events[0] = _placed(created, table)
    head: list[list[str]] = []
    for entry in table.entries:
        if isinstance(entry, H9Tag):
            head.append([entry.key, entry.value])
        elif isinstance(entry, H9Comment):
            head.append(["", entry.text])
        else:
            break
    conversion.metadata[0] = {"h9_head": head}
    for index, p in enumerate(table.players, start=1):
        # What the writer gives back while the table is unchanged: the file's own columns.
        kept = {
            "place": p.place,
            "criteria": list(p.criteria),
            "after": list(p.after),
            "comment": p.comment,
        }
        conversion.metadata[index] = {"h9": kept}
    conversion.warnings.extend(table.warnings)
    return conversion


def _placed(created: TournamentCreated, table: H9File) -> TournamentCreated:
    """The tournament with the system and criteria the table's caption and system line give."""
    head = [e.text for e in table.entries if isinstance(e, H9Comment)]
    columns = max((len(p.criteria) for p in table.players), default=0)
    codes = next((c for c in (criteria_codes(t, columns) for t in head) if c), None)
    if codes is None or codes[0] not in {"MMS", "NBW"}:
        return created
    line = next((s for s in map(parse_system, head) if s is not None), None)
    if line is None:
        line = SystemLine(macmahon=codes[0] == "MMS")
    go = GoSettings(komi=table.komi, mm_bar=line.bar, mm_floor=line.floor)
    return created.model_copy(
        update={
            "system": System.MACMAHON if line.macmahon else System.SWISS,
            "tiebreaks": codes,
            "pairing_params": PairingParams(go=go),
        }
    )
