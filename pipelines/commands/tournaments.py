"""Tournaments: creation, the event's data edited, the tie-break chain: the service around the
deciders of `decide.tournaments` (read the stream, decide with the catalogues the settings are
checked against, append with the version read)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from decide import tournaments as decide
from decide.inputs import EventChanges, TournamentInput
from decide.tournaments import Catalogues
from events.domain import Game, System
from events.provenance import current_origin
from events.store import NewEvent, Store
from events.validate import InvalidField
from pipelines.commands.base import (
    append,
    checked_text,
    decided_again,
    load,
    stream_of,
    within_limits,
)

__all__ = [
    "CATALOGUES",
    "create",
    "edit",
    "set_tiebreaks",
]


def _rules(text: str, game: Game, system: System) -> str:
    from pipelines.engines.chess_rules import dutch_rules

    return dutch_rules(text, game, system)


def _acceleration(text: str, game: Game, system: System) -> str | None:
    from pipelines.engines.chess_rules import acceleration

    return acceleration(text, game, system)


_CARROM_METHODS = {
    System.SWISS: "serial, dazed, staggered or all",
    System.ROUNDROBIN: "seeds, circle or all",
    System.KNOCKOUT: "seeds",
}


def _carrom_method(system: System, method: str) -> None:
    """Refuse a SoL method the carrom system does not have."""
    from pairing.sol.model import SolParams

    try:
        SolParams.model_validate({"system": system.value, "couplings": method})
    except ValueError:
        raise InvalidField(
            "pairing",
            f"'{method}' is not a carrom {system.value} method ({_CARROM_METHODS[system]})",
            sep=" ",
        ) from None


def _tiebreak(code: str) -> None:
    from projections.tiebreaks import lookup

    lookup(code)


CATALOGUES = Catalogues(
    rules=_rules, acceleration=_acceleration, carrom_method=_carrom_method, tiebreak=_tiebreak
)
"""The engine registry's Dutch editions, SoL's methods and the standings' tie-breaks, as the
tournament deciders consult them."""


@decided_again
def create(store: Store, tournament: TournamentInput | Mapping[str, Any]) -> str:
    """Create a tournament stream (`decide.tournaments.create`); returns its id (a slug of the
    name, made unique)."""
    given = TournamentInput.check(tournament)
    checked_text("name", given.name)
    if given.id is not None:
        checked_text("id", given.id)
    event = decide.create(
        given,
        exists=lambda tid: store.stream_version(stream_of(tid)) >= 0,
        catalogues=CATALOGUES,
    )
    tid = event.tournament_id
    within_limits(tid, [event])
    store.append(stream_of(tid), [NewEvent(event, metadata=current_origin().metadata())], -1)
    return tid


@decided_again
def set_tiebreaks(store: Store, tournament_id: str, codes: Sequence[str]) -> None:
    """Set the tie-break chain (`decide.tournaments.set_tiebreaks`)."""
    loaded = load(store, tournament_id)
    append(store, loaded, decide.set_tiebreaks(loaded.state, codes, catalogues=CATALOGUES))


_LABEL = {"city": "place", "start_date": "start", "end_date": "end"}


def _shown(value: Any) -> str:
    if isinstance(value, dict):
        return ", ".join(f"round {k} {v}" for k, v in sorted(value.items()))
    if isinstance(value, tuple):
        return "; ".join(value) or "none"
    return str(value)


@decided_again
def edit(store: Store, tournament_id: str, changes: EventChanges | Mapping[str, Any]) -> str:
    """Change the event's data and name (`decide.tournaments.edit`); returns what changed, for
    the command to say."""
    loaded = load(store, tournament_id)
    done = decide.edit(loaded.state, changes)
    append(store, loaded, [done.event])
    return ", ".join(
        f"{_LABEL.get(k, k.replace('_', ' '))} {_shown(v)}" for k, v in done.fields.items()
    )
