"""EGD table (h9) → the events of a go tournament (see ``ingest.go_table``).

The header tags (``EV``, ``DT``, ``PC``, ``KM``, ``HA``, ...) and comment lines are kept in
the ``TournamentCreated`` metadata as ``h9_head`` so an export writes them back; the EGD PIN
becomes the player's ``egd_pin`` id.
"""

from __future__ import annotations

from pathlib import Path

from ingest.conversion import Conversion
from ingest.go_table.to_events import GoRow, go_table_to_events
from ingest.h9.records import H9Comment, H9File, H9Tag

__all__ = ["h9_to_events"]


def _city(place: str | None) -> str | None:
    """``PC[FR, Paris]``: the part after the country code."""
    if not place:
        return None
    _, _, city = place.partition(",")
    return city.strip() or None


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
            ids={"egd_pin": p.pin} if p.pin else {},
        )
        for p in table.players
    ]
    dates = table.dates
    conversion = go_table_to_events(
        rows,
        table.rounds,
        name=(table.tag("EV") or "").strip() or Path(table.path).stem,
        start=dates[0] if dates else None,
        end=dates[1] if dates else None,
        city=_city(table.tag("PC")),
        komi=table.komi,
    )
    head: list[list[str]] = []
    for entry in table.entries:
        if isinstance(entry, H9Tag):
            head.append([entry.key, entry.value])
        elif isinstance(entry, H9Comment):
            head.append(["", entry.text])
        else:
            break
    conversion.metadata[0] = {"h9_head": head}
    conversion.warnings.extend(table.warnings)
    return conversion
