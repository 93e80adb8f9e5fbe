"""Federation files from the event log: a tournament stream → the writers' typed records.

Each format's writer (``projections.exports.<format>``) rebuilds the format's records from the
tournament state (who played whom, results, byes) and the source details an import kept in
the events' metadata, then renders them. A tournament run live in arbiter has no such metadata
and gets the format's usual layout.
"""

from __future__ import annotations

import codecs
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from events.domain import Game
from events.errors import UserError
from events.schema import TournamentCreated
from events.store import RecordedEvent
from events.text import clean_text
from ingest.detect import FileFormat
from projections.exports.elo import elo_from_log, elo_losses, write_elo
from projections.exports.h9 import H9_ENCODING, h9_from_log, write_h9
from projections.exports.opengotha import dump_opengotha, opengotha_from_log, opengotha_losses
from projections.exports.tou import tou_from_log, write_tou
from projections.exports.trf import trf_from_log, write_trf

__all__ = ["export_losses", "export_tournament"]


FORMAT_GAMES: dict[FileFormat, Game] = {
    FileFormat.TRF: Game.CHESS,
    FileFormat.H9: Game.GO,
    FileFormat.TOU: Game.GO,
    FileFormat.OPENGOTHA: Game.GO,
    FileFormat.ELO: Game.OTHELLO,
}
"""The game each federation file is made for."""


_RISKY = re.compile(r"\\[bfnrt]|\\u00[01][0-9a-fA-F]|\\u007[fF]|[\x7f-\x9f\u2028\u2029]")
"""JSON text that may hold a control character (as an escape, or raw where JSON allows)."""


def _clean(value: Any) -> Any:
    if isinstance(value, str):
        return clean_text(value)
    if isinstance(value, dict):
        return {clean_text(k): _clean(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_clean(v) for v in value]
    return value


def _clean_json(text: str) -> str:
    if not _RISKY.search(text):
        return text
    return json.dumps(_clean(json.loads(text)), ensure_ascii=False, sort_keys=True)


def without_controls(events: Sequence[RecordedEvent]) -> list[RecordedEvent]:
    """The stream with every text of its payloads and metadata on one line
    (:func:`events.text.clean_text`): a name stored with a newline (before the entry checks,
    or by another client of the store) cannot add a player line to a TRF, h9 or .ELO file."""
    return [
        replace(e, payload=_clean_json(e.payload), metadata=_clean_json(e.metadata)) for e in events
    ]


def export_tournament(
    events: Sequence[RecordedEvent],
    fmt: FileFormat,
    sets: Mapping[str, Any] | None = None,
    encoding: str | None = None,
) -> bytes:
    """The encoded file of a tournament stream in ``fmt``; texts made one-line first.
    ``sets``: OpenGotha's parameter sets of a go event's engine (`opengotha_from_log`).

    ``encoding`` (h9 only) replaces the format's default.

    :raises UserError: a format made for another game (a chess event as h9 ...), an encoding
        asked for another format, unknown, or unable to hold a name.
    """
    if encoding is not None:
        if fmt is not FileFormat.H9:
            raise UserError(f"--encoding: only h9 files take an encoding, not {fmt.value}")
        try:
            codecs.lookup(encoding)
        except LookupError:
            raise UserError(f"--encoding: unknown encoding '{encoding}'") from None
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
    events = without_controls(events)
    match fmt:
        case FileFormat.ELO:
            # UTF-8: plain ASCII as the WOF asks whenever the text is ASCII, and no letters
            # lost otherwise (names in kana or with accents); the archive itself holds UTF-8
            # files, and Papp reads them.
            return write_elo(elo_from_log(events), ascii_only=False)
        case FileFormat.H9:
            return write_h9(h9_from_log(events), encoding or H9_ENCODING)
        case FileFormat.TOU:
            return write_tou(tou_from_log(events))
        case FileFormat.TRF:
            return write_trf(trf_from_log(events)).encode("utf-8")
        case FileFormat.OPENGOTHA:
            return dump_opengotha(opengotha_from_log(events, sets))


def export_losses(events: Sequence[RecordedEvent], fmt: FileFormat) -> list[str]:
    """What the file in ``fmt`` cannot hold of the stream, one warning line each."""
    if fmt is FileFormat.OPENGOTHA:
        return opengotha_losses(events)
    if fmt is FileFormat.ELO:
        return elo_losses(events)
    return []
