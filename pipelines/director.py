"""The director's controls: event data, player edits and removals, forbidden pairs, rounds
paired by hand, board swaps, truncations.

Like `pipelines.commands`: each function reads the stream once, checks the request against the
state, and appends with the version it read; a refusal raises before anything is appended.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from events import validate
from events.domain import Board, Colour, Game, System
from events.params import PairingParams
from events.schema import (
    BoardsSwapped,
    PairForbidden,
    PlayerRemoved,
    PlayerUpdated,
    RoundPaired,
    TournamentEdited,
)
from events.store import Store, Truncation
from pipelines.commands import (
    CommandError,
    Loaded,
    UnknownPlayer,
    _append,
    _event,
    actor,
    load,
    stream_of,
)
from projections.state import TournamentState

# ------------------------------------------------------------------ event data


@dataclass(frozen=True, slots=True)
class EventData:
    """The event's data as typed on `tournament create` / `tournament edit`, validated."""

    start_date: dt.date | None = None
    end_date: dt.date | None = None
    city: str | None = None
    federation: str | None = None
    chief_arbiter: str | None = None
    deputy_arbiters: tuple[str, ...] | None = None
    time_control: str | None = None
    rating_type: str | None = None
    round_dates: dict[int, dt.date] = field(default_factory=dict)

    def created_fields(self) -> dict[str, Any]:
        """The `TournamentCreated` fields this data sets (rating type aside)."""
        fields = {
            "start_date": self.start_date,
            "end_date": self.end_date,
            "city": self.city,
            "federation": self.federation,
            "chief_arbiter": self.chief_arbiter,
            "time_control": self.time_control,
        }
        out: dict[str, Any] = {k: v for k, v in fields.items() if v is not None}
        if self.deputy_arbiters:
            out["deputy_arbiters"] = self.deputy_arbiters
        if self.round_dates:
            out["round_dates"] = dict(self.round_dates)
        return out

    def with_rating_type(self, params: PairingParams) -> PairingParams:
        if self.rating_type is None:
            return params
        rating = params.rating.model_copy(update={"rating_type": self.rating_type})
        return params.model_copy(update={"rating": rating})


def event_data(
    game: Game,
    rounds: int,
    *,
    start: str | None = None,
    end: str | None = None,
    place: str | None = None,
    federation: str | None = None,
    chief_arbiter: str | None = None,
    deputy_arbiters: Sequence[str] | None = None,
    time_control: str | None = None,
    rating_type: str | None = None,
    round_dates: Sequence[str] = (),
    current: Mapping[str, Any] | None = None,
) -> EventData:
    """Validate what was typed; `current` holds the event's data already set (for an edit),
    so that the dates are checked together (start <= end, round dates inside them)."""
    now = dict(current or {})
    data = EventData(
        start_date=None if start is None else validate.calendar_date("--start", start),
        end_date=None if end is None else validate.calendar_date("--end", end),
        city=None if place is None else validate.text("--place", place),
        federation=None if federation is None else validate.federation(federation, game),
        chief_arbiter=(
            None if chief_arbiter is None else validate.text("--chief-arbiter", chief_arbiter)
        ),
        deputy_arbiters=(
            None
            if deputy_arbiters is None
            else tuple(validate.text("--deputy-arbiter", d) for d in deputy_arbiters)
        ),
        time_control=(
            None if time_control is None else validate.text("--time-control", time_control)
        ),
        rating_type=None if rating_type is None else validate.rating_type(rating_type, game),
        round_dates=dict(validate.round_date(text, rounds) for text in round_dates),
    )
    first = data.start_date or now.get("start_date")
    last = data.end_date or now.get("end_date")
    if first is not None and last is not None and last < first:
        which = "--end" if data.end_date is not None else "--start"
        raise validate.InvalidField(f"{which}: the end {last} is before the start {first}")
    dates = {**now.get("round_dates", {}), **data.round_dates}
    for n, day in sorted(dates.items()):
        if first is not None and day < first:
            raise validate.InvalidField(
                f"--round-date: round {n} on {day} is before the start {first}"
            )
        if last is not None and day > last:
            raise validate.InvalidField(f"--round-date: round {n} on {day} is after the end {last}")
    return data


def edit_tournament(store: Store, tournament_id: str, data: EventData, name: str | None) -> str:
    """Append the edit; returns what changed, for the command to say."""
    loaded = load(store, tournament_id)
    fields = data.created_fields()
    if data.deputy_arbiters is not None:
        fields["deputy_arbiters"] = data.deputy_arbiters
    if data.rating_type is not None:
        fields["rating_type"] = data.rating_type
    if name is not None:
        fields["name"] = validate.text("--name", name)
    if not fields:
        raise CommandError(f"{tournament_id}: nothing to change (give at least one option)")
    _append(store, loaded, [_event(TournamentEdited, tournament_id, **fields)])
    return ", ".join(f"{_LABEL.get(k, k.replace('_', ' '))} {_shown(v)}" for k, v in fields.items())


