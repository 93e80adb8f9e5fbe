"""Players: registration (one, a CSV file's worth, a team member), corrections, removal,
withdrawal and return; the ratings of a tournament's players from the imported lists.

The service around the player deciders (`decide.players`): each command reads the stream
(`load`), gives the decider the state, the command and the store's lists (`StoreLists`), and
appends what it decided with the version it read; a lost race decides again. Every door
(`arbiter player add`, `player import`, `team member add`, the API, the manage form, a
player's own entry) registers through `decide.players.register`, so the same values are
refused everywhere and a new player never takes the id of a removed one.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

from decide import players as decide
from decide.inputs import PlayerChanges, PlayerInput
from decide.lists import LIST_SOURCES, NOT_ON_LIST, ListSource, aga_fields, egd_fields
from decide.state import TournamentState
from events import validate
from events.domain import Game
from events.errors import UserError
from events.schema import RATING_CLEARED, PlayerUpdated
from events.store import Store
from events.text import excerpt
from events.validate import InvalidField
from pipelines.commands.base import (
    CommandError,
    Snapshot,
    append,
    decided_again,
    load,
    new_event,
    snapshot,
)
from pipelines.commands.lists import StoreLists

if TYPE_CHECKING:
    from events.imported_lists import ListedPlayer

__all__ = [
    "LIST_SOURCES",
    "NOT_ON_LIST",
    "Added",
    "ListSource",
    "RatingChange",
    "RatingUpdate",
    "Unchanged",
    "add",
    "edit",
    "from_list",
    "reenter",
    "register_all",
    "remove",
    "update_ratings",
    "withdraw",
]


def from_list(
    store: Store,
    raw: Mapping[str, Any],
    *,
    game: Game,
    rating_type: str | None = None,
    not_on_list: bool = False,
) -> Mapping[str, Any]:
    """``raw`` completed from the store's imported lists (`decide.players.completed`)."""
    return decide.completed(
        raw, lists=StoreLists(store), game=game, rating_type=rating_type, not_on_list=not_on_list
    )[0]


class Added(NamedTuple):
    """A registration `add` appended: the player's id, his pairing number (start rank) as the
    field stood once he joined it (``paired``: round 1 is paired; before, the numbers follow
    the field's order and change as players join), his name, and the decider's note ('' or
    the lists read, the namesake registered)."""

    player: int
    number: int
    paired: bool
    name: str
    note: str


@decided_again
def add(
    store: Store,
    tournament_id: str,
    player: PlayerInput | Mapping[str, Any],
    *,
    force: bool = False,
    not_on_list: bool = False,
    known: Snapshot | None = None,
) -> Added:
    """Register a player (`decide.players.register`); returns what was appended (`Added`).
    ``force`` allows a second player of the same name and birth date; ``not_on_list`` a
    federation id on no imported list."""
    from decide.state import evolve

    loaded = snapshot(store, tournament_id, known)
    done = decide.register(
        loaded.state, player, lists=StoreLists(store), force=force, not_on_list=not_on_list
    )
    append(store, loaded, [done.event])
    joined = evolve(loaded.state.detached_copy(), done.event)
    number = joined.start_ranks()[done.event.player]
    paired = bool(loaded.state.rounds)
    return Added(done.event.player, number, paired, done.event.name, done.note)


@decided_again
def edit(
    store: Store, tournament_id: str, player: int, changes: PlayerChanges | Mapping[str, Any]
) -> str:
    """Change a player's registration (`decide.players.edit`); returns what changed."""
    loaded = load(store, tournament_id)
    done = decide.edit(loaded.state, player, changes)
    append(store, loaded, [done.event])
    return ", ".join(f"{k.replace('_', ' ')} {_set(k, v)}" for k, v in done.fields.items())


def _set(field: str, value: Any) -> str:
    """A value an edit set, as said: a rating of 0 is none (`RATING_CLEARED`)."""
    return "none" if field == "rating" and value == RATING_CLEARED else str(value)


@decided_again
def remove(store: Store, tournament_id: str, player: int) -> str:
    """Take back a registration of a player never paired (`decide.players.remove`); returns
    the player's name."""
    loaded = load(store, tournament_id)
    events = decide.remove(loaded.state, player)
    append(store, loaded, events)
    return loaded.state.players[player].name


