"""The file door: a converted file's records as commands, each decided as a live one would be.

A converter (``ingest.<format>.to_events``) reads what the file says happened; `decided` then
replays it through the write side, on one state folded as it goes (once per file, no re-fold
per record, no store read): each registration is a `decide.inputs.PlayerInput` given to
`decide.players.register`, each result to `decide_result` (`decide.results.already_entered`).
The other records (the event's data, byes, the pairings the file states, withdrawals) are facts
of the file: folded, not decided.

Each record a decider refuses is listed (`Accepted`, naming the file, the line and the
column of the record); `taken` then applies the mode, always given: strict, the first refuses
the file in one line; lenient, the file is taken as the organiser wrote it and each is kept
(`FileIngested.accepted`, and the event's metadata under ``accepted``) and printed, one line
each. What a lenient ingest lets a file override is what these deciders refuse, and nothing
else:

- a second player of the same name and birth date (the decider's ``force``);
- a FIDE id, a federation id or a seed that another player of the file holds;
- a field the input model refuses (a title, a federation, a birth date ... as the file wrote
  it);
- a result a live event would refuse (`decide_result`).

A fault of the file itself (a record that cannot be read, an opponent with no record, a text
over the limits) is never overridden: the reader refuses it before any decision.

Three things are the file's in both modes, as a file is a record of an event already played:
an allowed record is stored as the file wrote it (the input model's spelling is not imposed:
an export writes the file back byte for byte); a player keeps the number the file gives him
(his pairing number, which its rounds name); and no imported rating list is consulted
(``Lists.none()``: the ratings are as the organiser had them; a rating run reads the list in
force itself).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from decide.inputs import PlayerInput
from decide.lists import Lists
from decide.players import clash_keys, register
from decide.results import already_entered
from decide.state import TournamentState, evolve
from events.errors import UserError
from events.schema import Event, PlayerRegistered, ResultRecorded
from ingest.conversion import Conversion
from ingest.errors import Accepted, DecisionRefused

__all__ = ["decide_result", "decided", "player_command", "taken"]

_IDS = {key: name for name, key in PlayerInput.EVENT_IDS.items()}
"""``PlayerRegistered.ids`` key -> the input field that gives it (``aga`` -> ``aga_id``)."""


_GIVEN = tuple(name for name in PlayerInput.model_fields if name in PlayerRegistered.model_fields)
"""The registration fields a player record gives as they are (the ids and the seed apart)."""


def player_command(event: PlayerRegistered) -> dict[str, Any]:
    """The registration a file's player record asks for, as `PlayerInput`'s fields: what the
    file gives, his number as his seed (the file's pairing number)."""
    fields = {name: value for name in _GIVEN if (value := getattr(event, name)) is not None}
    for key, value in event.ids.items():
        if key in _IDS:
            fields[_IDS[key]] = value
    fields["seed"] = event.pairing_number or event.player
    return fields


def decide_result(state: TournamentState, event: ResultRecorded) -> None:
    """Refuse a result a live event would refuse (`decide.results`' own rule): its round not
    paired, no such board, the board a bye, a result already entered (a live event would need
    a correction)."""
    already_entered(state, event.round, event.board, correct=False)


def decided(conversion: Conversion, *, path: str) -> tuple[Conversion, TournamentState]:
    """``conversion`` with every registration and result decided (see the module's text):
    each record a decider refuses listed in `Conversion.accepted` (naming the player's record,
    `Conversion.lines`; a result its white player's), for `taken` to refuse or keep; and the
    state the records were decided on (folded once, as they are decided: each registration
    as the decider gave it, so that the next ones meet the rule's spelling of the names,
    dates and ids before them)."""
    lines = conversion.lines
    state: TournamentState | None = None
    seen = _Seen()
    accepted: list[Accepted] = []
    metadata = dict(conversion.metadata)
    for index, event in enumerate(conversion.events):
        ruled: Event = event
        if state is not None and isinstance(event, PlayerRegistered | ResultRecorded):
            try:
                ruled = _decide(state, event, seen)
            except UserError as exc:
                line, column = _place(state, event, lines)
                note = Accepted(path, line, column, str(exc))
                accepted.append(note)
                metadata[index] = {**metadata.get(index, {}), "accepted": note.reason}
        state = evolve(state, ruled)
        if isinstance(ruled, PlayerRegistered):
            seen.add(ruled)
    assert state is not None  # a conversion starts with its TournamentCreated
    if not accepted:
        return conversion, state
    return replace(conversion, metadata=metadata, accepted=accepted), state


@dataclass(slots=True)
class _Seen:
    """The file's players registered so far, by what `register` compares
    (`decide.players.clash_keys`): a registration is decided on the state with
    only the players it could clash with, so that a file of n players costs n decisions, not
    n x n comparisons (a 10,000-player .ELO file). The decider sees every player that can
    refuse it, and decides as it would on the whole field."""

    by_key: dict[object, set[int]] = field(default_factory=lambda: defaultdict(set))

    def add(self, event: PlayerRegistered) -> None:
        for key in clash_keys(event):
            self.by_key[key].add(event.player)

    def clashes(self, event: PlayerRegistered) -> set[int]:
        found: set[int] = set()
        for key in clash_keys(event):
            found |= self.by_key.get(key, set())
        return found


def _decide(state: TournamentState, event: PlayerRegistered | ResultRecorded, seen: _Seen) -> Event:
    """Refuse the file's record as the live command would be refused; else the event the
    decider gives, under the file's number, for the state the next records are decided on
    (the file's own spelling is what is stored: see the module's text)."""
    if isinstance(event, ResultRecorded):
        decide_result(state, event)
        return event
    near = {pid: state.players[pid] for pid in seen.clashes(event) if pid in state.players}
    command = player_command(event)
    try:
        decision = register(
            replace(state, players=near),
            command,
            lists=Lists.none(),
            force=False,
            not_on_list=True,
        )
    except UserError:
        # Refused: decided again on the whole field, so that the refusal names the players
        # by their numbers in it (`decide.base.numbered`), not in the few it clashed with.
        register(state, command, lists=Lists.none(), force=False, not_on_list=True)
        raise
    ruled = decision.event
    if ruled.player == event.player:
        return ruled
    return ruled.model_copy(update={"player": event.player})


def taken(conversion: Conversion, *, lenient: bool) -> Conversion:
    """``conversion`` as the mode takes it: lenient, with what it accepts listed; strict,
    refused when a decider refused a record.

    :raises DecisionRefused: strict, the first record a decider refused (FILE:LINE:COL).
    """
    if conversion.accepted and not lenient:
        first = conversion.accepted[0]
        raise DecisionRefused(first.path, first.line, first.column, first.reason)
    return conversion


def _place(state: TournamentState, event: Event, lines: Mapping[int, int]) -> tuple[int, int]:
    """Where the record of ``event`` is in the file: the player's line (the white player's for
    a result), column 1; 0:0 when the format has no lines."""
    if isinstance(event, PlayerRegistered):
        player: int | None = event.player
    elif isinstance(event, ResultRecorded):
        rnd = state.rounds.get(event.round)
        board = rnd.board(event.board) if rnd is not None else None
        player = board.white if board is not None else None
    else:
        player = None
    line = lines.get(player, 0) if player is not None else 0
    return line, 1 if line else 0
