"""Players: registration (one, a CSV file's worth, a team member), corrections, removal,
withdrawal and return.

Registration is written once, in `Registrar`: every door (`arbiter player add`, `player
import`, `team member add`, the API, the manage form) registers through it, so the same values
are refused everywhere and a new player never takes the id of a removed one.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from events import validate
from events.domain import Game, System
from events.errors import UserError, braced
from events.go import Rank
from events.schema import (
    PlayerReentered,
    PlayerRegistered,
    PlayerRemoved,
    PlayerUpdated,
    PlayerWithdrawn,
)
from events.store import Store
from events.text import excerpt
from events.validate import InvalidField
from pipelines.commands.base import (
    CommandError,
    Snapshot,
    append,
    decided_again,
    known_player,
    load,
    new_event,
    next_player_id,
    snapshot,
)
from pipelines.commands.inputs import PlayerChanges, PlayerInput
from projections.state import TournamentState

if TYPE_CHECKING:
    from events.imported_lists import ListedPlayer

__all__ = [
    "LIST_SOURCES",
    "NOT_ON_LIST",
    "ListSource",
    "RatingChange",
    "RatingUpdate",
    "Registrar",
    "Unchanged",
    "add",
    "duplicate_of",
    "edit",
    "from_list",
    "reenter",
    "remove",
    "update_ratings",
    "withdraw",
]


def _paired(state: TournamentState, pid: int) -> bool:
    return any(pid in rnd.by_player for rnd in state.rounds.values())


def duplicate_of(state: TournamentState, name: str, birth: str | None) -> str | None:
    """A registered player of the same name and birth date, described; None if there is none."""
    key = " ".join(name.casefold().split())
    for p in state.players.values():
        if " ".join(p.name.casefold().split()) == key and p.birth == birth:
            born = f" born {birth}" if birth else " (no birth date)"
            return f"player {p.id} '{p.name}'{born}"
    return None


@dataclass
class Registrar:
    """Registrations checked against the tournament and against each other, one at a time.

    ``register`` checks one player's fields with the game's rules (`PlayerInput`), then
    against the field: the FIDE id and the seed not taken, no second player of the same name
    and birth date unless ``force``; it returns the `PlayerRegistered` event with the next
    free id (a removed player's id is never given again). Nothing is appended here: the
    command appends every event it collected in one go, or none.
    """

    state: TournamentState
    force: bool = False
    store: Store | None = None
    """Where the imported rating lists are read (`from_list`); None: no list is read."""
    not_on_list: bool = False
    """Register a federation id that is on no imported list (`from_list`)."""
    events: list[PlayerRegistered] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        state = self.state
        if state.system is System.ROUNDROBIN and state.rounds:
            raise CommandError(f"{state.id}: a round robin's field is fixed once round 1 is paired")
        self._next = next_player_id(state)
        self._fide_ids = {p.fide_id: f"player {p.id} ({p.name})" for p in state.players.values()}
        self._go_ids = {
            (key, value): f"player {p.id} ({p.name})"
            for p in state.players.values()
            for key, value in p.ids.items()
        }
        self._seeds = {
            p.pairing_number: f"player {p.id}'s ({p.name})" for p in state.players.values()
        }

    def register(self, raw: PlayerInput | Mapping[str, Any]) -> PlayerRegistered:
        state = self.state
        read: list[str] = []
        if self.store is not None and not isinstance(raw, PlayerInput):
            raw, read = _completed(
                self.store,
                raw,
                game=state.game,
                rating_type=state.settings.pairing_params.rating.rating_type,
                not_on_list=self.not_on_list,
            )
        player = PlayerInput.check(raw, game=state.game)
        fields = player.event_fields()
        if player.fide_id and player.fide_id in self._fide_ids:
            raise CommandError(
                f"{state.id}: FIDE id {player.fide_id} is already registered as "
                f"{self._fide_ids[player.fide_id]}"
            )
        for field_name, key in PlayerInput.EVENT_IDS.items():
            taken = self._go_ids.get((key, getattr(player, field_name) or ""))
            if taken is not None:
                raise InvalidField(
                    field_name, f"{getattr(player, field_name)} is already {taken}", sep=" "
                )
        if player.seed is not None and player.seed in self._seeds:
            raise InvalidField(
                "seed", f"{player.seed} is already {self._seeds[player.seed]}", sep=" "
            )
        twin = duplicate_of(state, player.name, player.birth) or self._twin_in_batch(player)
        if twin is not None and not self.force:
            raise CommandError.naming(
                f"{braced(state.id)}: {braced(twin)} is already registered; {{0}} registers a "
                "second player of that name and birth date",
                "force",
            )
        event = new_event(PlayerRegistered, state.id, player=self._next, **fields)
        self._next += 1
        if player.fide_id:
            self._fide_ids[player.fide_id] = f"player {event.player} ({event.name})"
        for key, value in event.ids.items():
            self._go_ids[key, value] = f"player {event.player} ({event.name})"
        if player.seed is not None:
            self._seeds[player.seed] = f"player {event.player}'s ({event.name})"
        self.events.append(event)
        notes = [f"{event.name}, from {' and '.join(read)}"] if read else []
        if twin is not None:
            notes.append(f"registered although {twin} has the same name")
        self.notes.append("; ".join(notes))
        return event

    def _twin_in_batch(self, player: PlayerInput) -> str | None:
        key = " ".join(player.name.casefold().split())
        for e in self.events:
            if " ".join(e.name.casefold().split()) == key and e.birth == player.birth:
                born = f" born {e.birth}" if e.birth else " (no birth date)"
                return f"player {e.player} '{e.name}'{born}"
        return None


@dataclass(frozen=True, slots=True)
class ListSource:
    """A federation id a registration may give, and the imported list that fills it in."""

    field: str
    """The input field (`PlayerInput`): ``fide_id``, ``egd_pin``, ``aga_id``."""
    body: str
    """Who publishes the list, as the refusal says it: FIDE, the EGD, the AGA."""
    check: Callable[[str, Game], str]
    """The field's rule (`events.validate`), applied before the list is read."""
    fill: Callable[[ListedPlayer], dict[str, Any]]
    """The registration fields the player's row gives (a None value gives nothing)."""

    def list_name(self, rating_type: str | None) -> str:
        """The list read: FIDE's of the tournament's rating type (standard when it states
        none), else the body's one list."""
        from events.imported_lists import FIDE_LISTS

        if self.field == "fide_id":
            return FIDE_LISTS[rating_type or "standard"]
        return self.field.split("_")[0]


def _from_fide(row: ListedPlayer) -> dict[str, Any]:
    return {
        "name": row.name,
        "federation": row.federation,
        "title": row.title,
        "sex": row.sex.lower() if row.sex else None,
        "birth": str(row.birth_year) if row.birth_year else None,
        "rating": int(row.rating) if row.rating is not None else None,
    }


def _from_egd(row: ListedPlayer) -> dict[str, Any]:
    gor = row.gor
    return {
        "name": row.name,
        "federation": row.country,
        "club": row.club,
        "rank": row.grade,
        "rating": gor if gor is not None and gor >= 0 else None,
    }


def _from_aga(row: ListedPlayer) -> dict[str, Any]:
    rating = None if row.rating is None else float(row.rating)
    return {
        "name": row.name,
        "club": row.club,
        "aga_rating": rating,
        "rank": None if rating is None else str(Rank.from_aga(rating)),
    }


LIST_SOURCES: tuple[ListSource, ...] = (
    ListSource("fide_id", "FIDE", lambda v, _game: validate.fide_id(v), _from_fide),
    ListSource("egd_pin", "the EGD", validate.egd_pin, _from_egd),
    ListSource("aga_id", "the AGA", validate.aga_id, _from_aga),
)
"""The ids a registration is completed from (`from_list`), in the order their lists count:
a field the first list gives is not taken from the next."""

NOT_ON_LIST = "not_on_list"
"""The flag that registers a player whose id is on no imported list (new to FIDE, the EGD or
the AGA): ``--not-on-list`` on the command line, ``not_on_list`` at the API, the form and
`player import`."""


def from_list(
    store: Store,
    raw: Mapping[str, Any],
    *,
    game: Game,
    rating_type: str | None = None,
    not_on_list: bool = False,
) -> Mapping[str, Any]:
    """A registration given a ``fide_id``, ``egd_pin`` or ``aga_id``, completed from the
    latest imported list of that kind (`LIST_SOURCES`): FIDE's list of the tournament's rating
    type gives name, federation, title, sex, birth year and rating; the EGD's name, country,
    club, grade (the rank) and GoR (the rating); the AGA's name, club, rating (``aga_rating``)
    and the rank the AGA gives it. A field ``raw`` gives wins. Unchanged for an id whose kind of
    list was never imported.

    :raises InvalidField: an id that is not on its list (unless ``not_on_list``: a player new
        to that body keeps what ``raw`` gives), or not an id at all.
    """
    return _completed(store, raw, game=game, rating_type=rating_type, not_on_list=not_on_list)[0]


def _completed(
    store: Store,
    raw: Mapping[str, Any],
    *,
    game: Game,
    rating_type: str | None,
    not_on_list: bool,
) -> tuple[Mapping[str, Any], list[str]]:
    """`from_list`, and the lists it read (``fide-standard of 2025-11-01``)."""
    from events.imported_lists import latest_list_import, lookup

    found: dict[str, Any] = {}
    read: list[str] = []
    for source in LIST_SOURCES:
        given = raw.get(source.field)
        if given is None or str(given).strip() == "":
            continue
        player_id = source.check(str(given), game)
        name = source.list_name(rating_type)
        listed_on = latest_list_import(store, name)
        if listed_on is None:
            continue
        listed = lookup(store, name, player_id)
        if listed is None:
            if not_on_list:
                continue
            raise InvalidField.naming(
                f"{{0}} {braced(player_id)} is not on the {braced(name)} list of "
                f"{listed_on.list_date} ({{1}} registers a player new to {source.body})",
                source.field,
                NOT_ON_LIST,
            )
        filled = {k: v for k, v in source.fill(listed).items() if v is not None}
        found = {**filled, **found}
        read.append(f"the {name} list of {listed_on.list_date}")
    if not found:
        return raw, read
    given_fields = {k: v for k, v in raw.items() if v is not None and str(v).strip() != ""}
    return {**found, **given_fields}, read


@decided_again
def add(
    store: Store,
    tournament_id: str,
    player: PlayerInput | Mapping[str, Any],
    *,
    force: bool = False,
    not_on_list: bool = False,
    known: Snapshot | None = None,
) -> tuple[int, str]:
    """Register a player; returns the id and a note ('' or the namesake registered).
    ``force`` allows a second player of the same name and birth date; ``not_on_list`` a
    federation id on no imported list (`from_list`)."""
    loaded = snapshot(store, tournament_id, known)
    registrar = Registrar(loaded.state, force, store, not_on_list)
    event = registrar.register(player)
    append(store, loaded, [event])
    return event.player, registrar.notes[0]


_FIXED_ONCE_PAIRED = ("rank", "seed")


@decided_again
def edit(
    store: Store, tournament_id: str, player: int, changes: PlayerChanges | Mapping[str, Any]
) -> str:
    """Change a player's registration; returns what changed."""
    loaded = load(store, tournament_id)
    state = loaded.state
    known_player(state, player)
    checked = PlayerChanges.check(changes, game=state.game)
    fields = checked.event_fields()
    if not fields:
        raise CommandError(f"{tournament_id}: nothing to change (give at least one option)")
    if state.rounds:
        for key in _FIXED_ONCE_PAIRED:
            if getattr(checked, key) is not None:
                raise CommandError.naming(
                    "{0}: cannot change once round 1 is paired (it decided the pairings "
                    "already made)",
                    key,
                )
    append(store, loaded, [new_event(PlayerUpdated, tournament_id, player=player, **fields)])
    return ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in fields.items())


