"""What every converter (``ingest.<format>.to_events``) returns: a tournament's events, extras.

A converter turns one parsed file into the events a live tournament would have appended
(created, registrations, byes, rounds paired, results). What the event catalogue has no field
for but an export needs to rewrite the file (a header line, the column a player's country came
from) goes into the event's metadata, keyed by the event's index in the stream.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from events.schema import Event, PlayerRegistered, TournamentCreated
from ingest.errors import Accepted, IngestError, IngestWarning

__all__ = [
    "ID_SCHEMES",
    "Conversion",
    "PointsCheck",
    "check_points",
    "join_name",
    "split_name",
]

# PlayerRegistered.ids key -> registry scheme (stream `player-<scheme>-<id>`).
ID_SCHEMES: dict[str, str] = {"egd_pin": "egd", "wof": "wof", "ffg": "ffg", "aga": "aga"}


@dataclass(slots=True)
class Conversion:
    """A file as events. ``events[0]`` is the :class:`TournamentCreated`."""

    events: list[Event]
    metadata: dict[int, dict[str, Any]] = field(default_factory=dict)
    """Extra metadata of ``events[i]`` (merged into the stored row's metadata)."""
    warnings: list[IngestWarning] = field(default_factory=list)
    games: int = 0
    skipped: list[IngestError] = field(default_factory=list)
    """Result records left out (``--skip-bad-lines``), each with its place in the file."""
    lines: dict[int, int] = field(default_factory=dict)
    """Each player's record in the file, by his number (a refusal names it); empty when the
    format has no lines."""
    accepted: list[Accepted] = field(default_factory=list)
    """Records a lenient ingest took as written although a decider refuses them
    (`ingest.commands.decided`)."""

    @property
    def created(self) -> TournamentCreated:
        first = self.events[0]
        assert isinstance(first, TournamentCreated)
        return first

    @property
    def players(self) -> list[PlayerRegistered]:
        return [e for e in self.events if isinstance(e, PlayerRegistered)]


@dataclass(frozen=True, slots=True)
class PointsCheck:
    """A player whose points column disagrees with the results the file holds."""

    line: int
    column: int
    player: str
    stated: Decimal
    computed: Decimal


def check_points(path: str, checks: list[PointsCheck], *, strict: bool) -> list[IngestWarning]:
    """Warnings for inconsistent points columns, or the first as an error when strict.

    :raises IngestError: when ``strict`` and a stated total differs from the results.
    """
    warnings: list[IngestWarning] = []
    for c in checks:
        message = f"points of {c.player} differ from the sum of the results"
        if strict:
            raise IngestError(
                path, c.line, c.column, message, found=str(c.stated), expected=str(c.computed)
            )
        warnings.append(
            IngestWarning(path, c.line, c.column, message, str(c.stated), str(c.computed))
        )
    return warnings


def split_name(name: str) -> tuple[str, str]:
    """``"Surname, Firstname"`` (how imported players are named) into its two parts.

    >>> split_name("VAN DEN BERG, Jan"), split_name("Tanaka")
    (('VAN DEN BERG', 'Jan'), ('Tanaka', ''))
    """
    surname, _, first = name.partition(",")
    return surname.strip(), first.strip()


def join_name(surname: str, first_name: str) -> str:
    """The inverse of :func:`split_name`; ``"?"`` when both parts are empty."""
    surname, first_name = surname.strip(), first_name.strip()
    if first_name:
        return f"{surname}, {first_name}"
    return surname or "?"
