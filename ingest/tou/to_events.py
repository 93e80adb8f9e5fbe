"""FFG ``.tou`` file → the events of a go tournament (see ``ingest.go_table``).

The ``;key=value`` header lines and comments are kept in the ``TournamentCreated`` metadata as
``tou_head``; the FFG licence becomes the player's ``ffg`` id.
"""

from __future__ import annotations

from pathlib import Path

from ingest.conversion import Conversion
from ingest.go_table.to_events import GoRow, go_table_to_events
from ingest.tou.records import TouComment, TouFile, TouHeader

__all__ = ["tou_to_events"]


def tou_to_events(table: TouFile) -> Conversion:
    """The stream of a parsed .tou file.

    :raises IngestError: the file has rejected lines or inconsistent cells (the first one).
    """
    table.raise_first_error()
    rows = [
        GoRow(
            number=p.number,
            surname=p.surname,
            first_name=p.first_name,
            rank=p.level,
            country=None,
            club=p.club,
            cells=p.results,
            line=p.line,
            ids={"ffg": p.licence} if p.licence else {},
        )
        for p in table.players
    ]
    day = table.date
    conversion = go_table_to_events(
        rows,
        table.rounds,
        name=(table.header("name") or "").strip() or Path(table.path).stem,
        start=day,
        end=day,
        city=(table.header("vill") or "").strip() or None,
        komi=table.komi,
    )
    head: list[list[str]] = []
    for entry in table.entries:
        if isinstance(entry, TouHeader):
            head.append([entry.key, entry.value])
        elif isinstance(entry, TouComment):
            head.append(["", entry.text])
    conversion.metadata[0] = {"tou_head": head}
    conversion.warnings.extend(table.warnings)
    return conversion