@decided_again
def remove(store: Store, tournament_id: str, player: int) -> str:
    """Take back a registration of a player never paired; returns the player's name."""
    loaded = load(store, tournament_id)
    state = loaded.state
    known_player(state, player)
    if _paired(state, player):
        raise CommandError(
            f"{tournament_id}: player {player} ({state.players[player].name}) has been paired; "
            "withdraw the player instead (arbiter player withdraw)"
        )
    if state.game is Game.CHESS and state.rounds:
        ranks = state.start_ranks()
        later = [pid for pid, n in ranks.items() if n > ranks[player] and _paired(state, pid)]
        if later:
            raise CommandError(
                f"{tournament_id}: player {player} holds pairing number {ranks[player]} and "
                f"higher numbers were paired; withdraw the player instead"
            )
    name = state.players[player].name
    append(store, loaded, [PlayerRemoved(player=player)])
    return name


@decided_again
def withdraw(store: Store, tournament_id: str, player: int, from_round: int | None) -> int:
    """The player plays no more from ``from_round`` (default: the next round) on."""
    loaded = load(store, tournament_id)
    known_player(loaded.state, player)
    first = from_round or loaded.state.last_round + 1
    event = new_event(PlayerWithdrawn, tournament_id, player=player, from_round=first)
    append(store, loaded, [event])
    return first


