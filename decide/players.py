"""The player commands' deciders: register, edit, remove, withdraw, re-enter.

Each is a pure function of the tournament's state, the command (`decide.inputs`) and what it
consults, every one a required keyword argument (the imported lists as `Lists`); it returns
the events to append, or raises a `CommandError` (an `InvalidField` naming the field) before
any exists. Every door registers through `register`: `player add`, `player import` (one
`register` per row on the state the rows before it left), `team member add`, a player's own
entry and its approval.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from decide.base import known_player, new_event, next_player_id, numbered
from decide.errors import CommandError
from decide.inputs import PlayerChanges, PlayerInput
from decide.lists import LIST_SOURCES, NOT_ON_LIST, Lists
from decide.state import TournamentState
from events.domain import Game, System
from events.errors import braced
from events.names import name_key, same_name
from events.schema import (
    PlayerReentered,
    PlayerRegistered,
    PlayerRemoved,
    PlayerUpdated,
    PlayerWithdrawn,
)
from events.validate import InvalidField

__all__ = [
    "Edited",
    "Registered",
    "clash_keys",
    "completed",
    "duplicate_of",
    "edit",
    "field_open",
    "reenter",
    "register",
    "remove",
    "withdraw",
]


def duplicate_of(state: TournamentState, name: str, birth: str | None) -> str | None:
    """A registered player of the same name (`events.names.same_name`: case, accents,
    punctuation and word order do not count) and birth date, described; None if there is
    none."""
    for p in state.players.values():
        if same_name(p.name, name) and p.birth == birth:
            born = f" born {birth}" if birth else " (no birth date)"
            return f"player No. {state.start_ranks()[p.id]} '{p.name}'{born}"
    return None


def clash_keys(event: PlayerRegistered) -> list[object]:
    """What `register` compares a registration on, as keys: the name's key (`duplicate_of`),
    the FIDE id, each federation id and the seed (`_refuse_taken`). Two registrations can
    refuse each other only when they share a key, so a reader of a large file decides each
    one on the players that share one (`ingest.commands`); a new comparison in `register`
    adds its key here."""
    keys: list[object] = [("name", name_key(event.name))]
    if event.fide_id:
        keys.append(("fide", event.fide_id.strip()))
    keys.extend(("id", k, str(v).strip()) for k, v in event.ids.items())
    keys.append(("seed", event.pairing_number or event.player))
    return keys


def _refuse_taken(state: TournamentState, player: PlayerInput, but: int | None = None) -> None:
    """Refuse a FIDE id, a federation id or a seed that ``player`` gives and another player
    (not ``but``, the one being edited) holds."""
    others = [p for p in state.players.values() if p.id != but]
    if player.fide_id:
        for p in others:
            if p.fide_id == player.fide_id:
                raise CommandError(
                    f"{state.id}: FIDE id {player.fide_id} is already registered as "
                    f"player {numbered(state, p.id)}"
                )
    for field_name, key in PlayerInput.EVENT_IDS.items():
        given = getattr(player, field_name)
        for p in others if given else ():
            if p.ids.get(key) == given:
                raise InvalidField(
                    field_name, f"{given} is already player {numbered(state, p.id)}", sep=" "
                )
    if player.seed is not None:
        for p in others:
            if p.pairing_number == player.seed:
                rank = state.start_ranks()[p.id]
                raise InvalidField(
                    "seed", f"{player.seed} is already player No. {rank}'s ({p.name})", sep=" "
                )


def field_open(state: TournamentState) -> None:
    """Refuse a registration once a round robin's round 1 is paired (its field is fixed)."""
    if state.system is System.ROUNDROBIN and state.rounds:
        raise CommandError(f"{state.id}: a round robin's field is fixed once round 1 is paired")


def completed(
    raw: Mapping[str, Any], *, lists: Lists, game: Game, rating_type: str | None, not_on_list: bool
) -> tuple[Mapping[str, Any], list[str]]:
    """A registration given a ``fide_id``, ``egd_pin`` or ``aga_id``, completed from the list
    of that kind in force (`decide.lists.LIST_SOURCES`): FIDE's list of the tournament's rating
    type gives name, federation, title, sex, birth year and rating; the EGD's name, country,
    club, grade (the rank) and GoR (the rating); the AGA's name, club, rating (``aga_rating``)
    and the rank the AGA gives it. A field ``raw`` gives wins. Unchanged for an id whose kind of
    list was never imported. Also the lists read (``the fide-standard list of 2025-11-01``).

    :raises InvalidField: an id that is not on its list (unless ``not_on_list``: a player new
        to that body keeps what ``raw`` gives), or not an id at all.
    """
    found: dict[str, Any] = {}
    read: list[str] = []
    for source in LIST_SOURCES:
        given = raw.get(source.field)
        if given is None or str(given).strip() == "":
            continue
        player_id = source.check(str(given), game)
        name = source.list_name(rating_type)
        list_date = lists.in_force(name)
        if list_date is None:
            continue
        listed = lists.row(name, player_id)
        if listed is None:
            if not_on_list:
                continue
            raise InvalidField.naming(
                f"{{0}} {braced(player_id)} is not on the {braced(name)} list of "
                f"{list_date} ({{1}} registers a player new to {source.body})",
                source.field,
                NOT_ON_LIST,
            )
        filled = {k: v for k, v in source.fill(listed).items() if v is not None}
        found = {**filled, **found}
        read.append(f"the {name} list of {list_date}")
    if not found:
        return raw, read
    given_fields = {k: v for k, v in raw.items() if v is not None and str(v).strip() != ""}
    return {**found, **given_fields}, read


