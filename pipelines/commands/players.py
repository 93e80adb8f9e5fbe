"""Players: registration (one, a CSV file's worth, a team member), corrections, removal,
withdrawal and return.

Registration is written once, in `Registrar`: every door (`arbiter player add`, `player
import`, `team member add`, the API, the manage form) registers through it, so the same values
are refused everywhere and a new player never takes the id of a removed one.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from events.domain import Game, System
from events.errors import UserError, braced
from events.schema import (
    PlayerReentered,
    PlayerRegistered,
    PlayerRemoved,
    PlayerUpdated,
    PlayerWithdrawn,
)
from events.store import Store
from events.validate import InvalidField
from pipelines.commands.base import (
    CommandError,
    Snapshot,
    append,
    known_player,
    load,
    new_event,
    next_player_id,
    snapshot,
)
from pipelines.commands.inputs import PlayerChanges, PlayerInput
from projections.state import TournamentState

__all__ = [
    "Registrar",
    "add",
    "duplicate_of",
    "edit",
    "reenter",
    "remove",
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
    events: list[PlayerRegistered] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        state = self.state
        if state.system is System.ROUNDROBIN and state.rounds:
            raise CommandError(f"{state.id}: a round robin's field is fixed once round 1 is paired")
        self._next = next_player_id(state)
        self._fide_ids = {p.fide_id: f"player {p.id} ({p.name})" for p in state.players.values()}
        self._seeds = {
            p.pairing_number: f"player {p.id}'s ({p.name})" for p in state.players.values()
        }

    def register(self, raw: PlayerInput | Mapping[str, Any]) -> PlayerRegistered:
        state = self.state
        if self.store is not None and not isinstance(raw, PlayerInput):
            raw = from_list(self.store, raw, force=self.force)
        player = PlayerInput.check(raw, game=state.game)
        fields = player.event_fields()
        if player.fide_id and player.fide_id in self._fide_ids:
            raise CommandError(
                f"{state.id}: FIDE id {player.fide_id} is already registered as "
                f"{self._fide_ids[player.fide_id]}"
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
        if player.seed is not None:
            self._seeds[player.seed] = f"player {event.player}'s ({event.name})"
        self.events.append(event)
        self.notes.append("" if twin is None else f"registered although {twin} has the same name")
        return event

    def _twin_in_batch(self, player: PlayerInput) -> str | None:
        key = " ".join(player.name.casefold().split())
        for e in self.events:
            if " ".join(e.name.casefold().split()) == key and e.birth == player.birth:
                born = f" born {e.birth}" if e.birth else " (no birth date)"
                return f"player {e.player} '{e.name}'{born}"
        return None


FIDE_LIST = "fide-standard"
"""The list a registration by FIDE id reads (`from_list`)."""


def from_list(store: Store, raw: Mapping[str, Any], *, force: bool = False) -> Mapping[str, Any]:
    """A registration given a ``fide_id``, completed from the latest imported FIDE standard
    list: name, federation, title, sex, birth year and rating, each only where ``raw`` gives
    none. Unchanged when ``raw`` has no FIDE id or no FIDE list is imported.

    :raises InvalidField: the FIDE id is not on the list (unless ``force``: a player new to
        FIDE keeps what ``raw`` gives).
    """
    from events.imported_lists import latest_list_import, lookup

    fide_id = raw.get("fide_id")
    if fide_id is None or str(fide_id).strip() == "":
        return raw
    listed_on = latest_list_import(store, FIDE_LIST)
    if listed_on is None:
        return raw
    listed = lookup(store, FIDE_LIST, str(fide_id).strip())
    if listed is None:
        if force:
            return raw
        raise InvalidField(
            "fide_id",
            f"{fide_id} is not on the {FIDE_LIST} list of {listed_on.list_date} "
            "(--force registers a player new to FIDE)",
            sep=" ",
        )
    found = {
        "name": listed.name,
        "federation": listed.federation,
        "title": listed.title,
        "sex": listed.sex.lower() if listed.sex else None,
        "birth": str(listed.birth_year) if listed.birth_year else None,
        "rating": int(listed.rating) if listed.rating is not None else None,
    }
    given = {k: v for k, v in raw.items() if v is not None and str(v).strip() != ""}
    return {**{k: v for k, v in found.items() if v is not None}, **given}


def add(
    store: Store,
    tournament_id: str,
    player: PlayerInput | Mapping[str, Any],
    *,
    force: bool = False,
    known: Snapshot | None = None,
) -> tuple[int, str]:
    """Register a player; returns the id and a note ('' or the namesake registered)."""
    loaded = snapshot(store, tournament_id, known)
    registrar = Registrar(loaded.state, force, store)
    event = registrar.register(player)
    append(store, loaded, [event])
    return event.player, registrar.notes[0]


_FIXED_ONCE_PAIRED = ("rank", "seed")


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


def withdraw(store: Store, tournament_id: str, player: int, from_round: int | None) -> int:
    """The player plays no more from ``from_round`` (default: the next round) on."""
    loaded = load(store, tournament_id)
    known_player(loaded.state, player)
    first = from_round or loaded.state.last_round + 1
    event = new_event(PlayerWithdrawn, tournament_id, player=player, from_round=first)
    append(store, loaded, [event])
    return first


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


def register_all(
    store: Store,
    tournament_id: str,
    players: list[tuple[PlayerInput | Mapping[str, Any], Any]],
    *,
    force: bool = False,
    command: str,
    located: Any = None,
) -> list[int]:
    """Register several players in one append (all or none). ``players`` pairs each input
    with where it came from; ``located(where, error)`` turns a refusal into one naming that
    place (a CSV file's line and column)."""
    loaded = load(store, tournament_id)
    registrar = Registrar(loaded.state, force, store)
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
