"""Federation files from the event log: a tournament stream → the writers' typed records.

Each format's writer (``projections.exports.<format>``) rebuilds the format's records from the
tournament state (who played whom, results, byes) and the source details an import kept in
the events' metadata, then renders them. A tournament run live in arbiter has no such metadata
and gets the format's usual layout.
"""

from __future__ import annotations

from collections.abc import Sequence

from events.domain import Game
from events.errors import UserError
from events.schema import TournamentCreated
from events.store import RecordedEvent
from ingest.detect import FileFormat
from projections.exports.elo import elo_from_log, write_elo
from projections.exports.h9 import h9_from_log, write_h9
from projections.exports.opengotha import dump_opengotha, opengotha_from_log
from projections.exports.tou import tou_from_log, write_tou
from projections.exports.trf import trf_from_log, write_trf

__all__ = ["export_tournament"]


FORMAT_GAMES: dict[FileFormat, Game] = {
    FileFormat.TRF: Game.CHESS,
    FileFormat.H9: Game.GO,
    FileFormat.TOU: Game.GO,
    FileFormat.OPENGOTHA: Game.GO,
    FileFormat.ELO: Game.OTHELLO,
}
"""The game each federation file is made for."""


def export_tournament(events: Sequence[RecordedEvent], fmt: FileFormat) -> bytes:
    """The encoded file of a tournament stream in ``fmt``.

    :raises UserError: a format made for another game (a chess event as h9 ...).
    """
    created = events[0].event if events else None
    made_for = FORMAT_GAMES.get(fmt)
    if isinstance(created, TournamentCreated) and made_for not in (None, created.game):
        assert made_for is not None
        fits = ", ".join(f.value for f, g in FORMAT_GAMES.items() if g is created.game)
        raise UserError(
            f"--format {fmt.value}: a {created.game.value} event cannot be written as "
            f"{fmt.value}, which is for {made_for.value} (a {created.game.value} event "
            f"exports as {fits or 'none of these'})"
        )
    match fmt:
        case FileFormat.ELO:
            # UTF-8: plain ASCII as the WOF asks whenever the text is ASCII, and no letters
            # lost otherwise (names in kana or with accents); the archive itself holds UTF-8
            # files, and Papp reads them.
            return write_elo(elo_from_log(events), ascii_only=False)
        case FileFormat.H9:
            return write_h9(h9_from_log(events))
        case FileFormat.TOU:
            return write_tou(tou_from_log(events))
        case FileFormat.TRF:
            return write_trf(trf_from_log(events)).encode("utf-8")
        case FileFormat.OPENGOTHA:
            return dump_opengotha(opengotha_from_log(events))