@decided_again
def withdraw(store: Store, tournament_id: str, player: int, from_round: int | None) -> int:
    """The player plays no more from ``from_round`` (default: the next round) on
    (`decide.players.withdraw`); returns that round."""
    loaded = load(store, tournament_id)
    events = decide.withdraw(loaded.state, player, from_round)
    append(store, loaded, events)
    return events[0].from_round


@decided_again
def reenter(store: Store, tournament_id: str, player: int, from_round: int | None) -> int:
    """A withdrawn player plays again from ``from_round`` (default: the next round) on
    (`decide.players.reenter`); returns that round."""
    loaded = load(store, tournament_id)
    events = decide.reenter(loaded.state, player, from_round)
    append(store, loaded, events)
    return events[0].from_round


@decided_again
def register_all(
    store: Store,
    tournament_id: str,
    players: list[tuple[PlayerInput | Mapping[str, Any], Any]],
    *,
    force: bool = False,
    not_on_list: bool = False,
    command: str,
    located: Any = None,
) -> list[int]:
    """Register several players in one append (all or none): each row decided on the state
    the rows before it left. ``players`` pairs each input with where it came from;
    ``located(where, error)`` turns a refusal into one naming that place (a CSV file's line
    and column)."""
    from decide.state import evolve

    loaded = load(store, tournament_id)
    decide.field_open(loaded.state)
    state = loaded.state.detached_copy()
    lists = StoreLists(store)
    events = []
    for raw, where in players:
        try:
            done = decide.register(state, raw, lists=lists, force=force, not_on_list=not_on_list)
        except UserError as exc:
            if located is None:
                raise
            raise located(where, exc) from None
        state = evolve(state, done.event)
        events.append(done.event)
    if events:
        append(store, loaded, events, command=command)
    return [e.player for e in events]


# ------------------------------------------------------------------ ratings from the lists


@dataclass(frozen=True, slots=True)
class RatingChange:
    """A player whose registration `update_ratings` changed: each field, old → new."""

    player: int
    name: str
    changes: dict[str, tuple[Any, Any]]

    def __str__(self) -> str:
        said = ", ".join(
            f"{k.replace('_', ' ')} {_said(a)} → {_said(b)}" for k, (a, b) in self.changes.items()
        )
        return f"{self.player} {self.name}: {said}"


@dataclass(frozen=True, slots=True)
class Unchanged:
    """A player `update_ratings` left as registered, and why."""

    player: int
    name: str
    reason: str

    def __str__(self) -> str:
        return f"{self.player} {self.name}: unchanged ({self.reason})"


@dataclass(frozen=True, slots=True)
class RatingUpdate:
    """What `update_ratings` read and did."""

    lists: tuple[str, ...]
    """Each list read, ``fide-standard of 2025-11-01``."""
    changed: tuple[RatingChange, ...]
    unchanged: tuple[Unchanged, ...]


def _said(value: Any) -> str:
    return "none" if value is None else f"{value:g}" if isinstance(value, float) else str(value)


@dataclass(frozen=True, slots=True)
class _Reading:
    """A list `update_ratings` reads: its name, the player's id it is keyed by, the fields it
    sets from a row."""

    name: str
    id_label: str
    player_id: Callable[[Any], str | None]
    fields: Callable[[ListedPlayer], dict[str, Any]]


def _rating_fields(row: ListedPlayer) -> dict[str, Any]:
    return {"rating": int(row.rating) if row.rating else None}


def _egd_fields(row: ListedPlayer) -> dict[str, Any]:
    found = egd_fields(row)
    try:
        rank = None if found["rank"] is None else validate.go_rank(found["rank"])
    except InvalidField:
        rank = None  # a grade the list writes that is no rank arbiter keeps (the rating stays)
    return {"rank": rank, "rating": found["rating"]}


def _aga_fields(row: ListedPlayer) -> dict[str, Any]:
    found = aga_fields(row)
    return {"aga_rating": found["aga_rating"], "rank": found["rank"]}