_LABEL = {"city": "place", "start_date": "start", "end_date": "end"}


def _shown(value: Any) -> str:
    if isinstance(value, dict):
        return ", ".join(f"round {k} {v}" for k, v in sorted(value.items()))
    if isinstance(value, tuple):
        return "; ".join(value) or "none"
    return str(value)


def current_data(state: TournamentState) -> dict[str, Any]:
    s = state.settings
    return {"start_date": s.start_date, "end_date": s.end_date, "round_dates": s.round_dates}


# ------------------------------------------------------------------ players


def player_fields(game: Game, raw: Mapping[str, Any]) -> dict[str, Any]:
    """The registration fields typed for a player, validated for the event's game; None
    (not given) stays out."""
    out: dict[str, Any] = {}
    for key, value in raw.items():
        if value is None:
            continue
        match key:
            case "name":
                out[key] = validate.text("--name", value)
            case "rating":
                out[key] = validate.rating(value, game)
            case "federation":
                out[key] = validate.federation(value, game)
            case "title":
                out[key] = validate.title(value, game)
            case "fide_id":
                out[key] = validate.fide_id(value)
            case "birth":
                out[key] = validate.birth(value)
            case "sex":
                out[key] = validate.sex(value)
            case "club":
                out[key] = validate.text("--club", value)
            case _:
                out[key] = value
    return out


def add_player(store: Store, tournament_id: str, *, force: bool, **raw: Any) -> tuple[int, str]:
    """Register a player after checking every field; a second player of the same name and
    birth date needs `force`. Returns the id and a note ('' or the duplicate registered)."""
    from pipelines import commands

    state = load(store, tournament_id).state
    fields = player_fields(state.game, raw)
    twin = duplicate_of(state, fields["name"], fields.get("birth"))
    if twin is not None and not force:
        raise CommandError(
            f"{tournament_id}: {twin} is already registered; --force registers a second "
            "player of that name and birth date"
        )
    pid = commands.add_player(store, tournament_id, **fields)
    return pid, "" if twin is None else f"registered although {twin} has the same name"


def duplicate_of(state: TournamentState, name: str, birth: str | None) -> str | None:
    """A registered player of the same name and birth date, described; None if there is none."""
    key = " ".join(name.casefold().split())
    for p in state.players.values():
        if " ".join(p.name.casefold().split()) == key and p.birth == birth:
            born = f" born {birth}" if birth else " (no birth date)"
            return f"player {p.id} '{p.name}'{born}"
    return None


def _paired(state: TournamentState, pid: int) -> bool:
    return any(pid in rnd.by_player for rnd in state.rounds.values())


_FIXED_ONCE_PAIRED = {"rank": "--rank", "pairing_number": "--pairing-number"}


def edit_player(store: Store, tournament_id: str, player: int, raw: Mapping[str, Any]) -> str:
    """Change a player's registration; returns what changed."""
    loaded = load(store, tournament_id)
    state = loaded.state
    _known(state, player)
    fields = player_fields(state.game, raw)
    if not fields:
        raise CommandError(f"{tournament_id}: nothing to change (give at least one option)")
    if state.rounds:
        for key, option in _FIXED_ONCE_PAIRED.items():
            if key in fields:
                raise CommandError(
                    f"{option}: cannot change once round 1 is paired (it decided the pairings "
                    "already made)"
                )
    _append(store, loaded, [_event(PlayerUpdated, tournament_id, player=player, **fields)])
    return ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in fields.items())


def remove_player(store: Store, tournament_id: str, player: int) -> str:
    """Take back a registration of a player never paired; returns the player's name."""
    loaded = load(store, tournament_id)
    state = loaded.state
    _known(state, player)
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
    _append(store, loaded, [PlayerRemoved(player=player)])
    return name


def _known(state: TournamentState, player: int) -> None:
    if player not in state.players:
        raise UnknownPlayer(f"{state.id}: no player {player}")


# ------------------------------------------------------------------ forbidden pairs

FORBID_SYSTEMS = frozenset({System.DUTCH, System.BURSTEIN, System.DUBOV})
"""Systems whose engine honours forbidden pairs (the FIDE Swiss engines' C1 criterion)."""