@dataclass(frozen=True, slots=True)
class Registered:
    """What `register` decided: the event, and a note ('' or the lists read, the namesake
    registered)."""

    event: PlayerRegistered
    note: str


def register(
    state: TournamentState,
    command: PlayerInput | Mapping[str, Any],
    *,
    lists: Lists,
    force: bool,
    not_on_list: bool,
) -> Registered:
    """Register a player: completed from the lists in force (`completed`: an id on no list of
    its kind is refused unless ``not_on_list``), each field by the game's rules
    (`PlayerInput`), then against the field: the FIDE id, a federation id and the seed not
    another player's, no second player of the same name and birth date unless ``force``.
    The player gets the next free id (a removed player's id is never given again)."""
    field_open(state)
    given = command.model_dump(exclude_unset=True) if isinstance(command, PlayerInput) else command
    raw, read = completed(
        given,
        lists=lists,
        game=state.game,
        rating_type=state.settings.pairing_params.rating.rating_type,
        not_on_list=not_on_list,
    )
    player = PlayerInput.check(raw, game=state.game)
    _refuse_taken(state, player)
    twin = duplicate_of(state, player.name, player.birth)
    if twin is not None and not force:
        raise CommandError.naming(
            f"{braced(state.id)}: {braced(twin)} is already registered; {{0}} registers a "
            "second player of that name and birth date",
            "force",
        )
    event = new_event(
        PlayerRegistered, state.id, player=next_player_id(state), **player.event_fields()
    )
    notes = [f"{event.name}, from {' and '.join(read)}"] if read else []
    if twin is not None:
        notes.append(f"registered although {twin} has the same name")
    return Registered(event, "; ".join(notes))


FIXED_ONCE_PAIRED = ("rank", "seed")
"""What a correction may not change once round 1 is paired (it decided the pairings)."""


@dataclass(frozen=True, slots=True)
class Edited:
    """What `edit` decided: the event, and the fields it changes (by the events' names)."""

    event: PlayerUpdated
    fields: dict[str, Any]


def edit(state: TournamentState, player: int, changes: PlayerChanges | Mapping[str, Any]) -> Edited:
    """Correct a registration: each field by the game's rules (`PlayerChanges`), at least one
    given; rank and seed only before round 1 is paired; a FIDE id, federation id or seed not
    another player's."""
    known_player(state, player)
    checked = PlayerChanges.check(changes, game=state.game)
    fields = checked.event_fields()
    if not fields:
        raise CommandError(f"{state.id}: nothing to change (give at least one option)")
    if state.rounds:
        for key in FIXED_ONCE_PAIRED:
            if getattr(checked, key) is not None:
                raise CommandError.naming(
                    "{0}: cannot change once round 1 is paired (it decided the pairings "
                    "already made)",
                    key,
                )
    _refuse_taken(state, checked, but=player)
    return Edited(new_event(PlayerUpdated, state.id, player=player, **fields), fields)


def _paired(state: TournamentState, pid: int) -> bool:
    return any(pid in rnd.by_player for rnd in state.rounds.values())


def remove(state: TournamentState, player: int) -> list[PlayerRemoved]:
    """Take back a registration of a player never paired (in chess, nor one whose pairing
    number is below a paired player's)."""
    known_player(state, player)
    if _paired(state, player):
        raise CommandError(
            f"{state.id}: player {numbered(state, player)} has been paired; "
            "withdraw the player instead (arbiter player withdraw)"
        )
    if state.game is Game.CHESS and state.rounds:
        ranks = state.start_ranks()
        later = [pid for pid, n in ranks.items() if n > ranks[player] and _paired(state, pid)]
        if later:
            raise CommandError(
                f"{state.id}: player {numbered(state, player, ranks)}: higher pairing numbers "
                "were paired; withdraw the player instead"
            )
    return [PlayerRemoved(player=player)]


def withdraw(state: TournamentState, player: int, from_round: int | None) -> list[PlayerWithdrawn]:
    """The player plays no more from ``from_round`` (default: the next round) on."""
    known_player(state, player)
    first = from_round or state.last_round + 1
    return [new_event(PlayerWithdrawn, state.id, player=player, from_round=first)]


def reenter(state: TournamentState, player: int, from_round: int | None) -> list[PlayerReentered]:
    """A withdrawn player plays again from ``from_round`` (default: the next round) on."""
    known_player(state, player)
    if state.players[player].withdrawn_from is None:
        raise CommandError(f"{state.id}: player {numbered(state, player)} has not withdrawn")
    first = from_round or state.last_round + 1
    return [new_event(PlayerReentered, state.id, player=player, from_round=first)]
