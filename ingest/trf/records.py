"""FIDE Tournament Report File records: TRF16, TRF-2026 and the XX*/BB* extensions.

Layouts are in docs/formats.md section 1. A file is every record in file order, typed where
arbiter interprets it and verbatim where it does not (team records, column rulers,
national-rating lines). The reader (``ingest.trf.reader``) builds them, the writer
(``projections.exports.trf``) renders them back, so the writer can reproduce the file.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, NamedTuple, TypeVar

from events.domain import Colour
from events.history import Scoring
from events.result_codes import ResultCode
from ingest.errors import IngestWarning

__all__ = [
    "XXS_FIELDS",
    "XXS_WRITTEN",
    "AccelerationRecord",
    "BbRecord",
    "ByesRecord",
    "CommentRecord",
    "ForbiddenPairsRecord",
    "HeaderRecord",
    "InPlayRecord",
    "InitialColourRecord",
    "PlayerRecord",
    "RawRecord",
    "Record",
    "RoundEntry",
    "ScoringRecord",
    "TieBreakRecord",
    "TotalRoundsRecord",
    "TrfFile",
    "XxaRecord",
    "XxcRecord",
    "XxpRecord",
    "XxsRecord",
    "XxzRecord",
    "round_block_start",
]


def round_block_start(round_number: int) -> int:
    """0-based index of the first character of round ``round_number``'s block."""
    return 91 + 10 * (round_number - 1)


_RecordT = TypeVar("_RecordT", bound=type[tuple[Any, ...]])


