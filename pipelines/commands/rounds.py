"""Rounds: the next round paired (by the tournament's system or by hand), boards swapped
before results, players kept apart, byes requested in advance."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from decide import rounds as decide
from decide.inputs import ByeInput
from decide.rounds import FORBID_SYSTEMS
from decide.state import TournamentState, evolve
from events.domain import Board, Colour, Game
from events.errors import PairingError, UserError, braced
from events.schema import RoundPaired
from events.store import Store
from pipelines.commands.base import (
    CommandError,
    append,
    decided_again,
    known_player,
    load,
)
from pipelines.commands.registration import left_out

__all__ = [
    "FORBID_SYSTEMS",
    "HandRound",
    "check_round",
    "forbid",
    "grant_bye",
    "pair",
    "pair_by_hand",
    "read_boards",
    "swap_boards",
]


def _results_missing(state: TournamentState) -> None:
    """Refuse to pair while the last round lacks results."""
    if state.last_round:
        missing = [b.board for b in state.rounds[state.last_round].boards if not b.has_result]
        if missing:
            shown = ", ".join(map(str, missing[:10])) + (" ..." if len(missing) > 10 else "")
            raise CommandError(
                f"{state.id}: round {state.last_round} still lacks results on board(s) {shown}"
            )


@decided_again
def pair(
    store: Store, tournament_id: str, notes: list[str] | None = None, *, bye: int | None = None
) -> RoundPaired:
    """Pair the next round with the tournament's system; `notes` collects the explanation;
    `bye`: the player the director gives the bye (gopair)."""
    from pipelines.commands.teams import pair_teams
    from pipelines.engines.pair import pair_next_round

    loaded = load(store, tournament_id)
    state = loaded.state
    next_round = state.last_round + 1
    if next_round > state.total_rounds:
        raise CommandError(f"{tournament_id}: all {state.total_rounds} rounds are paired")
    _results_missing(state)
    if len(state.players) < 2:
        raise CommandError(f"{tournament_id}: register at least two players before pairing")
    if state.system.is_team:
        team_events = pair_teams(loaded, next_round)
        append(store, loaded, team_events, command="pair")
        return next(e for e in team_events if isinstance(e, RoundPaired))
    absences = left_out(state, next_round)
    if absences:  # round 1 of an event with a check-in: who did not check in sits it out
        state = state.detached_copy()
        for absence in absences:
            evolve(state, absence)
        if len(state.players) - len(state.byes.get(1, {})) < 2:
            raise CommandError(
                f"{tournament_id}: fewer than two players checked in "
                f"(arbiter check-in {tournament_id} PLAYER ticks one in)"
            )
    try:
        if bye is not None:
            known_player(state, bye)
        boards: list[Board] = pair_next_round(state, next_round, notes, bye)
    except (UserError, PairingError) as exc:  # the fields it names kept for each door
        template, fields = exc.template()
        raise CommandError.naming(f"{braced(tournament_id)}: {template}", *fields) from exc
    event = RoundPaired(round=next_round, boards=tuple(boards))
    append(store, loaded, [*absences, event], command="pair")
    return event


@decided_again
def grant_bye(store: Store, tournament_id: str, bye: ByeInput | Mapping[str, Any]) -> ByeInput:
    """A bye requested in advance (or an absence) for a round not yet paired
    (`decide.rounds.bye`)."""
    loaded = load(store, tournament_id)
    request = ByeInput.check(bye)
    append(store, loaded, decide.bye(loaded.state, request))
    return request


# ------------------------------------------------------------------ forbidden pairs


@decided_again
def forbid(store: Store, tournament_id: str, first: int, second: int) -> tuple[str, str, int]:
    """Keep two players apart (`decide.rounds.forbid`); their names and the first round."""
    loaded = load(store, tournament_id)
    events = decide.forbid(loaded.state, first, second)
    append(store, loaded, events)
    names = loaded.state.players
    return names[first].name, names[second].name, events[0].from_round


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
        raise CommandError.naming(
            f"{braced(state.id)}: player {braced(names[missing[0]])} is on no board "
            f"({len(missing)} missing; give absences as byes of {{0}} zero)",
            "kind",
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


@decided_again
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
    _results_missing(state)
    hand = check_round(state, round_no, read_boards(path, state.start_ranks()))
    if hand.broken and not force:
        broken = braced("; ".join(hand.broken))
        raise CommandError.naming(
            f"{braced(tournament_id)}: round {round_no} as given breaks {len(hand.broken)} "
            f"absolute criteria: {broken}; {{0}} records it anyway",
            "force",
        )
    event = RoundPaired(round=round_no, boards=tuple(hand.boards))
    append(store, loaded, [event], command="pair --boards", forced=bool(hand.broken))
    return event, hand.broken


@decided_again
def swap_boards(store: Store, tournament_id: str, round_no: int, first: int, second: int) -> None:
    """Swap two boards of a paired round (`decide.rounds.swap`)."""
    loaded = load(store, tournament_id)
    append(store, loaded, decide.swap(loaded.state, round_no, first, second))
