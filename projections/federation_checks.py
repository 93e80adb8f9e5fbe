"""What a rating body would send back about a tournament before its file is uploaded
(``arbiter check T --for fide|egd``): one `Finding` per problem, from the tournament's state and
the players' rows on the imported list in force at its start.

FIDE (`fide_findings`): the event states no rating type (standard, rapid, blitz) or no start
date; per player a missing FIDE id, an id not on the list (and a rating typed for him: FIDE
rates a player the list does not carry as unrated), a rating or a name that differs from the
list's, a missing birth date (year) or sex, a missing or unknown federation. The EGD
(`egd_findings`): a missing PIN, a PIN not on the list, a grade (rank) other than the list's.

The functions are pure: the caller reads the list (`pipelines.views.checks`) and passes each
player's row by id, or ``listed=None`` when no list of that kind is imported, in which case only
what needs no list is checked.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from decide.state import PlayerState, TournamentState
from events.fide import FEDERATIONS
from events.imported_lists import ListedPlayer
from events.validate import InvalidField, go_rank

__all__ = ["Finding", "egd_findings", "fide_findings", "same_name"]


@dataclass(frozen=True, slots=True)
class Finding:
    """One problem: the player (None for the event itself), the field, what is wrong."""

    player: int | None
    name: str | None
    field: str
    problem: str

    def __str__(self) -> str:
        who = "event" if self.player is None else f"{self.player} {self.name}"
        return f"{who}: {self.field}: {self.problem}"

    def as_dict(self) -> dict[str, Any]:
        """The finding as a JSON object: player id, name, field, problem."""
        return {
            "player": self.player,
            "name": self.name,
            "field": self.field,
            "problem": self.problem,
        }


_SPACES = re.compile(r"\s+")
_COMMA = re.compile(r"\s*,\s*")


def _name_key(name: str) -> str:
    return _COMMA.sub(", ", _SPACES.sub(" ", name.strip())).casefold()


def same_name(ours: str, listed: str) -> bool:
    """Whether two spellings of a name are the same for a rating body: case, runs of spaces
    and the spaces around the comma aside.

    >>> same_name("carlsen,  Magnus", "Carlsen, Magnus")
    True
    >>> same_name("Carlsen, M.", "Carlsen, Magnus")
    False
    """
    return _name_key(ours) == _name_key(listed)


def _players(state: TournamentState) -> list[PlayerState]:
    return sorted(state.players.values(), key=lambda p: p.id)


def _event(field: str, problem: str) -> Finding:
    return Finding(None, None, field, problem)


def fide_findings(
    state: TournamentState,
    listed: Mapping[str, ListedPlayer] | None,
    *,
    list_label: str,
) -> list[Finding]:
    """FIDE's findings about a chess tournament. ``listed``: each FIDE id's row on the list in
    force at the start (``list_label`` names it: ``fide-standard list of 2025-11-01``), an id
    missing from it not on the list; None when no such list is imported."""
    found: list[Finding] = []
    settings = state.settings
    if settings.pairing_params.rating.rating_type is None:
        found.append(
            _event(
                "rating_type",
                "the event states no rating type (standard, rapid or blitz); FIDE needs it to "
                "rate the event (checked as standard)",
            )
        )
    if settings.start_date is None and not settings.round_dates:
        found.append(_event("start_date", "the event states no start date (nor round dates)"))
    for p in _players(state):

        def add(field: str, problem: str, p: PlayerState = p) -> None:
            found.append(Finding(p.id, p.name, field, problem))

        if not p.fide_id:
            add("fide_id", "no FIDE id")
        elif listed is not None:
            row = listed.get(p.fide_id)
            if row is None:
                add("fide_id", f"{p.fide_id} is not on the {list_label}")
                if p.rating:  # a typed or national rating orders the pairing, nothing else
                    add(
                        "rating",
                        f"{p.rating} typed; not on the list, FIDE rates the player unrated",
                    )
            else:
                if not same_name(p.name, row.name):
                    add("name", f"{p.name!r}; the list has {row.name!r}")
                ours = p.rating or None
                theirs = int(row.rating) if row.rating else None
                if ours != theirs:
                    add(
                        "rating",
                        f"{ours or 'unrated'}; the list has {theirs or 'unrated'}",
                    )
        if not p.birth:
            add("birth", "no birth date (FIDE needs at least the year)")
        if not p.sex:
            add("sex", "no sex (m or f)")
        if not p.federation:
            add("federation", "no federation")
        elif p.federation.upper() not in FEDERATIONS:
            add("federation", f"{p.federation!r} is not a FIDE federation code")
    return found


def _rank(value: str) -> str:
    try:
        return go_rank(value)
    except InvalidField:
        return value.strip().lower()


def egd_findings(
    state: TournamentState,
    listed: Mapping[str, ListedPlayer] | None,
    *,
    list_label: str,
) -> list[Finding]:
    """The EGD's findings about a go tournament. ``listed``: each PIN's row on the EGD list in
    force at the start (``list_label`` names it), a PIN missing from it not on the list; None
    when no EGD list is imported."""
    found: list[Finding] = []
    for p in _players(state):
        pin = p.ids.get("egd_pin")
        if not pin:
            found.append(Finding(p.id, p.name, "egd_pin", "no EGD PIN"))
            continue
        if listed is None:
            continue
        row = listed.get(pin)
        if row is None:
            found.append(Finding(p.id, p.name, "egd_pin", f"{pin} is not on the {list_label}"))
            continue
        if row.grade and (p.rank is None or _rank(p.rank) != _rank(row.grade)):
            found.append(
                Finding(p.id, p.name, "rank", f"{p.rank or 'none'}; the list has {row.grade}")
            )
    return found