def forbid(store: Store, tournament_id: str, first: int, second: int) -> tuple[str, str, int]:
    loaded = load(store, tournament_id)
    state = loaded.state
    if state.system not in FORBID_SYSTEMS:
        raise CommandError(
            f"{tournament_id}: the {state.system.value} system cannot keep two players apart "
            f"(forbidden pairs work with {', '.join(sorted(s.value for s in FORBID_SYSTEMS))})"
        )
    _known(state, first)
    _known(state, second)
    if first == second:
        raise CommandError(f"{tournament_id}: give two different players")
    pair = frozenset((first, second))
    if pair in state.forbidden:
        raise CommandError(f"{tournament_id}: players {first} and {second} are already kept apart")
    from_round = state.last_round + 1
    _append(store, loaded, [PairForbidden(players=(first, second), from_round=from_round)])
    return state.players[first].name, state.players[second].name, from_round


# ------------------------------------------------------------------ pairing by hand


@dataclass(frozen=True, slots=True)
class HandRound:
    """A round typed by hand, with the absolute criteria it breaks."""

    boards: list[Board]
    broken: list[str]


def read_boards(path: Path, ranks: Mapping[int, int]) -> list[tuple[int, int | None]]:
    """The boards of a file in `arbiter-pairings -p` form: a count, then ``white black`` start
    ranks per line, ``N 0`` for the pairing-allocated bye; returned as player ids."""
    by_rank = {n: pid for pid, n in ranks.items()}
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise CommandError(f"{path}: {exc.strerror}") from None
    lines = [(i, line.split()) for i, line in enumerate(text.splitlines(), start=1)]
    lines = [(i, words) for i, words in lines if words]
    if not lines or len(lines[0][1]) != 1 or not lines[0][1][0].isdigit():
        raise CommandError(f"{path}:1:1: the first line must be the number of boards")
    count = int(lines[0][1][0])
    rows = lines[1:]
    if count != len(rows):
        raise CommandError(f"{path}:1:1: says {count} boards, the file has {len(rows)}")
    out: list[tuple[int, int | None]] = []
    for number, words in rows:
        if len(words) != 2 or not all(w.isdigit() for w in words):
            raise CommandError(f"{path}:{number}:1: expected 'WHITE BLACK' start ranks")
        white, black = (int(w) for w in words)
        for col, n in ((1, white), (len(words[0]) + 2, black)):
            if n and n not in by_rank:
                raise CommandError(f"{path}:{number}:{col}: no player has start rank {n}")
        if white == 0:
            raise CommandError(f"{path}:{number}:1: the bye is written 'N 0'")
        out.append((by_rank[white], by_rank[black] if black else None))
    return out


def _colour_history(state: TournamentState, pid: int) -> list[Colour]:
    return [p.colour for p in state.pairings(pid) if p.colour is not None and p.played]


def check_round(
    state: TournamentState, round_no: int, pairs: list[tuple[int, int | None]]
) -> HandRound:
    """Boards for the pairs, and every absolute criterion (C.04.1) they break, named."""
    names = {pid: f"{state.start_ranks()[pid]} ({p.name})" for pid, p in state.players.items()}
    seen: set[int] = set()
    errors: list[str] = []
    for white, black in pairs:
        for pid in (white, black):
            if pid is None:
                continue
            if pid in seen:
                raise CommandError(f"{state.id}: player {names[pid]} is on two boards")
            seen.add(pid)
    expected = {
        pid
        for pid, p in state.players.items()
        if p.active_in(round_no) and pid not in state.byes.get(round_no, {})
    }
    for pid in sorted(seen - expected, key=names.__getitem__):
        raise CommandError(
            f"{state.id}: player {names[pid]} is withdrawn or has a bye in round {round_no}"
        )
    missing = sorted(expected - seen, key=lambda pid: state.start_ranks()[pid])
    if missing:
        raise CommandError(
            f"{state.id}: player {names[missing[0]]} is on no board "
            f"({len(missing)} missing; give absences with `arbiter bye ... --kind zero`)"
        )
    byes = [w for w, b in pairs if b is None]
    if len(byes) > 1:
        errors.append(f"{len(byes)} players get the pairing-allocated bye (at most one)")
    boards: list[Board] = []
    games = [(w, b) for w, b in pairs if b is not None]
    for i, (white, black) in enumerate(games, start=1):
        assert black is not None
        boards.append(Board(board=i, white=white, black=black))
        met = any(p.opponent == black and p.played for p in state.pairings(white))
        if met:
            errors.append(f"{names[white]} and {names[black]} have already played each other")
        first = state.forbidden.get(frozenset((white, black)))
        if first is not None and first <= round_no:
            errors.append(f"{names[white]} and {names[black]} must not be paired (forbidden)")
        if state.game is Game.CHESS:
            for pid, colour in ((white, Colour.WHITE), (black, Colour.BLACK)):
                history = [*_colour_history(state, pid), colour]
                diff = history.count(Colour.WHITE) - history.count(Colour.BLACK)
                if abs(diff) > 2:
                    errors.append(f"{names[pid]} would have a colour difference of {diff:+d}")
                if len(history) >= 3 and len(set(history[-3:])) == 1:
                    errors.append(f"{names[pid]} would have {colour.word} three times in a row")
    for pid in byes:
        win = state.scoring.win
        had = any(
            (p.bye is not None and state.scoring.for_bye(p.bye) >= win)
            or (p.outcome is not None and p.outcome.is_forfeit and (p.points or 0) >= win)
            for p in state.pairings(pid)
        )
        if had:
            errors.append(f"{names[pid]} already had a bye or a win without playing")
        boards.append(Board(board=len(boards) + 1, white=pid, black=None))
    return HandRound(boards, errors)