@decided_again
def reenter(store: Store, tournament_id: str, player: int, from_round: int | None) -> int:
    """A withdrawn player plays again from ``from_round`` (default: the next round) on."""
    loaded = load(store, tournament_id)
    known_player(loaded.state, player)
    if loaded.state.players[player].withdrawn_from is None:
        raise CommandError(f"{tournament_id}: player {player} has not withdrawn")
    first = from_round or loaded.state.last_round + 1
    event = new_event(PlayerReentered, tournament_id, player=player, from_round=first)
    append(store, loaded, [event])
    return first


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
    """Register several players in one append (all or none). ``players`` pairs each input
    with where it came from; ``located(where, error)`` turns a refusal into one naming that
    place (a CSV file's line and column)."""
    loaded = load(store, tournament_id)
    registrar = Registrar(loaded.state, force, store, not_on_list)
    for raw, where in players:
        try:
            registrar.register(raw)
        except UserError as exc:
            if located is None:
                raise
            raise located(where, exc) from None
    if registrar.events:
        append(store, loaded, registrar.events, command=command)
    return [e.player for e in registrar.events]


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
    found = _from_egd(row)
    try:
        rank = None if found["rank"] is None else validate.go_rank(found["rank"])
    except InvalidField:
        rank = None  # a grade the list writes that is no rank arbiter keeps (the rating stays)
    return {"rank": rank, "rating": found["rating"]}


def _aga_fields(row: ListedPlayer) -> dict[str, Any]:
    found = _from_aga(row)
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