def _readings(state: TournamentState, list_name: str | None, store: Store) -> list[_Reading]:
    """The lists a tournament's ratings come from: chess FIDE's of its rating type (by FIDE
    id), go the EGD's (by PIN: rank and GoR) then the AGA's (by AGA id: AGA rating, and the
    rank of a player the EGD list did not give one); ``list_name`` one list (a national list is
    read by FIDE id)."""
    from events.imported_lists import FIDE_LISTS, Kind, current_imports

    by_fide = _Reading("", "FIDE id", lambda p: p.fide_id, _rating_fields)
    by_pin = _Reading("egd", "EGD PIN", lambda p: p.ids.get("egd_pin"), _egd_fields)
    by_aga = _Reading("aga", "AGA id", lambda p: p.ids.get("aga"), _aga_fields)
    if list_name is not None:
        kinds = {i.list_name: i.kind for i in current_imports(store)}
        kind = kinds.get(list_name)
        if kind is None:
            known = ", ".join(sorted(kinds)) or "none (arbiter ratings import)"
            raise InvalidField("list", f"no list {excerpt(list_name)} is imported (lists: {known})")
        reading = {Kind.EGD: by_pin, Kind.AGA: by_aga}.get(kind, by_fide)
        wrong = (state.game is Game.GO) != (kind in (Kind.EGD, Kind.AGA))
        if wrong:
            raise InvalidField(
                "list", f"{list_name} is a {kind.value} list; this is a {state.game.value} event"
            )
        return [_Reading(list_name, reading.id_label, reading.player_id, reading.fields)]
    if state.game is Game.CHESS:
        rating_type = state.settings.pairing_params.rating.rating_type or "standard"
        name = FIDE_LISTS[rating_type]
        return [_Reading(name, by_fide.id_label, by_fide.player_id, by_fide.fields)]
    if state.game is Game.GO:
        return [by_pin, by_aga]
    raise CommandError(
        f"{state.id}: a {state.game.value} event has no rating list to update from "
        "(chess: FIDE's, go: the EGD's and the AGA's)"
    )


@decided_again
def update_ratings(
    store: Store,
    tournament_id: str,
    *,
    list_name: str | None = None,
    at_or_before: dt.date | None = None,
) -> RatingUpdate:
    """Before round 1 is paired, each player's rating from the imported list of the latest
    date at or before ``at_or_before`` (`_readings`: chess the FIDE list of the event's rating
    type by FIDE id; go the EGD's by PIN, rank and GoR, and the AGA's by AGA id, AGA rating),
    as one `PlayerUpdated` per player whose values differ, appended together. A player with no
    id, or not on the list, is left as registered, with the reason.

    :raises CommandError: round 1 is paired (the ratings decided it), or no list of the kind
        is imported at or before the date.
    """
    from events.imported_lists import latest_list_import, lookup

    loaded = load(store, tournament_id)
    state = loaded.state
    if state.rounds:
        raise CommandError(
            f"{tournament_id}: round 1 is paired; the ratings it was paired on stay "
            "(undo round 1 first to update them)"
        )
    readings = []
    read: list[str] = []
    for reading in _readings(state, list_name, store):
        found = latest_list_import(store, reading.name, at_or_before)
        if found is not None:
            readings.append((reading, found.list_date))
            read.append(f"{reading.name} of {found.list_date}")
    if not readings:
        names = " or ".join(r.name for r in _readings(state, list_name, store))
        when = "" if at_or_before is None else f" dated {at_or_before} or before"
        raise CommandError(
            f"{tournament_id}: no {names} list imported{when} (arbiter ratings import)"
        )
    changed: list[RatingChange] = []
    unchanged: list[Unchanged] = []
    events = []
    for p in sorted(state.players.values(), key=lambda p: p.id):
        new: dict[str, Any] = {}
        reasons: list[str] = []
        for reading, list_date in readings:
            player_id = reading.player_id(p)
            if not player_id:
                reasons.append(f"no {reading.id_label}")
                continue
            row = lookup(store, reading.name, player_id, at_or_before)
            if row is None:
                reasons.append(
                    f"{reading.id_label} {player_id} not on the {reading.name} list of {list_date}"
                )
                continue
            given = {k: v for k, v in reading.fields(row).items() if v is not None}
            new = {**given, **new}
            if not given:
                reasons.append(f"no rating on the {reading.name} list of {list_date}")
        diff = {k: (getattr(p, k), v) for k, v in new.items() if getattr(p, k) != v}
        if diff:
            fields = {k: v for k, (_, v) in diff.items()}
            events.append(new_event(PlayerUpdated, tournament_id, player=p.id, **fields))
            changed.append(RatingChange(p.id, p.name, diff))
        else:
            reason = "as on the list" if new else "; ".join(reasons)
            unchanged.append(Unchanged(p.id, p.name, reason))
    if events:
        append(store, loaded, events, command="tournament update-ratings")
    return RatingUpdate(tuple(read), tuple(changed), tuple(unchanged))