def pair_by_hand(
    store: Store, tournament_id: str, path: Path, *, force: bool
) -> tuple[RoundPaired, list[str]]:
    """Record the next round as given in `path`; returns the event and the criteria broken
    (refused unless `force`)."""
    loaded = load(store, tournament_id)
    state = loaded.state
    round_no = state.last_round + 1
    if round_no > state.total_rounds:
        raise CommandError(f"{tournament_id}: all {state.total_rounds} rounds are paired")
    if state.last_round:
        missing = [b.board for b in state.rounds[state.last_round].boards if not b.has_result]
        if missing:
            raise CommandError(
                f"{tournament_id}: round {state.last_round} still lacks results on board(s) "
                + ", ".join(map(str, missing[:10]))
            )
    hand = check_round(state, round_no, read_boards(path, state.start_ranks()))
    if hand.broken and not force:
        raise CommandError(
            f"{tournament_id}: round {round_no} as given breaks {len(hand.broken)} absolute "
            f"criteria: {'; '.join(hand.broken)}; "
            "--force records it anyway"
        )
    event = RoundPaired(round=round_no, boards=tuple(hand.boards))
    _append(store, loaded, [event], command="pair --boards", forced=bool(hand.broken))
    return event, hand.broken


def swap_boards(store: Store, tournament_id: str, round_no: int, first: int, second: int) -> None:
    loaded = load(store, tournament_id)
    state = loaded.state
    rnd = state.rounds.get(round_no)
    if rnd is None:
        raise CommandError(f"{tournament_id}: round {round_no} is not paired")
    if first == second:
        raise CommandError(f"--swap: give two different boards (both are {first})")
    for n in (first, second):
        board = rnd.board(n)
        if board is None:
            raise CommandError(
                f"--swap: round {round_no} has no board {n} (boards 1..{len(rnd.boards)})"
            )
        if board.is_bye:
            raise CommandError(f"--swap: board {n} of round {round_no} is the bye")
        if board.outcome is not None and board.outcome.is_known:
            raise CommandError(f"--swap: board {n} of round {round_no} already has a result")
    _append(store, loaded, [BoardsSwapped(round=round_no, boards=(first, second))])


# ------------------------------------------------------------------ truncations


def truncations(store: Store, tournament_id: str) -> list[dict[str, Any]]:
    """Every undo of the tournament: id, version range, what it held, restored or not."""
    loaded = load(store, tournament_id)
    rows = []
    for t in store.truncations(loaded.stream_id):
        archived = store.archived(t.truncation_id)
        rounds = sorted({e.event.round for e in archived if isinstance(e.event, RoundPaired)})
        rows.append(
            {
                "id": t.truncation_id,
                "versions": f"{t.from_version}..{t.to_version}",
                "events": t.event_count,
                "rounds": ",".join(map(str, rounds)) or "-",
                "by": t.actor,
                "at": f"{t.truncated_at:%Y-%m-%d %H:%M}",
                "reason": t.reason,
                "restorable": t.restored_at is None and t.from_version == loaded.version + 1,
                "restored": "" if t.restored_at is None else f"{t.restored_at:%Y-%m-%d %H:%M}",
            }
        )
    return rows


def restore(store: Store, tournament_id: str, truncation_id: int | None) -> Truncation:
    loaded: Loaded = load(store, tournament_id)
    if truncation_id is not None:
        mine = {t.truncation_id for t in store.truncations(loaded.stream_id)}
        if truncation_id not in mine:
            known = ", ".join(map(str, sorted(mine))) or "none"
            raise CommandError(
                f"{tournament_id}: no truncation {truncation_id} (its truncations: {known})"
            )
    return store.restore(stream_of(tournament_id), actor(), truncation_id)


__all__ = [
    "FORBID_SYSTEMS",
    "EventData",
    "HandRound",
    "add_player",
    "check_round",
    "current_data",
    "duplicate_of",
    "edit_player",
    "edit_tournament",
    "event_data",
    "forbid",
    "pair_by_hand",
    "player_fields",
    "read_boards",
    "remove_player",
    "restore",
    "swap_boards",
    "truncations",
]