def _record(cls: _RecordT) -> _RecordT:
    """A record class: a `NamedTuple` (immutable, typed, a tenth of a frozen dataclass's cost
    to define: start-up) compared and hashed as a dataclass would be: only with a record of
    its own class, and without its last field when that is ``line`` (where the record was in
    the file: two files that differ only by blank lines hold equal records)."""
    names: tuple[str, ...] = getattr(cls, "_fields")  # noqa: B009 - a NamedTuple's, untyped here
    end = len(names) - 1 if names[-1] == "line" else len(names)

    def __eq__(self: tuple[Any, ...], other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self[:end] == other[:end]

    def __ne__(self: tuple[Any, ...], other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self[:end] != other[:end]

    def __hash__(self: tuple[Any, ...]) -> int:
        return hash(self[:end])

    cls.__eq__ = __eq__  # type: ignore[method-assign]
    cls.__ne__ = __ne__  # type: ignore[assignment,method-assign]
    cls.__hash__ = __hash__  # type: ignore[method-assign]
    return cls


@_record
class RoundEntry(NamedTuple):
    """One round block of a player record."""

    opponent: int | None
    """Opponent's pairing number; ``None`` for ``0000`` or blanks."""
    colour: Colour
    result: ResultCode


@_record
class PlayerRecord(NamedTuple):
    """A ``001`` player record."""

    number: int
    sex: str
    title: str
    name: str
    rating: int | None
    federation: str
    fide_id: str
    birth_date: str
    points: Decimal | None
    rank: int | None
    rounds: tuple[RoundEntry, ...]
    line: int = 0


@_record
class HeaderRecord(NamedTuple):
    """A free-text header record (``012``, ``092``, ``132``, ...): code and verbatim text."""

    code: str
    text: str
    line: int = 0


@_record
class TotalRoundsRecord(NamedTuple):
    """``142 n`` (TRF-2026) or ``XXR n`` (JaVaFo)."""

    code: str
    rounds: int
    line: int = 0


@_record
class InitialColourRecord(NamedTuple):
    """``152 W|B``: the colour of the top player in round 1."""

    colour: Colour
    line: int = 0


@_record
class XxcRecord(NamedTuple):
    """``XXC [rank] [white1|black1]``."""

    tokens: tuple[str, ...]
    line: int = 0

    @property
    def colour(self) -> Colour | None:
        """The initial colour it sets, if any."""
        if "white1" in self.tokens:
            return Colour.WHITE
        if "black1" in self.tokens:
            return Colour.BLACK
        return None


@_record
class ScoringRecord(NamedTuple):
    """``162``: scoring codes (``W D L A P X``) with their values, in file order."""

    values: tuple[tuple[str, Decimal], ...]
    line: int = 0


@_record
class TieBreakRecord(NamedTuple):
    """``202`` (tie-breaks) or ``212`` (standings definition): the comma-separated chain."""

    code: str
    chain: tuple[str, ...]
    line: int = 0


@_record
class ByesRecord(NamedTuple):
    """``240``: requested byes of one round."""

    kind: str
    round: int
    players: tuple[int, ...]
    line: int = 0


@_record
class AccelerationRecord(NamedTuple):
    """``250``: fictitious points for a range of rounds and players."""

    match_points: Decimal | None
    game_points: Decimal
    first_round: int
    last_round: int
    first_player: int
    last_player: int
    line: int = 0


@_record
class ForbiddenPairsRecord(NamedTuple):
    """``260``: players who must not meet each other in a range of rounds."""

    first_round: int
    last_round: int
    players: tuple[int, ...]
    line: int = 0


@_record
class XxaRecord(NamedTuple):
    """``XXA``: a player's fictitious (acceleration) points per round."""

    player: int
    points: tuple[Decimal, ...]
    line: int = 0


@_record
class XxpRecord(NamedTuple):
    """``XXP``: players who must not meet each other."""

    players: tuple[int, ...]
    line: int = 0


@_record
class XxsRecord(NamedTuple):
    """``XXS CODE=VALUE ...``: JaVaFo scoring (`XXS_FIELDS` says what each code values)."""

    values: tuple[tuple[str, Decimal], ...]
    line: int = 0


XXS_FIELDS: dict[str, str] = {
    "W": "win",
    "WW": "win",
    "D": "draw",
    "WD": "draw",
    "WL": "loss",
    "ZPB": "zero_bye",
    "HPB": "half_bye",
    "FPB": "full_bye",
    "PAB": "pairing_bye",
    "FW": "forfeit_win",
    "FL": "forfeit_loss",
}
"""JaVaFo's XXS codes → the `events.scoring.Scoring` field each one values; the
colour-specific codes (``WW``, ``WD``) read as the white value."""
XXS_WRITTEN = ("W", "D", "WL", "ZPB", "HPB", "FPB", "PAB", "FW", "FL")
"""The codes a writer uses: one per `Scoring` field, so that nothing is lost."""


@_record
class XxzRecord(NamedTuple):
    """``XXZ``: players absent in the round to be paired (ignored by bbpPairings)."""

    players: tuple[int, ...]
    line: int = 0


@_record
class BbRecord(NamedTuple):
    """``BBW BBD BBL BBZ BBF BBU``: bbpPairings point values."""

    code: str
    value: Decimal
    line: int = 0


@_record
class InPlayRecord(NamedTuple):
    """``BRD`` (arbiter's record): one board of a round in play, paired, results not all in.

    TRF has no code for a paired game without a result: a blank result is a zero-point bye
    (TRF-2026 table of results) and bbpPairings refuses one with an opponent. So a file written
    while a round is in play stops its ``001`` round blocks before that round (keeping the
    round's requested byes and absences, as a file for pairing it would) and lists the round's
    boards here: round (cols 5-7), board (9-12), white (14-17), black (19-22, ``0000`` for the
    pairing-allocated bye), then white's and black's result codes once entered (24, 26). A
    reader that does not know the record reads the event as it stood before the round was
    paired; ``arbiter-pairings -c`` re-pairs the round and compares it with these boards.
    """

    round: int
    board: int
    white: int
    black: int | None
    white_result: ResultCode | None = None
    black_result: ResultCode | None = None
    line: int = 0


@_record
class CommentRecord(NamedTuple):
    """A TRF-2026 ``###`` comment line."""

    text: str
    line: int = 0


@_record
class RawRecord(NamedTuple):
    """A line kept verbatim: team records, ``299``, NRS lines, column rulers, unknown codes."""

    text: str
    line: int = 0

    @property
    def code(self) -> str:
        """The first three characters."""
        return self.text[:3]


Record = (
    PlayerRecord
    | HeaderRecord
    | TotalRoundsRecord
    | InitialColourRecord
    | XxcRecord
    | ScoringRecord
    | TieBreakRecord
    | ByesRecord
    | AccelerationRecord
    | ForbiddenPairsRecord
    | XxaRecord
    | XxpRecord
    | XxsRecord
    | XxzRecord
    | BbRecord
    | InPlayRecord
    | CommentRecord
    | RawRecord
)

_R = TypeVar("_R")

TEAM_CODES = frozenset({"013", "300", "310", "320", "330", "801", "802"})


@dataclass(frozen=True, slots=True)
class TrfFile:
    """A parsed TRF file: every record in file order, plus what the reader noticed."""

    records: tuple[Record, ...]
    path: str = field(default="<trf>", compare=False)
    encoding: str = field(default="utf-8", compare=False)
    warnings: tuple[IngestWarning, ...] = field(default=(), compare=False)

    def _of(self, kind: type[_R]) -> Iterator[_R]:
        return (r for r in self.records if isinstance(r, kind))

    @property
    def players(self) -> tuple[PlayerRecord, ...]:
        """The ``001`` records in file order."""
        return tuple(self._of(PlayerRecord))

    @property
    def total_rounds(self) -> int | None:
        """From ``142`` or ``XXR`` (the last one wins)."""
        found = [r.rounds for r in self._of(TotalRoundsRecord)]
        return found[-1] if found else None

    @property
    def initial_colour(self) -> Colour | None:
        """From ``152`` or ``XXC white1|black1``."""
        colour: Colour | None = None
        for record in self.records:
            found = record.colour if isinstance(record, InitialColourRecord | XxcRecord) else None
            if found is not None:
                colour = found
        return colour

    @property
    def scoring(self) -> dict[str, Decimal]:
        """Point values by bbpPairings' names (``W D L Z F U``) from ``162`` and ``BB*``."""
        values: dict[str, Decimal] = {}
        for record in self.records:
            if isinstance(record, ScoringRecord):
                for code, value in record.values:
                    # TRF-2026 codes: A (absence) covers zero-point bye and forfeit loss.
                    targets = {"A": ("Z", "F"), "P": ("U",)}.get(code, (code,))
                    for target in targets:
                        values[target] = value
            elif isinstance(record, BbRecord):
                values[record.code[2]] = record.value
        return values

    @property
    def board_scoring(self) -> Scoring:
        """The `scoring` values, bbpPairings' defaults for the others (1 / ½ / 0, the
        zero-point bye and the forfeit loss 0, the PAB a win)."""
        values = self.scoring
        win = values.get("W", Decimal(1))
        return Scoring(
            win=win,
            draw=values.get("D", Decimal("0.5")),
            loss=values.get("L", Decimal(0)),
            zero_bye=values.get("Z", Decimal(0)),
            forfeit_loss=values.get("F", Decimal(0)),
            pab=values.get("U", win),
        )

    @property
    def system(self) -> str | None:
        """The pairing system: ``192`` if present, else a recognised ``092`` text."""
        text = None
        for record in self._of(HeaderRecord):
            if record.code == "192" or (
                record.code == "092" and record.text.strip().startswith(("FIDE_", "CUSTOM_"))
            ):
                text = record.text.strip()
        return text

    def header(self, code: str) -> str | None:
        """The text of the last header record with ``code``."""
        found = [r.text for r in self._of(HeaderRecord) if r.code == code]
        return found[-1] if found else None
